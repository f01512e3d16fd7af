//! `--family` ranges: parsed into bounded ranges or refused, never a panic or a huge allocation.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data)
        && let Ok((pits, seeds)) = granary::game::parse_family(text)
    {
        assert!(*pits.start() >= 1 && *pits.end() <= 8);
        assert!(*seeds.start() >= 1 && *seeds.end() <= 127);
    }
});
