//! Canonical Huffman codes with a context: the coder of format version 3 ([`crate::coded`]).
//!
//! A layer of `n` seeds has `S = 2n + 1` symbols (entry `v` is symbol `v + n`) and `S + 1`
//! contexts: the previous entry's symbol, or `S` for the first entry of a block. Each context
//! has its own code, given by one byte a symbol, its code length in bits (`0`: the symbol never
//! follows this context; else `1..=MAX_CODE_LEN`). Codes are canonical (shorter codes first,
//! then by symbol), so the lengths are the whole model. Bits are written most significant first.
//!
//! ```text
//!  the model, S + 1 rows of S bytes (row c: the code of the entries that follow symbol c;
//!  row S: the code of a block's first entry)
//!
//!          symbol 0   symbol 1   ...   symbol S-1
//!  ctx 0   len        len              len
//!  ...
//!  ctx S   len        len              len
//! ```
//!
//! A decoder looks up the next `MAX_CODE_LEN` bits in its context's table of
//! `2^MAX_CODE_LEN` slots: each slot holds the symbol whose code starts those bits and the
//! code's length, or 0 where no code starts them (a damaged block).

/// The longest code: a context's decoding table has `2^MAX_CODE_LEN` slots.
pub const MAX_CODE_LEN: u32 = 11;
const SLOTS: usize = 1 << MAX_CODE_LEN;

/// Code lengths, `(S + 1) * S` bytes, context by context.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lengths {
    pub symbols: usize,
    pub lengths: Vec<u8>,
}

impl Lengths {
    /// The lengths of codes fitted to `counts` (`(S + 1) * S` counts, context by context):
    /// Huffman's, limited to [`MAX_CODE_LEN`] bits by halving a context's counts until its
    /// longest code fits. A context that never occurs gets no code; one with a single symbol
    /// gives it a code of one bit.
    #[must_use]
    pub fn fit(symbols: usize, counts: &[u64]) -> Lengths {
        assert_eq!(
            counts.len(),
            (symbols + 1) * symbols,
            "a count a context and symbol"
        );
        let mut lengths = vec![0u8; counts.len()];
        for (row, out) in counts.chunks(symbols).zip(lengths.chunks_mut(symbols)) {
            let mut row = row.to_vec();
            loop {
                huffman_lengths(&row, out);
                if out.iter().all(|&l| u32::from(l) <= MAX_CODE_LEN) {
                    break;
                }
                for c in row.iter_mut().filter(|c| **c > 0) {
                    *c = (*c).div_ceil(2);
                }
            }
        }
        Lengths { symbols, lengths }
    }

    /// The code lengths of context `context`.
    #[must_use]
    pub fn row(&self, context: usize) -> &[u8] {
        &self.lengths[context * self.symbols..(context + 1) * self.symbols]
    }

    /// The bits `counts` take under these codes (`None` if a counted symbol has no code).
    #[must_use]
    pub fn cost(&self, counts: &[u64]) -> Option<u64> {
        let mut bits = 0;
        for (&c, &l) in counts.iter().zip(&self.lengths) {
            if c > 0 {
                if l == 0 {
                    return None;
                }
                bits += c * u64::from(l);
            }
        }
        Some(bits)
    }

    /// Checks that every context's lengths form a prefix code of at most [`MAX_CODE_LEN`] bits
    /// (Kraft's sum at most one); what is wrong otherwise.
    ///
    /// # Errors
    /// A description of the first bad context.
    pub fn check(&self) -> Result<(), String> {
        for context in 0..=self.symbols {
            let mut kraft = 0usize;
            for &len in self.row(context) {
                if u32::from(len) > MAX_CODE_LEN {
                    return Err(format!("context {context}: a code of {len} bits"));
                }
                if len > 0 {
                    kraft += SLOTS >> len;
                }
            }
            if kraft > SLOTS {
                return Err(format!(
                    "context {context}: the code lengths are no prefix code"
                ));
            }
        }
        Ok(())
    }
}

/// Huffman code lengths for `counts` into `out` (0 where the count is 0; a lone symbol gets 1).
fn huffman_lengths(counts: &[u64], out: &mut [u8]) {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    out.fill(0);
    let used: Vec<usize> = (0..counts.len()).filter(|&s| counts[s] > 0).collect();
    match used.len() {
        0 => return,
        1 => {
            out[used[0]] = 1;
            return;
        }
        _ => {}
    }
    // Nodes: leaves 0..counts.len(), then inner nodes; `parent` links, depth from the root.
    let mut parent = vec![usize::MAX; counts.len()];
    let mut heap: BinaryHeap<Reverse<(u64, usize)>> =
        used.iter().map(|&s| Reverse((counts[s], s))).collect();
    while heap.len() > 1 {
        let Reverse((a, x)) = heap.pop().expect("two nodes");
        let Reverse((b, y)) = heap.pop().expect("two nodes");
        let node = parent.len();
        parent.push(usize::MAX);
        parent[x] = node;
        parent[y] = node;
        heap.push(Reverse((a + b, node)));
    }
    for &s in &used {
        let (mut depth, mut node) = (0u32, s);
        while parent[node] != usize::MAX {
            node = parent[node];
            depth += 1;
        }
        out[s] = depth.min(255) as u8;
    }
}

/// The canonical codes of one context's lengths: `(code, length)` a symbol.
fn canonical(lengths: &[u8]) -> Vec<(u32, u8)> {
    let mut order: Vec<usize> = (0..lengths.len()).filter(|&s| lengths[s] > 0).collect();
    order.sort_by_key(|&s| (lengths[s], s));
    let mut codes = vec![(0u32, 0u8); lengths.len()];
    let (mut code, mut len) = (0u32, 0u8);
    for s in order {
        code <<= lengths[s] - len;
        len = lengths[s];
        codes[s] = (code, len);
        code += 1;
    }
    codes
}

/// The codes of every context, for writing.
#[derive(Debug)]
pub struct Encoder {
    symbols: usize,
    codes: Vec<(u32, u8)>,
}

impl Encoder {
    #[must_use]
    pub fn new(lengths: &Lengths) -> Encoder {
        let codes = (0..=lengths.symbols)
            .flat_map(|c| canonical(lengths.row(c)))
            .collect();
        Encoder {
            symbols: lengths.symbols,
            codes,
        }
    }

    /// Appends the code of `symbols` (a block, the first coded in the start context) to `out`,
    /// padded with zero bits to a whole byte.
    ///
    /// # Panics
    /// If a symbol has no code in its context (the model was not fitted to these entries).
    pub fn encode(&self, symbols: impl Iterator<Item = usize>, out: &mut Vec<u8>) {
        let (mut acc, mut held) = (0u64, 0u32);
        let mut context = self.symbols;
        for s in symbols {
            let (code, len) = self.codes[context * self.symbols + s];
            assert!(len > 0, "symbol {s} has no code after context {context}");
            acc = (acc << len) | u64::from(code);
            held += u32::from(len);
            while held >= 8 {
                held -= 8;
                out.push((acc >> held) as u8);
            }
            context = s;
        }
        if held > 0 {
            out.push((acc << (8 - held)) as u8);
        }
    }
}

/// Every context's decoding tables, two of `2^MAX_CODE_LEN` slots a context, indexed by
/// `(context << MAX_CODE_LEN) | next bits`:
///
/// ```text
///  one:   u16   symbol << 4 | length                   (0: no code starts with those bits)
///
///  multi: u32   bits  0..4   the length of the codes of the symbols below, in all (0: none)
///               bits  4..6   how many symbols: 1 to 3 (0: no code starts with those bits)
///               bits  8..16  the first symbol
///               bits 16..24  the second (its context is the first), if any
///               bits 24..32  the third (its context is the second), if any
/// ```
///
/// A slot of `multi` holds as many whole codes as the next `MAX_CODE_LEN` bits contain (at most
/// three), so a decoder takes one to three symbols a lookup. `one` serves the single steps: a
/// random entry's last symbols and a block's last ones.
#[derive(Debug)]
pub struct Decoder {
    symbols: usize,
    one: Box<[u16]>,
    multi: Box<[u32]>,
}

/// The symbols a `multi` slot holds: at most this many.
const MULTI: u32 = 3;

impl Decoder {
    /// The tables of checked lengths ([`Lengths::check`]).
    #[must_use]
    pub fn new(lengths: &Lengths) -> Decoder {
        assert!(lengths.symbols < 256, "a symbol a byte");
        let mut one = vec![0u16; (lengths.symbols + 1) * SLOTS].into_boxed_slice();
        for context in 0..=lengths.symbols {
            let row = &mut one[context * SLOTS..(context + 1) * SLOTS];
            for (s, (code, len)) in canonical(lengths.row(context)).into_iter().enumerate() {
                if len == 0 {
                    continue;
                }
                let shift = MAX_CODE_LEN - u32::from(len);
                let first = (code << shift) as usize;
                row[first..first + (1 << shift)].fill(((s as u16) << 4) | u16::from(len));
            }
        }
        // A code is whole in the window if its length is at most the bits left: the slot found
        // with the unknown bits as zeros is then the slot of every way they could be.
        let mask = SLOTS - 1;
        let mut multi = vec![0u32; one.len()].into_boxed_slice();
        for (slot, out) in multi.iter_mut().enumerate() {
            let (mut context, mut bits) = (slot >> MAX_CODE_LEN, slot & mask);
            let (mut used, mut count, mut entry) = (0u32, 0u32, 0u32);
            while count < MULTI {
                let e = one[(context << MAX_CODE_LEN) | bits];
                let len = u32::from(e & 15);
                if len == 0 || used + len > MAX_CODE_LEN {
                    break;
                }
                context = usize::from(e >> 4);
                entry |= (context as u32) << (8 * (count + 1));
                used += len;
                count += 1;
                bits = (bits << len) & mask;
            }
            *out = entry | (count << 4) | used;
        }
        Decoder {
            symbols: lengths.symbols,
            one,
            multi,
        }
    }

    /// Decodes `out.len()` symbols from `bits` in the start context, each written as
    /// `symbol - offset` (wrapping: with `offset = n`, the entry as an `i8`'s byte); the bits
    /// read in all. `bits` may run on past the block (into the next one, or zeros):
    /// the caller checks the bits read against the block's length.
    ///
    /// # Errors
    /// The index of the first symbol whose bits start no code.
    pub fn decode(&self, bits: &[u8], out: &mut [u8], offset: u8) -> Result<usize, usize> {
        let (mut at, mut k, mut context) = (0usize, 0usize, self.symbols);
        while k + 4 <= out.len() {
            let e = self.multi[(context << MAX_CODE_LEN) | peek(bits, at)];
            let count = ((e >> 4) & 3) as usize;
            if count == 0 {
                return Err(k);
            }
            out[k..k + 4].copy_from_slice(&(e >> 8).to_le_bytes());
            at += (e & 15) as usize;
            k += count;
            context = ((e >> (8 * count)) & 0xff) as usize;
        }
        let at = self
            .finish(bits, at, context, &mut out[k..])
            .map_err(|i| k + i)?;
        shift_down(out, offset);
        Ok(at)
    }

    /// The single steps that end a block: `out`'s symbols from bit `at` after `context`; the
    /// bits read in all, or the index in `out` of the first symbol that is no code.
    fn finish(
        &self,
        bits: &[u8],
        mut at: usize,
        mut context: usize,
        out: &mut [u8],
    ) -> Result<usize, usize> {
        for (k, slot) in out.iter_mut().enumerate() {
            let e = self.one[(context << MAX_CODE_LEN) | peek(bits, at)];
            let len = usize::from(e & 15);
            if len == 0 {
                return Err(k);
            }
            at += len;
            context = usize::from(e >> 4);
            *slot = context as u8;
        }
        Ok(at)
    }

    /// [`Decoder::decode`] of `N` blocks of the same length at once, their steps interleaved so
    /// that the processor overlaps the blocks' chains of lookups (a block's next lookup waits
    /// for its last). The bits read in each block; on an error, each block decoded on its own.
    ///
    /// # Errors
    /// The first failing block's position in `bits` and [`Decoder::decode`]'s error.
    pub fn decode_n<const N: usize>(
        &self,
        bits: [&[u8]; N],
        mut outs: [&mut [u8]; N],
        offset: u8,
    ) -> Result<[usize; N], (usize, usize)> {
        let len = outs[0].len();
        assert!(outs.iter().all(|o| o.len() == len), "blocks of one length");
        let mut at = [0usize; N];
        let mut k = [0usize; N];
        let mut context = [self.symbols; N];
        let mut bad = false;
        // A step of every block that has four entries left before the next step of any. (Each
        // block's bits held in a register and refilled by whole bytes read 4-6 % fewer entries
        // a second than this load of 8 bytes at each step: docs/benchmarks.md.)
        loop {
            let mut stepped = false;
            for j in 0..N {
                if k[j] + 4 > len {
                    continue;
                }
                stepped = true;
                let e = self.multi[(context[j] << MAX_CODE_LEN) | peek(bits[j], at[j])];
                let count = ((e >> 4) & 3) as usize;
                bad |= count == 0;
                outs[j][k[j]..k[j] + 4].copy_from_slice(&(e >> 8).to_le_bytes());
                at[j] += (e & 15) as usize;
                context[j] = ((e >> (8 * count)) & 0xff) as usize;
                k[j] += count.max(1);
            }
            if !stepped {
                break;
            }
        }
        for j in 0..N {
            match self.finish(bits[j], at[j], context[j], &mut outs[j][k[j]..]) {
                Ok(read) => at[j] = read,
                Err(_) => bad = true,
            }
        }
        if bad {
            for j in 0..N {
                at[j] = self.decode(bits[j], outs[j], offset).map_err(|k| (j, k))?;
            }
            return Ok(at);
        }
        for out in &mut outs {
            shift_down(out, offset);
        }
        Ok(at)
    }

    /// The symbol at position `k` of the block coded in `bits` (the first `k + 1` decoded),
    /// and the bits read to reach it.
    ///
    /// # Errors
    /// The index of the first symbol whose bits start no code.
    pub fn nth(&self, bits: &[u8], k: usize) -> Result<(usize, usize), usize> {
        let (mut at, mut i, mut context) = (0usize, 0usize, self.symbols);
        // Whole slots while they end at or before symbol `k`, then single steps.
        loop {
            let e = self.multi[(context << MAX_CODE_LEN) | peek(bits, at)];
            let count = ((e >> 4) & 3) as usize;
            if count == 0 || i + count > k + 1 {
                break;
            }
            at += (e & 15) as usize;
            i += count;
            context = ((e >> (8 * count)) & 0xff) as usize;
            if i == k + 1 {
                return Ok((context, at));
            }
        }
        while i <= k {
            let e = self.one[(context << MAX_CODE_LEN) | peek(bits, at)];
            let len = usize::from(e & 15);
            if len == 0 {
                return Err(i);
            }
            at += len;
            context = usize::from(e >> 4);
            i += 1;
        }
        Ok((context, at))
    }
}

/// Symbols to entries: `symbol - offset`, wrapping.
fn shift_down(out: &mut [u8], offset: u8) {
    for b in out {
        *b = b.wrapping_sub(offset);
    }
}

/// The 8 bytes of `bits` from byte `byte` on, most significant first (zeros past the end).
#[inline]
fn word(bits: &[u8], byte: usize) -> u64 {
    match bits.get(byte..byte + 8) {
        Some(eight) => u64::from_be_bytes(eight.try_into().expect("8 bytes")),
        None => {
            let mut eight = [0u8; 8];
            let tail = bits.get(byte..).unwrap_or(&[]);
            eight[..tail.len()].copy_from_slice(tail);
            u64::from_be_bytes(eight)
        }
    }
}

/// The [`MAX_CODE_LEN`] bits of `bits` from bit `at` on (zeros past the end).
#[inline]
fn peek(bits: &[u8], at: usize) -> usize {
    ((word(bits, at >> 3) << (at & 7)) >> (64 - MAX_CODE_LEN)) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn counts_of(symbols: usize, blocks: &[Vec<usize>]) -> Vec<u64> {
        let mut counts = vec![0u64; (symbols + 1) * symbols];
        for block in blocks {
            let mut context = symbols;
            for &s in block {
                counts[context * symbols + s] += 1;
                context = s;
            }
        }
        counts
    }

    proptest! {
        /// Any blocks, coded with a model fitted to them, decode to themselves, whole and
        /// symbol by symbol, reading exactly the bits written (up to the last byte's padding).
        #[test]
        fn blocks_decode_to_what_was_coded(
            symbols in 1usize..=129,
            raw in prop::collection::vec(prop::collection::vec(any::<u32>(), 1..300), 1..6),
            skew in 0u32..20,
        ) {
            // Skewed symbols (some contexts very likely), so that long codes get limited.
            let blocks: Vec<Vec<usize>> = raw.iter().map(|b| b.iter().map(|&x| {
                let x = x as usize % (symbols << skew.min(12));
                (x.trailing_zeros() as usize + x) % symbols
            }).collect()).collect();
            let lengths = Lengths::fit(symbols, &counts_of(symbols, &blocks));
            prop_assert!(lengths.check().is_ok());
            let encoder = Encoder::new(&lengths);
            let decoder = Decoder::new(&lengths);
            for block in &blocks {
                let mut bytes = Vec::new();
                encoder.encode(block.iter().copied(), &mut bytes);
                let mut out = vec![0u8; block.len()];
                let read = decoder.decode(&bytes, &mut out, 0).unwrap();
                prop_assert_eq!(read.div_ceil(8), bytes.len());
                prop_assert!(out.iter().map(|&s| usize::from(s)).eq(block.iter().copied()));
                for (k, &s) in block.iter().enumerate() {
                    prop_assert_eq!(decoder.nth(&bytes, k).unwrap().0, s);
                }
            }
            // Four blocks at once (the first four, cut to one length; the first again where
            // there are fewer): the same symbols and bits as each alone.
            let len = blocks.iter().take(4).map(Vec::len).min().unwrap_or(0);
            let four: Vec<&[usize]> = (0..4).map(|j| &blocks[j % blocks.len().min(4)][..len]).collect();
            let coded: Vec<Vec<u8>> = four.iter().map(|block| {
                let mut bytes = Vec::new();
                encoder.encode(block.iter().copied(), &mut bytes);
                bytes
            }).collect();
            let mut outs = [(); 4].map(|()| vec![0u8; len]);
            let [a, b, c, d] = &mut outs;
            let bits = [&coded[0][..], &coded[1][..], &coded[2][..], &coded[3][..]];
            let read = decoder.decode_n(bits, [a, b, c, d], 0).unwrap();
            for j in 0..4 {
                prop_assert_eq!(read[j].div_ceil(8), coded[j].len());
                prop_assert!(outs[j].iter().map(|&s| usize::from(s)).eq(four[j].iter().copied()));
            }
        }
    }

    #[test]
    fn lengths_are_optimal_for_a_known_distribution_and_limited() {
        // Counts 1, 1, 2, 4, 8: Huffman gives 4, 4, 3, 2, 1 bits.
        let symbols = 5;
        let mut counts = vec![0u64; 6 * 5];
        counts[5 * 5..].copy_from_slice(&[1, 1, 2, 4, 8]);
        let lengths = Lengths::fit(symbols, &counts);
        assert_eq!(lengths.row(5), &[4, 4, 3, 2, 1]);
        assert_eq!(lengths.row(0), &[0; 5]);
        // Fibonacci counts would need codes of 30 bits: they are limited to MAX_CODE_LEN.
        let symbols = 30;
        let mut counts = vec![0u64; 31 * 30];
        let (mut a, mut b) = (1u64, 1u64);
        for c in &mut counts[30 * 30..] {
            *c = a;
            (a, b) = (b, a + b);
        }
        let lengths = Lengths::fit(symbols, &counts);
        lengths.check().unwrap();
        assert_eq!(
            lengths.row(30).iter().map(|&l| u32::from(l)).max(),
            Some(MAX_CODE_LEN)
        );
    }

    #[test]
    fn lengths_that_are_no_prefix_code_are_refused() {
        let lengths = Lengths {
            symbols: 3,
            lengths: vec![0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0],
        };
        assert!(lengths.check().unwrap_err().contains("context 1"));
        let long = Lengths {
            symbols: 1,
            lengths: vec![0, 12],
        };
        assert!(long.check().unwrap_err().contains("12 bits"));
    }

    #[test]
    fn bits_that_start_no_code_are_an_error() {
        // One symbol after the start context: code "0"; a 1 bit starts no code.
        let lengths = Lengths {
            symbols: 2,
            lengths: vec![1, 1, 1, 1, 1, 0],
        };
        let decoder = Decoder::new(&lengths);
        let mut out = [0u8; 3];
        assert_eq!(decoder.decode(&[0b0000_0000], &mut out, 0), Ok(3));
        assert_eq!(decoder.decode(&[0b1000_0000], &mut out, 0), Err(0));
        let (mut a, mut b) = ([0u8; 3], [0u8; 3]);
        assert_eq!(
            decoder.decode_n([&[0b0000_0000], &[0b1000_0000]], [&mut a, &mut b], 0),
            Err((1, 0))
        );
        // After symbol 0 only "0" is a code: the sixth bit, a 1, starts none. Blocks long
        // enough to be read several symbols a lookup find it at the same symbol.
        let lengths = Lengths {
            symbols: 2,
            lengths: vec![1, 0, 1, 1, 1, 0],
        };
        let decoder = Decoder::new(&lengths);
        let (good, bad) = ([0u8; 2], [0b0000_0100u8, 0]);
        let (mut a, mut b) = ([0u8; 12], [0u8; 12]);
        assert_eq!(decoder.decode(&good, &mut a, 0), Ok(12));
        assert_eq!(decoder.decode(&bad, &mut a, 0), Err(5));
        assert_eq!(decoder.nth(&bad, 4), Ok((0, 5)));
        assert_eq!(decoder.nth(&bad, 5), Err(5));
        assert_eq!(
            decoder.decode_n([&good, &bad], [&mut a, &mut b], 0),
            Err((1, 5))
        );
    }
}
