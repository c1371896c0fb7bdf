//! Text normalisation shared by the `exact`, `jaccard` and `minhash` kernels.
//!
//! Both backends read the committed character table `python/briefpack/data/chartable.txt`
//! (generated once by `scripts/gen_chartable.py` from Python 3.11's `unicodedata`, Unicode 14),
//! so results never depend on the Unicode version of the Rust standard library: this module
//! never calls `char::to_lowercase`, `char::is_whitespace` or `char::is_alphanumeric`.
//!
//! * A text's **words** are the maximal runs of *word* characters of its NFKC form
//!   ([`nfkc`]), each character lowercased by the table's simple mapping, plus every
//!   *ideograph* as a word of its own. Everything else (separators and whitespace) ends a word.
//!   Repeats are kept, in order, handed out borrowed from the input when lowercasing changes
//!   nothing. (Lowercasing never changes a character's class, so this is the same as classing
//!   the lowercased NFKC text.)
//! * The **exact key** of a text is its NFC form ([`nfc`]) with every run of *whitespace* (the
//!   table's `w` class, which follows Python's `str.isspace`) collapsed to one space and
//!   stripped at both ends. Case and punctuation are kept.
//!
//! Mirrors `briefpack.reference.text` (the oracle); `tests/test_parity_text.py` checks every
//! code point and hypothesis-generated text against it. The table is parsed once, on first use
//! (`Table`); words are found from bit masks of 64-byte blocks (`split_runs`); normalisation
//! (`normalize.rs`) borrows ASCII and text the quick check passes (one scan, no allocation).
//!
//! Complexity: `words` and `exact_key` are O(len(text)) with at most one table look-up per
//! character; both are total functions over valid UTF-8 (no panics; proptests compare both with
//! character-by-character twins). Measurements and history: `docs/performance.md`, "Words and
//! normalisation".

use std::borrow::Cow;
use std::sync::OnceLock;

pub mod normalize;
#[cfg(feature = "python")]
pub mod py;

pub use normalize::{nfc, nfkc};

/// Punctuation, symbols, emoji, controls, unassigned code points: separates words.
pub const SEPARATOR: u8 = 0;
/// Whitespace (Python's `str.isspace`): separates words, collapsed by `exact_key`.
pub const WHITESPACE: u8 = 1;
/// General category L, M or N (not an ideograph): part of a word.
pub const WORD: u8 = 2;
/// Han, Hiragana or Katakana: a word of its own.
pub const IDEOGRAPH: u8 = 3;

/// The class bits of a `Table::class_bits` entry; the flag above them marks a character
/// the table lowercases, so most characters need no second look-up.
const CLASS: u8 = 0b11;
const HAS_LOWER: u8 = 0b100;

/// Byte kinds of the ASCII fast path (`Table::byte_kind`).
const K_SEP: u8 = 0;
const K_WS: u8 = 1;
const K_PLAIN: u8 = 2;
const K_UPPER: u8 = 3;
const K_HIGH: u8 = 4;

const TABLE_TEXT: &str = include_str!("../../python/briefpack/data/chartable.txt");
const BLOCK_BITS: u32 = 8;
const BLOCK: usize = 1 << BLOCK_BITS;
const NUM_BLOCKS: usize = 0x11_0000 >> BLOCK_BITS;
const MAX_CP: u32 = 0x10_FFFF;

/// The parsed character table: two two-level lookup tables (256 code points a block,
/// identical blocks shared), one byte per code point holding its class and a flag for "the
/// table lowercases it", and the lowercase target, 0 for "unchanged" (24 distinct blocks); and
/// a 256-entry byte-kind table for the per-character loop (separator, whitespace, plain word
/// byte, upper-case letter, non-ASCII lead/continuation byte).
struct Table {
    /// Per byte: `K_SEP`, `K_WS`, `K_PLAIN`, `K_UPPER` for ASCII, `K_HIGH` for 0x80..=0xFF.
    byte_kind: [u8; 256],
    /// Whether the ASCII classes are the ones `split_runs` assumes: letters and digits are
    /// words (A..Z lowercased to a..z, nothing else changed), every other ASCII character
    /// separates words. True for the committed table (`tests::ascii_masks_hold`); if a
    /// table ever says otherwise, words are split one character at a time.
    ascii_masks: bool,
    /// Per code point: the class, with `HAS_LOWER` when the table lowercases it.
    class_index: Vec<u16>,
    class_blocks: Vec<u8>,
    lower_index: Vec<u16>,
    /// Lowercase target per code point, 0 when lowercasing leaves it unchanged.
    lower_blocks: Vec<u32>,
}

impl Table {
    /// The class of `cp` with the `HAS_LOWER` flag.
    #[inline]
    fn class_bits(&self, cp: u32) -> u8 {
        let block = self.class_index[(cp >> BLOCK_BITS) as usize] as usize;
        self.class_blocks[(block << BLOCK_BITS) | (cp as usize & (BLOCK - 1))]
    }

    #[inline]
    fn class(&self, cp: u32) -> u8 {
        self.class_bits(cp) & CLASS
    }

    /// `lower(cp)` given `bits = class_bits(cp)`: no look-up unless the flag is set.
    #[inline]
    fn lower_if(&self, bits: u8, cp: u32) -> Option<char> {
        if bits & HAS_LOWER == 0 {
            None
        } else {
            self.lower(cp)
        }
    }

    /// The lowercase of `cp`, or `None` when the table leaves it unchanged.
    #[inline]
    fn lower(&self, cp: u32) -> Option<char> {
        let block = self.lower_index[(cp >> BLOCK_BITS) as usize] as usize;
        let low = self.lower_blocks[(block << BLOCK_BITS) | (cp as usize & (BLOCK - 1))];
        if low == 0 {
            None
        } else {
            char::from_u32(low)
        }
    }
}

fn parse_hex(s: Option<&str>) -> Option<u32> {
    u32::from_str_radix(s?, 16).ok().filter(|&v| v <= MAX_CP)
}

/// Split a flat per-code-point array into 256-entry blocks, sharing identical blocks.
fn two_level<T: Copy + Eq + std::hash::Hash>(flat: &[T]) -> (Vec<u16>, Vec<T>) {
    let mut seen: std::collections::HashMap<&[T], u16> = std::collections::HashMap::new();
    let mut index = Vec::with_capacity(NUM_BLOCKS);
    let mut blocks = Vec::new();
    for chunk in flat.chunks(BLOCK) {
        let next = seen.len() as u16;
        let id = *seen.entry(chunk).or_insert_with(|| {
            blocks.extend_from_slice(chunk);
            next
        });
        index.push(id);
    }
    (index, blocks)
}

/// Parse `chartable.txt`. Malformed lines are skipped; `tests::table_is_complete` proves the
/// committed table has none and covers every code point, so a release build never skips any.
fn parse(text: &str) -> Table {
    let n = (MAX_CP + 1) as usize;
    let mut classes = vec![SEPARATOR; n];
    let mut lower = vec![0u32; n];
    for line in text.lines() {
        let mut parts = line.split_ascii_whitespace();
        match parts.next() {
            Some("R") => {
                let (Some(lo), Some(hi)) = (parse_hex(parts.next()), parse_hex(parts.next()))
                else {
                    continue;
                };
                let cls = match parts.next() {
                    Some("w") => WHITESPACE,
                    Some("a") => WORD,
                    Some("i") => IDEOGRAPH,
                    _ => SEPARATOR,
                };
                if lo <= hi {
                    classes[lo as usize..=hi as usize].fill(cls);
                }
            }
            Some("L") => {
                let (Some(cp), Some(low)) = (parse_hex(parts.next()), parse_hex(parts.next()))
                else {
                    continue;
                };
                // Only a valid scalar value can be a lowercase target (never a surrogate).
                if low != 0 && char::from_u32(low).is_some() {
                    lower[cp as usize] = low;
                }
            }
            _ => {}
        }
    }
    let mut byte_kind = [K_HIGH; 256];
    for (b, kind) in byte_kind.iter_mut().enumerate().take(128) {
        *kind = match classes[b] {
            WHITESPACE => K_WS,
            // The table's lowercase decides what changes (only A..Z in ASCII).
            WORD | IDEOGRAPH if lower[b] != 0 => K_UPPER,
            WORD => K_PLAIN,
            _ => K_SEP,
        };
    }
    let ascii_masks = (0..128u8).all(|b| {
        let (cls, low) = (classes[b as usize], lower[b as usize]);
        if b.is_ascii_uppercase() {
            cls == WORD && low == u32::from(b | 0x20)
        } else if b.is_ascii_alphanumeric() {
            cls == WORD && low == 0
        } else {
            cls == SEPARATOR || cls == WHITESPACE
        }
    });
    for (cls, &low) in classes.iter_mut().zip(&lower) {
        if low != 0 {
            *cls |= HAS_LOWER;
        }
    }
    let (class_index, class_blocks) = two_level(&classes);
    let (lower_index, lower_blocks) = two_level(&lower);
    Table {
        byte_kind,
        ascii_masks,
        class_index,
        class_blocks,
        lower_index,
        lower_blocks,
    }
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| parse(TABLE_TEXT))
}

/// Decode the character starting at byte `i` of valid UTF-8 `s`: (code point, byte length).
#[allow(
    clippy::inline_always,
    reason = "a few instructions; called per non-ASCII character"
)]
#[inline(always)]
fn decode(s: &[u8], i: usize) -> (u32, usize) {
    let b = u32::from(s[i]);
    if b < 0x80 {
        (b, 1)
    } else if b < 0xE0 {
        (((b & 0x1F) << 6) | (u32::from(s[i + 1]) & 0x3F), 2)
    } else if b < 0xF0 {
        let cp =
            ((b & 0x0F) << 12) | ((u32::from(s[i + 1]) & 0x3F) << 6) | (u32::from(s[i + 2]) & 0x3F);
        (cp, 3)
    } else {
        let cp = ((b & 0x07) << 18)
            | ((u32::from(s[i + 1]) & 0x3F) << 12)
            | ((u32::from(s[i + 2]) & 0x3F) << 6)
            | (u32::from(s[i + 3]) & 0x3F);
        (cp, 4)
    }
}

impl Table {
    /// The byte length of the whitespace character at byte `i` of `s`, or 0 if the character
    /// there is not whitespace (or `i` is not at the start of a character).
    ///
    /// Called per byte by `collapse_whitespace`: forced inline, with the non-ASCII case out of
    /// line (once `decode` was forced inline this stopped being inlined, and `exact` on the
    /// corpus went from 597 M to 922 M instructions).
    #[allow(clippy::inline_always, reason = "per byte; see above")]
    #[inline(always)]
    fn whitespace_at(&self, s: &[u8], i: usize) -> usize {
        match self.byte_kind[s[i] as usize] {
            K_WS => 1,
            // Only a lead byte (0xC0..) starts a character; continuation bytes are skipped.
            K_HIGH if s[i] >= 0xC0 => self.high_whitespace_at(s, i),
            _ => 0,
        }
    }

    /// `whitespace_at` of the non-ASCII character starting at byte `i`.
    #[inline(never)]
    fn high_whitespace_at(&self, s: &[u8], i: usize) -> usize {
        let (cp, len) = decode(s, i);
        if self.class(cp) == WHITESPACE {
            len
        } else {
            0
        }
    }
}

/// The table class of one character: `SEPARATOR`, `WHITESPACE`, `WORD` or `IDEOGRAPH`.
#[must_use]
#[inline]
pub fn char_class(c: char) -> u8 {
    table().class(c as u32)
}

/// Whether the table gives `c` a lowercase mapping (upper-case and title-case letters).
#[must_use]
#[inline]
pub fn has_lower(c: char) -> bool {
    table().lower(c as u32).is_some()
}

/// The table's simple lowercase of one character (itself when the table lists no change).
#[must_use]
pub fn char_lower(c: char) -> char {
    let cp = c as u32;
    if cp < 128 {
        return c.to_ascii_lowercase();
    }
    table().lower(cp).unwrap_or(c)
}

/// Call `f` with each lowercased word of `text`, in order, repeats kept.
///
/// The `&str` borrows `text` when lowercasing changes nothing, else a scratch buffer; it is
/// valid only for the duration of the call.
pub fn for_each_word<F: FnMut(&str)>(text: &str, mut emit: F) {
    let folded = nfkc(text);
    let table = table();
    let mut buf = String::new();
    if table.ascii_masks {
        split_runs(&folded, table, &mut buf, &mut emit);
    } else {
        split_chars(&folded, table, &mut buf, &mut emit);
    }
}

/// Bytes per block of the run scanner (one bit each in a `u64` mask).
const STRIDE: usize = 64;

/// Per-byte bit masks of one block of `STRIDE` bytes (bit `k` is byte `k`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Masks {
    /// Bytes that may belong to a word: ASCII letters and digits, and every byte >= 0x80.
    word: u64,
    /// ASCII upper-case letters.
    upper: u64,
    /// Bytes >= 0x80 (any byte of a non-ASCII character).
    high: u64,
}

/// `Masks` of a block, one byte at a time: the definition the SIMD version must match.
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse2"))))]
#[inline]
fn masks_scalar(block: &[u8; STRIDE]) -> Masks {
    let mut m = Masks {
        word: 0,
        upper: 0,
        high: 0,
    };
    for (k, &b) in block.iter().enumerate() {
        let high = b >= 0x80;
        let upper = b.is_ascii_uppercase();
        m.word |= u64::from(high || b.is_ascii_alphanumeric()) << k;
        m.upper |= u64::from(upper) << k;
        m.high |= u64::from(high) << k;
    }
    m
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline]
fn masks(block: &[u8; STRIDE]) -> Masks {
    // SAFETY: `masks_sse2` only needs SSE2, which this build enables (the cfg above; SSE2 is
    // part of the x86-64 baseline). It reads nothing but `block`.
    unsafe { masks_sse2(block) }
}

#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
#[inline]
fn masks(block: &[u8; STRIDE]) -> Masks {
    masks_scalar(block)
}

/// `masks_scalar` with SSE2: 16 bytes per compare, `pmovmskb` to gather the bits. Bytes
/// >= 0x80 are negative as `i8`, so the signed range compares never count them as ASCII.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[target_feature(enable = "sse2")]
fn masks_sse2(block: &[u8; STRIDE]) -> Masks {
    use std::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_cmpgt_epi8, _mm_cmplt_epi8, _mm_movemask_epi8, _mm_or_si128,
        _mm_set1_epi8, _mm_set_epi64x,
    };
    #[allow(clippy::cast_possible_wrap, reason = "ASCII bounds fit in i8")]
    #[target_feature(enable = "sse2")]
    fn between(v: __m128i, lo: u8, hi: u8) -> __m128i {
        _mm_and_si128(
            _mm_cmpgt_epi8(v, _mm_set1_epi8(lo as i8 - 1)),
            _mm_cmplt_epi8(v, _mm_set1_epi8(hi as i8 + 1)),
        )
    }
    // The movemask is 16 bits of an i32; reinterpret them (no sign bit is ever set).
    #[allow(clippy::cast_sign_loss, reason = "16 mask bits")]
    #[target_feature(enable = "sse2")]
    fn bits(v: __m128i) -> u64 {
        u64::from(_mm_movemask_epi8(v) as u32)
    }
    let mut m = Masks {
        word: 0,
        upper: 0,
        high: 0,
    };
    for (k, chunk) in block.chunks_exact(16).enumerate() {
        let half = |r: std::ops::Range<usize>| {
            let mut b = [0u8; 8];
            b.copy_from_slice(&chunk[r]);
            i64::from_le_bytes(b)
        };
        // Two 8-byte halves: the compiler merges them into one unaligned 16-byte load.
        let v = _mm_set_epi64x(half(8..16), half(0..8));
        let lower = _mm_or_si128(v, _mm_set1_epi8(0x20));
        let alnum = _mm_or_si128(between(v, b'0', b'9'), between(lower, b'a', b'z'));
        let high = bits(v);
        let shift = 16 * k;
        m.word |= (bits(alnum) | high) << shift;
        m.upper |= bits(between(v, b'A', b'Z')) << shift;
        m.high |= high << shift;
    }
    m
}

/// The bits below bit `k` (`k < 64`).
#[inline]
fn below(k: usize) -> u64 {
    (1u64 << k) - 1
}

/// The words of `text` by runs: every ASCII byte other than a letter or digit separates
/// words (`Table::ascii_masks` checked that against the table), so the words of `text` are
/// the words of its maximal runs of ASCII letters, digits and non-ASCII characters, taken one
/// run at a time. A run of ASCII alone is one word (lowercased by setting bit 5, which maps
/// A..Z to a..z and leaves a..z and 0..9 as they are); a run with a non-ASCII character goes
/// to `split_chars`. The runs are found 64 bytes at a time from bit masks (`masks`).
fn split_runs<F: FnMut(&str)>(text: &str, table: &Table, buf: &mut String, emit: &mut F) {
    let bytes = text.as_bytes();
    let len = bytes.len();
    // A run still open at the end of the previous block: its start, and whether it has an
    // upper-case or a non-ASCII byte so far.
    let mut open: Option<(usize, bool, bool)> = None;
    let mut base = 0;
    let mut pad = [0u8; STRIDE];
    while base < len {
        let block: &[u8; STRIDE] = if let Some(Ok(b)) = bytes
            .get(base..base + STRIDE)
            .map(<&[u8; STRIDE]>::try_from)
        {
            b
        } else {
            // The last, partial block, padded with NUL (a separator).
            pad.fill(0);
            pad[..len - base].copy_from_slice(&bytes[base..]);
            &pad
        };
        let m = masks(block);
        let prev = (m.word << 1) | u64::from(open.is_some());
        let mut starts = m.word & !prev;
        let mut ends = !m.word & prev;
        if let Some((s, upper, high)) = open {
            if ends == 0 {
                // The whole block continues the run.
                open = Some((s, upper || m.upper != 0, high || m.high != 0));
                base += STRIDE;
                continue;
            }
            let e = ends.trailing_zeros() as usize;
            ends &= ends - 1;
            let range = below(e);
            let upper = upper || m.upper & range != 0;
            let high = high || m.high & range != 0;
            run(text, s, base + e, upper, high, table, buf, emit);
            open = None;
        }
        // Runs and ends alternate from here: the lowest start pairs with the lowest end.
        let changed = m.upper | m.high;
        while starts != 0 {
            let s = starts.trailing_zeros() as usize;
            starts &= starts - 1;
            if ends == 0 {
                let from = !below(s);
                open = Some((base + s, m.upper & from != 0, m.high & from != 0));
                break;
            }
            let e = ends.trailing_zeros() as usize;
            ends &= ends - 1;
            let range = below(e) & !below(s);
            if changed & range == 0 {
                emit(&text[base + s..base + e]); // ASCII letters and digits, lower case
            } else {
                let (upper, high) = (m.upper & range != 0, m.high & range != 0);
                run(text, base + s, base + e, upper, high, table, buf, emit);
            }
        }
        base += STRIDE;
    }
    if let Some((s, upper, high)) = open {
        run(text, s, len, upper, high, table, buf, emit);
    }
}

/// The words of the run `text[start..end]` (see `split_runs`): `start` and `end` are
/// character boundaries (a run starts at an ASCII byte or a lead byte, since the byte before
/// it is an ASCII separator, and ends at an ASCII separator or the end of the text).
#[allow(clippy::too_many_arguments)]
#[inline]
fn run<F: FnMut(&str)>(
    text: &str,
    start: usize,
    end: usize,
    upper: bool,
    high: bool,
    table: &Table,
    buf: &mut String,
    emit: &mut F,
) {
    let word = &text[start..end];
    if high {
        split_chars(word, table, buf, emit);
    } else if upper {
        buf.clear();
        buf.push_str(word);
        buf.make_ascii_lowercase();
        emit(buf);
    } else {
        emit(word);
    }
}

/// The words of `text` one character at a time, with the byte-kind table for ASCII.
fn split_chars<F: FnMut(&str)>(text: &str, table: &Table, buf: &mut String, emit: &mut F) {
    let kinds = &table.byte_kind;
    let bytes = text.as_bytes();
    let end = bytes.len();
    let mut i = 0;
    while i < end {
        match kinds[bytes[i] as usize] {
            K_SEP | K_WS => {
                i += 1;
                continue;
            }
            K_HIGH => {
                let (cp, len) = decode(bytes, i);
                let bits = table.class_bits(cp);
                match bits & CLASS {
                    WORD => {}
                    IDEOGRAPH => {
                        match table.lower_if(bits, cp) {
                            Some(l) => emit(l.encode_utf8(&mut [0u8; 4])),
                            None => emit(&text[i..i + len]),
                        }
                        i += len;
                        continue;
                    }
                    _ => {
                        i += len;
                        continue;
                    }
                }
            }
            _ => {}
        }
        // A word starts at `i`. Borrow it until a character changes when lowercased, then
        // build it in `buf`.
        let start = i;
        let mut changed = false;
        while i < end {
            let byte = bytes[i];
            match kinds[byte as usize] {
                K_PLAIN => {
                    let run = i;
                    i += 1;
                    while i < end && kinds[bytes[i] as usize] == K_PLAIN {
                        i += 1;
                    }
                    if changed {
                        buf.push_str(&text[run..i]);
                    }
                }
                K_UPPER => {
                    if !changed {
                        buf.clear();
                        buf.push_str(&text[start..i]);
                        changed = true;
                    }
                    buf.push(char::from(byte | 0x20));
                    i += 1;
                }
                K_HIGH => {
                    let (cp, len) = decode(bytes, i);
                    let bits = table.class_bits(cp);
                    if bits & CLASS != WORD {
                        break;
                    }
                    match table.lower_if(bits, cp) {
                        Some(l) => {
                            if !changed {
                                buf.clear();
                                buf.push_str(&text[start..i]);
                                changed = true;
                            }
                            buf.push(l);
                        }
                        None if changed => buf.push_str(&text[i..i + len]),
                        None => {}
                    }
                    i += len;
                }
                _ => break,
            }
        }
        emit(if changed { buf } else { &text[start..i] });
    }
}

/// The lowercased words of `text`, in order, repeats kept (`reference.text.words`).
#[must_use]
pub fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for_each_word(text, |w| out.push(w.to_owned()));
    out
}

/// `nfc(text)` with every whitespace run collapsed to one space and both ends stripped
/// (`reference.text.exact_key`). Borrows `text` when it is already in that form.
#[must_use]
pub fn exact_key(text: &str) -> Cow<'_, str> {
    if text.is_ascii() {
        return collapse_whitespace(text); // NFC leaves ASCII as it is
    }
    match nfc(text) {
        Cow::Borrowed(t) => collapse_whitespace(t),
        Cow::Owned(t) => Cow::Owned(collapse_whitespace(&t).into_owned()),
    }
}

/// `text` with every whitespace run collapsed to one space and both ends stripped.
#[inline]
fn collapse_whitespace(text: &str) -> Cow<'_, str> {
    let t = table();
    let s = text.as_bytes();
    let mut out = String::new();
    let mut owned = false;
    let mut copied = 0; // text[..copied] is already in `out` (when owned)
    let mut i = 0;
    while i < s.len() {
        let len = t.whitespace_at(s, i);
        if len == 0 {
            i += 1;
            continue;
        }
        let mut j = i + len;
        while j < s.len() {
            let len = t.whitespace_at(s, j);
            if len == 0 {
                break;
            }
            j += len;
        }
        let edge = i == 0 || j == s.len();
        if !edge && j == i + 1 && s[i] == b' ' {
            i = j;
            continue; // one inner ASCII space: already normal
        }
        if !owned {
            out.reserve(s.len());
            owned = true;
        }
        out.push_str(&text[copied..i]);
        if !edge {
            out.push(' ');
        }
        copied = j;
        i = j;
    }
    if owned {
        out.push_str(&text[copied..]);
        Cow::Owned(out)
    } else {
        Cow::Borrowed(text)
    }
}

/// FNV-1a 64 of `data` (offset basis 0xcbf29ce484222325, prime 0x100000001b3).
#[must_use]
#[inline]
pub fn fnv1a64(data: &[u8]) -> u64 {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    for &b in data {
        h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

/// `SplitMix64`'s golden gamma.
pub const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// `SplitMix64`'s output mix (no increment).
#[must_use]
#[inline]
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `SplitMix64`'s output function applied to `x + golden gamma` (`reference.dedupe.splitmix64`).
#[must_use]
#[inline]
pub fn splitmix64(x: u64) -> u64 {
    mix64(x.wrapping_add(GOLDEN_GAMMA))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn table_is_complete() {
        // Every R line is well formed, ranges are contiguous and cover U+0000..U+10FFFF.
        let mut next = 0u32;
        let mut lowers = 0;
        for line in TABLE_TEXT.lines() {
            if line.starts_with('#') || line.is_empty() {
                continue;
            }
            let parts: Vec<&str> = line.split_ascii_whitespace().collect();
            match parts[0] {
                "R" => {
                    assert_eq!(parts.len(), 4, "{line}");
                    let lo = parse_hex(Some(parts[1])).expect("hex");
                    let hi = parse_hex(Some(parts[2])).expect("hex");
                    assert_eq!(lo, next, "{line}");
                    assert!(lo <= hi);
                    assert!(["a", "i", "w", "s"].contains(&parts[3]), "{line}");
                    next = hi + 1;
                }
                "L" => {
                    assert_eq!(parts.len(), 3, "{line}");
                    let cp = parse_hex(Some(parts[1])).expect("hex");
                    let low = parse_hex(Some(parts[2])).expect("hex");
                    assert!(char::from_u32(cp).is_some() && char::from_u32(low).is_some());
                    assert_ne!(cp, low);
                    assert_eq!(char_lower(char::from_u32(cp).expect("scalar")) as u32, low);
                    lowers += 1;
                }
                "C" => {
                    assert_eq!(parts.len(), 4, "{line}");
                    let ccc: u8 = parts[3].parse().expect("decimal class");
                    assert!(ccc > 0, "{line}");
                }
                "D" | "K" => {
                    assert!(parts.len() >= 3, "{line}");
                    for p in &parts[1..] {
                        assert!(char::from_u32(parse_hex(Some(p)).expect("hex")).is_some());
                    }
                }
                "P" => {
                    assert_eq!(parts.len(), 4, "{line}");
                    for p in &parts[1..] {
                        assert!(char::from_u32(parse_hex(Some(p)).expect("hex")).is_some());
                    }
                }
                other => panic!("unknown line kind {other}"),
            }
        }
        assert_eq!(next, MAX_CP + 1);
        assert!(lowers > 1000);
    }

    #[test]
    fn classes() {
        assert_eq!(char_class('a'), WORD);
        assert_eq!(char_class('5'), WORD);
        assert_eq!(char_class(' '), WHITESPACE);
        assert_eq!(char_class('\u{85}'), WHITESPACE);
        assert_eq!(char_class('\u{a0}'), WHITESPACE);
        assert_eq!(char_class('\u{3000}'), WHITESPACE);
        assert_eq!(char_class('\u{1c}'), WHITESPACE);
        assert_eq!(char_class('\u{200b}'), SEPARATOR);
        assert_eq!(char_class('中'), IDEOGRAPH);
        assert_eq!(char_class('の'), IDEOGRAPH);
        assert_eq!(char_class('ー'), IDEOGRAPH);
        assert_eq!(char_class('\u{301}'), WORD);
        assert_eq!(char_class('!'), SEPARATOR);
        assert_eq!(char_class('😀'), SEPARATOR);
        assert_eq!(char_class('\0'), SEPARATOR);
        // Unassigned in Unicode 14 (assigned later): separators by the table.
        assert_eq!(char_class('\u{10FFFF}'), SEPARATOR);
    }

    #[test]
    fn lowercase() {
        assert_eq!(char_lower('A'), 'a');
        assert_eq!(char_lower('Ä'), 'ä');
        assert_eq!(char_lower('\u{130}'), 'i');
        assert_eq!(char_lower('Σ'), 'σ');
        assert_eq!(char_lower('ß'), 'ß');
        assert_eq!(char_lower('\u{1E921}'), '\u{1E943}');
    }

    #[test]
    fn words_golden() {
        assert_eq!(
            words("Ünïcode-ready: 東京 2024!"),
            ["ünïcode", "ready", "東", "京", "2024"]
        );
        assert_eq!(
            words("the cat and THE hat"),
            ["the", "cat", "and", "the", "hat"]
        );
        assert_eq!(words(""), Vec::<String>::new());
        assert_eq!(words("  \t\n "), Vec::<String>::new());
        assert_eq!(words("HeLLo"), ["hello"]);
        assert_eq!(words("aBc\u{0}DEF"), ["abc", "def"]);
        assert_eq!(words("Straße İstanbul"), ["straße", "istanbul"]);
        // NFKC composes "e" + U+0301; "t" + U+0301 has no precomposed form.
        assert_eq!(words("e\u{301}t\u{301}e"), ["\u{e9}t\u{301}e"]);
        assert_eq!(words("caf\u{e9} CAFE\u{301}"), ["caf\u{e9}", "caf\u{e9}"]);
        assert_eq!(
            words("\u{fb01}ne \u{ff26}\u{ff29}\u{ff2e}\u{ff25}"),
            ["fine", "fine"]
        );
        assert_eq!(words("x\u{b2}"), ["x2"]);
        assert_eq!(
            words("日本語のテキストabc"),
            ["日", "本", "語", "の", "テ", "キ", "ス", "ト", "abc"]
        );
        assert_eq!(words("x😀Y"), ["x", "y"]);
    }

    #[test]
    fn exact_key_golden() {
        assert_eq!(exact_key("  Hello,\u{a0}\n world  "), "Hello, world");
        assert_eq!(exact_key("a  b"), "a b");
        assert_eq!(exact_key(" a b "), "a b");
        assert_eq!(exact_key(""), "");
        assert_eq!(exact_key("   "), "");
        assert_eq!(exact_key(" "), "");
        assert_eq!(exact_key("a"), "a");
        assert_eq!(exact_key("a "), "a");
        assert_eq!(exact_key("a\u{200b}b"), "a\u{200b}b");
        assert!(matches!(exact_key("a b c"), Cow::Borrowed(_)));
        assert_eq!(exact_key("x\u{3000}\u{85}y"), "x y");
        assert_eq!(exact_key(" cafe\u{301}  "), "caf\u{e9}");
        assert_eq!(exact_key("x\u{b2}"), "x\u{b2}");
        assert!(matches!(exact_key("caf\u{e9} b"), Cow::Borrowed(_)));
    }

    #[test]
    fn hashes() {
        assert_eq!(fnv1a64(b""), 0xCBF2_9CE4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xAF63_DC4C_8601_EC8C);
        // SplitMix64 with state 0: the first output of the reference generator.
        assert_eq!(splitmix64(0), 0xE220_A839_7B1D_CDAF);
    }

    /// Character-by-character twins of `words` and `exact_key`, written like the reference.
    fn words_slow(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut cur: Option<String> = None;
        for c in nfkc(text).chars() {
            match char_class(c) {
                WORD => cur.get_or_insert_with(String::new).push(char_lower(c)),
                cls => {
                    out.extend(cur.take());
                    if cls == IDEOGRAPH {
                        out.push(char_lower(c).to_string());
                    }
                }
            }
        }
        out.extend(cur);
        out
    }

    fn exact_key_slow(text: &str) -> String {
        let mut parts: Vec<String> = Vec::new();
        let mut cur: Option<String> = None;
        for c in nfc(text).chars() {
            if char_class(c) == WHITESPACE {
                parts.extend(cur.take());
            } else {
                cur.get_or_insert_with(String::new).push(c);
            }
        }
        parts.extend(cur);
        parts.join(" ")
    }

    /// Text mixing arbitrary characters with the ones that matter to the table.
    fn texts() -> impl Strategy<Value = String> {
        let special = prop::sample::select(vec![
            ' ',
            '\t',
            '\n',
            '\u{85}',
            '\u{a0}',
            '\u{3000}',
            '\u{1c}',
            '\u{200b}',
            '\0',
            'A',
            'z',
            '0',
            '\u{130}',
            'Σ',
            'ß',
            '\u{301}',
            '中',
            'カ',
            '😀',
            '\u{1c89}',
            '\u{10FFFF}',
            '\u{1E921}',
            '-',
            '.',
            '\u{e9}',
            '\u{fb01}',
            '\u{ff21}',
            '\u{2000}',
            '\u{1100}',
            '\u{1161}',
        ]);
        prop::collection::vec(prop_oneof![any::<char>(), special], 0..40)
            .prop_map(|cs| cs.into_iter().collect())
    }

    #[test]
    fn ascii_masks_hold() {
        // The committed table classes ASCII as `split_runs` assumes, so the fast path runs.
        assert!(table().ascii_masks);
    }

    #[test]
    fn masks_of_every_byte_at_every_position() {
        for b in 0..=255u8 {
            for k in 0..STRIDE {
                let mut block = [b'x'; STRIDE];
                block[k] = b;
                block[(k + 17) % STRIDE] = 0xE4;
                block[(k + 40) % STRIDE] = b'Q';
                assert_eq!(masks(&block), masks_scalar(&block), "byte {b:#x} at {k}");
            }
        }
    }

    /// Text whose ASCII / non-ASCII boundaries fall at every offset of the 64-byte stride:
    /// each character of `inserts` placed after 0..=140 bytes of mixed ASCII, and again
    /// before them.
    #[test]
    fn words_at_every_offset_of_the_stride() {
        let inserts = [
            "\u{e9}",
            "\u{c4}",
            "\u{130}",
            "\u{301}",
            "中",
            "カ",
            "😀",
            "\u{a0}",
            "\u{3000}",
            "\u{fb01}",
            "\u{ff21}",
            "\u{2000}",
            "Σ",
            "ß",
            "A",
            " ",
            ".",
            "\0",
            "\u{85}",
            "\u{1E921}",
        ];
        let filler = "The QUICK brown fox, jumps over 42 lazy-dogs.\tAnd_then\nIt RAN away 7x ";
        let filler: String = filler.repeat(4);
        for ins in inserts {
            for offset in 0..=140 {
                for text in [
                    format!("{}{ins}{}", &filler[..offset], &filler[offset..]),
                    format!("{}{ins}", &filler[..offset]),
                    format!("{ins}{}", &filler[..offset]),
                    format!("{}{ins}{ins}x{ins}", &filler[..offset]),
                ] {
                    assert_eq!(words(&text), words_slow(&text), "{text:?}");
                }
            }
        }
    }

    /// Longer text: runs of ASCII of every length around the stride, mixed with the
    /// characters that matter to the table.
    fn long_texts() -> impl Strategy<Value = String> {
        let piece = prop_oneof![
            3 => "[a-zA-Z0-9]{0,70}",
            2 => "[ .,;:!?()\\[\\]{}\\-_\t\n\r\x0b\x0c\x1c-\x1f\x00\x7f]{1,3}",
            2 => texts(),
            1 => "[a-zA-Z0-9 \u{80}-\u{7ff}\u{3040}-\u{30ff}\u{4e00}-\u{4e20}]{0,80}",
        ];
        prop::collection::vec(piece, 0..24).prop_map(|ps| ps.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn words_match_the_char_by_char_twin(text in texts()) {
            prop_assert_eq!(words(&text), words_slow(&text));
        }

        #[test]
        fn long_words_match_the_char_by_char_twin(text in long_texts()) {
            prop_assert_eq!(words(&text), words_slow(&text));
        }

        #[test]
        fn exact_key_matches_the_char_by_char_twin(text in texts()) {
            prop_assert_eq!(exact_key(&text), exact_key_slow(&text));
        }

        #[test]
        fn never_panics_on_arbitrary_strings(text in ".*") {
            let n = words(&text).len();
            prop_assert!(n <= nfkc(&text).chars().count());
            prop_assert!(exact_key(&text).len() <= nfc(&text).len());
        }
    }
}
