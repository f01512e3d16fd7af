//! A game record's text (tags, moves, comments, for all three games): read, and when it reads,
//! written and read back to the same record and the same text. Errors, never panics.
#![no_main]

use granary::GameRecord;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match GameRecord::read(text) {
        Ok(record) => {
            let written = record.to_string();
            let again = GameRecord::read(&written)
                .unwrap_or_else(|e| panic!("a written record does not read: {e}\n{written}"));
            assert_eq!(again, record, "{written}");
            assert_eq!(again.to_string(), written);
        }
        Err(err) => {
            let message = err.to_string();
            assert!(!message.contains('\n'), "{message}");
            assert!(err.line >= 1 && err.column >= 1);
        }
    }
});
