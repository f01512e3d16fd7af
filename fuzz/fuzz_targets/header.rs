//! Table file headers: any bytes are a header or a named error, never a panic; a header that
//! parses is checked against the kind it names, as opening a layer does.
#![no_main]

use granary_tables::TableKind;
use granary_tables::layer::{check_header, parse_header};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let path = std::path::Path::new("fuzz.tbl");
    let length = data.len() as u64;
    if let Ok(header) = parse_header(path, data, length)
        && let Some(kind) = TableKind::from_codes(
            header.game,
            header.rules,
            header.sweep,
            usize::from(header.pits),
        )
    {
        let _ = check_header(path, &header, length, kind, u32::from(header.seeds.get()));
    }
});
