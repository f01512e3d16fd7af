//! Kalah/Oware position notation: any text parses or is refused, never panics; what parses
//! prints and parses back to the same position.
#![no_main]

use granary_rules::notation::{format_position, parse_position};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    // The first byte chooses whether the pits a side are given (and how many, 0..=9).
    let pits = (first & 0x10 != 0).then_some(usize::from(first % 10));
    if let Ok((pos, m)) = parse_position(text, pits) {
        let written = format_position(&pos, m);
        let (again, m2) = parse_position(&written, Some(m)).expect("a printed position parses");
        assert_eq!((again, m2), (pos, m), "{text:?} -> {written:?}");
    }
});
