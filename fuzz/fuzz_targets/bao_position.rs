//! Bao position notation and move text: refused or parsed, never a panic; a parsed position
//! prints and parses back to itself, and its legal moves can be generated.
#![no_main]

use granary_bao::notation::{format_position, parse_position};
use granary_bao::{BaoRules, MoveText, Start, generate};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let _ = text.parse::<MoveText>();
    let rules = BaoRules::new(Start::ALL[usize::from(first) % Start::ALL.len()]);
    if let Ok(pos) = parse_position(text, &rules) {
        let written = format_position(&pos);
        let again = parse_position(&written, &rules).expect("a printed position parses");
        assert_eq!(again, pos, "{text:?} -> {written:?}");
        let _ = generate(&rules, &pos);
    }
});
