//! The header of a checkpoint file, as stored: one struct read and written whole.
//!
//! ```text
//!   offset        size     field
//!   0             8        magic "GRANRSM4"
//!   8             4        seeds of the layer (u32, little-endian)
//!   12            4        next: the phase to run next (n after the first pass, 0 when only
//!                          the last step, endless play worth 0, is left)
//!   16            8        entries of the share (u64)
//!   24            4        CRC-32 of bytes 0..24, the work bytes and the values
//!   28            4        zero
//!   32            entries  the work bytes, one a position
//!   32 + entries  entries  the values, one a position
//! ```

use std::io::{Read, Write};

use zerocopy::little_endian::{U32, U64};
use zerocopy::{FromBytes, FromZeros, Immutable, IntoBytes, KnownLayout, Unaligned};

/// The magic of this version: its work bytes as `crate::phases` lays them out (a resolved
/// position's byte holds its value's sign and magnitude).
pub const MAGIC: [u8; 8] = *b"GRANRSM4";
/// Header bytes; the work bytes follow.
pub const HEADER_LEN: usize = 32;

/// The header of a checkpoint (the module documentation).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct Header {
    pub magic: [u8; 8],
    /// Seeds of the layer.
    pub seeds: U32,
    /// The phase to run next.
    pub next: U32,
    /// Positions of the share.
    pub entries: U64,
    /// CRC-32 of the header's bytes before it, the work bytes and the values.
    pub crc32: U32,
    pub reserved: [u8; 4],
}

const _: () = assert!(size_of::<Header>() == HEADER_LEN);

/// Header bytes the checksum covers: those before the checksum.
const CHECKED: usize = std::mem::offset_of!(Header, crc32);

impl Header {
    /// The header of a checkpoint of `entries` positions of layer `seeds` before phase `next`,
    /// its checksum not yet known (zero).
    #[must_use]
    pub fn new(seeds: u32, next: u32, entries: u64) -> Header {
        Header {
            magic: MAGIC,
            seeds: U32::new(seeds),
            next: U32::new(next),
            entries: U64::new(entries),
            crc32: U32::new(0),
            reserved: [0; 4],
        }
    }

    /// The header at the start of what `input` reads.
    ///
    /// # Errors
    /// The read fails or ends before a whole header.
    pub fn read_from(input: &mut impl Read) -> std::io::Result<Header> {
        let mut header = Header::new_zeroed();
        input.read_exact(header.as_mut_bytes())?;
        Ok(header)
    }

    /// Writes the header to `out`.
    ///
    /// # Errors
    /// The write fails.
    pub fn write_to(&self, out: &mut impl Write) -> std::io::Result<()> {
        out.write_all(self.as_bytes())
    }

    /// A CRC-32 hasher that has taken in the header's bytes the checksum covers; the body (the
    /// work bytes, then the values) follows.
    #[must_use]
    pub fn hasher(&self) -> crc32fast::Hasher {
        let mut crc = crc32fast::Hasher::new();
        crc.update(&self.as_bytes()[..CHECKED]);
        crc
    }

    /// The checksum of a checkpoint of this header and `body` (the bytes after the header).
    #[must_use]
    pub fn checksum(&self, body: &[u8]) -> u32 {
        let mut crc = self.hasher();
        crc.update(body);
        crc.finalize()
    }

    /// The phase a checkpoint with this header resumes at, if it is one of a share of `entries`
    /// positions of layer `seeds` (its checksum aside); else why not.
    pub(super) fn check(&self, seeds: u32, entries: u64) -> Result<u32, String> {
        if self.magic != MAGIC {
            return Err("not a checkpoint of this version (magic)".into());
        }
        if self.seeds.get() != seeds {
            return Err(format!("a checkpoint of layer {}, not {seeds}", self.seeds));
        }
        if self.entries.get() != entries {
            return Err(format!(
                "a checkpoint of {} positions, not this share's {entries}",
                self.entries
            ));
        }
        let next = self.next.get();
        if next > seeds {
            return Err(format!("phase {next} beyond the layer's {seeds}"));
        }
        if self.reserved != [0; 4] {
            return Err("reserved header bytes not zero".into());
        }
        Ok(next)
    }
}
