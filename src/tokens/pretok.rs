//! tiktoken's two pretokenizer patterns, hand-written: one pass over the bytes, a class byte
//! per character (a 128-entry table for ASCII, a two-level table above), no automaton.
//!
//! The patterns (tiktoken 0.14, run there by `fancy-regex`, a backtracking engine):
//!
//! ```text
//! cl100k_base: (?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}
//!              | ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
//! o200k_base:  [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+C?
//!              |[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*C?
//!              |\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
//!              with C = (?i:'s|'t|'re|'ve|'m|'ll|'d)
//! ```
//!
//! Each piece is the match a backtracking engine finds at the piece's start: the first
//! alternative that matches, greedy quantifiers giving back one character at a time. The
//! functions below spell that out per alternative (the comments give the reasoning); where
//! the character sets overlap (o200k's upper and lower sets share `Lm`, `Lo` and `M`, and a
//! mark is neither `\p{L}` nor `\p{N}`, so it may also be the optional first character), they
//! follow the backtracking order literally rather than a shortcut.
//!
//! Character classes are not written down here: [`CLASSES`] is built on first use from
//! `regex-syntax`'s Unicode tables (the crate the regex pretokenizer this replaced compiled its
//! classes from), so both agree on every code point by construction; `(?i)` in the
//! contractions folds `s` to `S` and `ſ` (U+017F) and the other letters to their ASCII
//! capitals, which a unit test checks against `regex-syntax`'s case folding. The old
//! `regex-automata` pretokenizer stays in the tests as the oracle (every code point in many
//! contexts, every short string over an alphabet spanning the classes, random strings).

use std::sync::LazyLock;

use regex_syntax::hir::{Class, HirKind};

/// `\p{L}`.
pub const LETTER: u8 = 1;
/// `\p{N}`.
pub const NUMBER: u8 = 2;
/// `\s` (Unicode `White_Space`).
pub const SPACE: u8 = 4;
/// `\r` or `\n`.
pub const CRLF: u8 = 8;
/// o200k's "upper" set `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]`.
pub const UPPER: u8 = 16;
/// o200k's "lower" set `[\p{Ll}\p{Lm}\p{Lo}\p{M}]`.
pub const LOWER: u8 = 32;
/// `/` (o200k's punctuation tail `[\r\n/]*`).
pub const SLASH: u8 = 64;
/// Not a character: the end of the text (only in [`ascii_other`]).
const END: u8 = 128;

/// The class byte of every code point: `ascii` directly, the rest through 256-entry blocks.
pub struct Classes {
    ascii: [u8; 128],
    /// `index[cp >> 8]` is the block holding `cp`'s class at `cp & 0xFF`.
    index: Vec<u16>,
    blocks: Vec<u8>,
}

/// The code points of a `regex-syntax` class written as a pattern, as inclusive ranges.
fn class_ranges(pattern: &str) -> Vec<(u32, u32)> {
    // The patterns are constants covered by the unit tests: a failure is a build defect.
    #[allow(clippy::expect_used)]
    let hir = regex_syntax::parse(pattern).expect("the class patterns parse");
    match hir.kind() {
        HirKind::Class(Class::Unicode(class)) => class
            .ranges()
            .iter()
            .map(|r| (u32::from(r.start()), u32::from(r.end())))
            .collect(),
        // A one-character class is simplified to that character.
        HirKind::Literal(lit) => String::from_utf8_lossy(&lit.0)
            .chars()
            .map(|c| (u32::from(c), u32::from(c)))
            .collect(),
        other => panic!("{pattern} is not a Unicode class: {other:?}"),
    }
}

impl Classes {
    fn new() -> Self {
        let mut flat = vec![0u8; 0x11_0000];
        for (flag, pattern) in [
            (LETTER, r"\p{L}"),
            (NUMBER, r"\p{N}"),
            (SPACE, r"\s"),
            (CRLF, r"[\r\n]"),
            (SLASH, r"/"),
            (UPPER, r"[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]"),
            (LOWER, r"[\p{Ll}\p{Lm}\p{Lo}\p{M}]"),
        ] {
            for (start, end) in class_ranges(pattern) {
                for class in &mut flat[start as usize..=end as usize] {
                    *class |= flag;
                }
            }
        }
        let mut ascii = [0u8; 128];
        ascii.copy_from_slice(&flat[..128]);
        let mut index = Vec::with_capacity(flat.len() >> 8);
        let mut blocks: Vec<u8> = Vec::new();
        let mut seen: std::collections::HashMap<&[u8], u16> = std::collections::HashMap::new();
        for block in flat.chunks_exact(256) {
            let next = (blocks.len() >> 8) as u16;
            let id = *seen.entry(block).or_insert_with(|| {
                blocks.extend_from_slice(block);
                next
            });
            index.push(id);
        }
        Self {
            ascii,
            index,
            blocks,
        }
    }

    /// The class of code point `cp` (`cp <= 0x10FFFF`).
    #[inline]
    pub fn of(&self, cp: u32) -> u8 {
        if cp < 128 {
            return self.ascii[cp as usize];
        }
        let block = usize::from(self.index[(cp >> 8) as usize]);
        self.blocks[(block << 8) | (cp & 0xFF) as usize]
    }
}

/// The class table, built on first use (1.4 ms; 44 kB: 140 distinct 256-entry blocks and a
/// 4,352-entry index).
pub static CLASSES: LazyLock<Classes> = LazyLock::new(Classes::new);

/// A text being split: its bytes (valid UTF-8) and the class table.
#[derive(Clone, Copy)]
struct Text<'a> {
    bytes: &'a [u8],
    classes: &'a Classes,
}

impl Text<'_> {
    /// The class and UTF-8 length of the character starting at byte `i` (`i < len`), or
    /// `(0, 0)` at the end.
    // Forced: it is the inner step of every loop here (not inlining it cost 40% more
    // instructions).
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn at(self, i: usize) -> (u8, usize) {
        let t = self.bytes;
        let Some(&b) = t.get(i) else {
            return (0, 0);
        };
        if b < 0x80 {
            return (self.classes.ascii[usize::from(b)], 1);
        }
        // `t` is valid UTF-8, so a lead byte is followed by its continuation bytes.
        let cont = |k: usize| u32::from(t[i + k] & 0x3F);
        let (cp, len) = if b < 0xE0 {
            ((u32::from(b & 0x1F) << 6) | cont(1), 2)
        } else if b < 0xF0 {
            ((u32::from(b & 0x0F) << 12) | (cont(1) << 6) | cont(2), 3)
        } else {
            (
                (u32::from(b & 0x07) << 18) | (cont(1) << 12) | (cont(2) << 6) | cont(3),
                4,
            )
        };
        (self.classes.of(cp), len)
    }

    /// The end of the run of characters from `i` whose class satisfies `keep`.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn run(self, mut i: usize, keep: impl Fn(u8) -> bool) -> usize {
        loop {
            let (class, len) = self.at(i);
            if len == 0 || !keep(class) {
                return i;
            }
            i += len;
        }
    }

    /// `(?i:'s|'t|'re|'ve|'m|'ll|'d)` at `i`: its end, if it matches.
    #[inline]
    fn contraction(self, i: usize) -> Option<usize> {
        let t = self.bytes;
        if t.get(i) != Some(&b'\'') {
            return None;
        }
        // `(?i)` folds: s -> S, ſ (U+017F, two bytes C5 BF); the others to ASCII capitals only.
        let letter = |j: usize, lower: u8| -> Option<usize> {
            match t.get(j) {
                Some(&b) if b | 0x20 == lower => Some(j + 1),
                Some(&0xC5) if lower == b's' && t.get(j + 1) == Some(&0xBF) => Some(j + 2),
                _ => None,
            }
        };
        let j = i + 1;
        let first = *t.get(j)?;
        match first | 0x20 {
            b's' | b't' | b'm' | b'd' => letter(j, first | 0x20),
            b'r' => letter(j, b'r').and_then(|k| letter(k, b'e')),
            b'v' => letter(j, b'v').and_then(|k| letter(k, b'e')),
            b'l' => letter(j, b'l').and_then(|k| letter(k, b'l')),
            _ => letter(j, b's'), // only ſ (0xC5 | 0x20 is 0xE5: no ASCII letter)
        }
    }

    /// The whitespace alternatives at `i`, where a `\s` character starts:
    /// `\s*[\r\n]+` ends after the run's last `\r` or `\n` (greedy `\s*` gives characters
    /// back until `[\r\n]+` can match, and then that one is the last); else `\s+(?!\S)` is the
    /// whole run at the end of the text, or the run less its last character if that leaves at
    /// least one; else `\s+`, the single character.
    #[inline]
    fn whitespace(self, i: usize) -> usize {
        let mut k = i;
        let mut last_start = i;
        let mut after_newline = 0;
        loop {
            let (class, len) = self.at(k);
            if len == 0 || class & SPACE == 0 {
                break;
            }
            last_start = k;
            k += len;
            if class & CRLF != 0 {
                after_newline = k;
            }
        }
        if after_newline != 0 {
            after_newline
        } else if k == self.bytes.len() || last_start == i {
            k
        } else {
            last_start
        }
    }

    /// `\p{N}{1,3}` at `i`, where a number starts (`first` is its length).
    #[inline]
    fn digits(self, i: usize, first: usize) -> usize {
        let mut end = i + first;
        for _ in 0..2 {
            let (class, len) = self.at(end);
            if len == 0 || class & NUMBER == 0 {
                break;
            }
            end += len;
        }
        end
    }

    /// ` ?[^\s\p{L}\p{N}]+` followed by the run of characters whose class meets `tail`
    /// (`[\r\n]*`; o200k's `[\r\n/]*`): `None` if it does not match at `i`.
    #[inline]
    fn punctuation(self, i: usize, class: u8, len: usize, tail: u8) -> Option<usize> {
        let other = |c: u8| c & (SPACE | LETTER | NUMBER) == 0;
        let start = if other(class) {
            i + len
        } else if self.bytes[i] == b' ' {
            let (next, next_len) = self.at(i + 1);
            if next_len == 0 || !other(next) {
                return None;
            }
            i + 1 + next_len
        } else {
            return None;
        };
        let end = self.run(start, other);
        Some(self.run(end, |c| c & tail != 0))
    }
}

/// The end of the run of bytes from `i` that satisfy `keep`.
#[allow(clippy::inline_always)]
#[inline(always)]
fn ascii_run(t: &[u8], mut i: usize, keep: impl Fn(u8) -> bool) -> usize {
    while i < t.len() && keep(t[i]) {
        i += 1;
    }
    i
}

/// Fast path for the other common pieces when every character that decides them is ASCII:
/// a number, punctuation (with an optional leading space), or whitespace, each not followed
/// by a letter that an optional first character would join. `None` when a deciding
/// character is not ASCII, or the piece may be a letter or contraction piece: the slow path
/// then decides. `tail` is the punctuation alternative's tail class (`CRLF`, or o200k's
/// `CRLF | SLASH`).
#[inline]
fn ascii_other(text: Text<'_>, i: usize, tail: u8) -> Option<usize> {
    let t = text.bytes;
    let ascii = &text.classes.ascii;
    // The class of byte `j` if it is ASCII, `END` past the end, `None` if it is not ASCII.
    let class = |j: usize| match t.get(j) {
        None => Some(END),
        Some(&b) if b < 0x80 => Some(ascii[usize::from(b)]),
        Some(_) => None,
    };
    let other = |c: u8| c & (SPACE | LETTER | NUMBER | END) == 0;
    let byte = t[i];
    if byte == b'\'' {
        return None; // a contraction may start here
    }
    let first = class(i)?;
    let next = class(i + 1)?;
    // The punctuation alternative from `start`: the rest of the run, then the tail.
    let punctuation = |start: usize| -> Option<usize> {
        let mut end = start;
        while other(class(end)?) {
            end += 1;
        }
        while t
            .get(end)
            .is_some_and(|&b| b < 0x80 && ascii[usize::from(b)] & tail != 0)
        {
            end += 1;
        }
        Some(end)
    };
    if first & NUMBER != 0 {
        // \p{N}{1,3} (a number is neither a letter nor the optional first character).
        let mut end = i + 1;
        while end < i + 3 && class(end)? & NUMBER != 0 {
            end += 1;
        }
        return Some(end);
    }
    if other(first) {
        // The optional first character of the letter alternatives, unless a letter follows;
        // then ` ?[^\s\p{L}\p{N}]+` from here.
        return if next & LETTER == 0 {
            punctuation(i + 1)
        } else {
            None
        };
    }
    if first & SPACE == 0 {
        return None; // a letter
    }
    if first & CRLF == 0 && next & LETTER != 0 {
        return None; // whitespace other than \r, \n is the optional first character
    }
    if byte == b' ' && other(next) {
        return punctuation(i + 2);
    }
    // The whitespace alternatives, as in `Text::whitespace`, over ASCII whitespace.
    let mut k = i;
    let mut last_start = i;
    let mut after_newline = 0;
    loop {
        let c = class(k)?;
        if c & SPACE == 0 {
            break;
        }
        last_start = k;
        k += 1;
        if c & CRLF != 0 {
            after_newline = k;
        }
    }
    Some(if after_newline != 0 {
        after_newline
    } else if k == t.len() || last_start == i {
        k
    } else {
        last_start
    })
}

/// The end of the `cl100k_base` piece that starts at `i < text.len()`.
#[inline]
fn cl100k_piece(text: Text<'_>, i: usize) -> usize {
    // Fast path for the commonest piece, an optional space and ASCII letters, when the
    // letters end at an ASCII character (a non-ASCII one might be a letter): this is
    // `[^\r\n\p{L}\p{N}]?\p{L}+` (a space is in the optional class), and the contractions
    // before it cannot match (they start with an apostrophe).
    let t = text.bytes;
    let start = i + usize::from(t[i] == b' ');
    let end = ascii_run(t, start, |b| (b | 0x20).wrapping_sub(b'a') < 26);
    if end > start && t.get(end).is_none_or(u8::is_ascii) {
        return end;
    }
    if let Some(end) = ascii_other(text, i, CRLF) {
        return end;
    }
    cl100k_piece_slow(text, i)
}

/// [`cl100k_piece`] for any character: each alternative in order.
#[inline(never)]
fn cl100k_piece_slow(text: Text<'_>, i: usize) -> usize {
    let (class, len) = text.at(i);
    // (?i:'s|'t|'re|'ve|'m|'ll|'d)
    if text.bytes[i] == b'\'' {
        if let Some(end) = text.contraction(i) {
            return end;
        }
    }
    // [^\r\n\p{L}\p{N}]?\p{L}+ : take the optional character only if a letter follows
    // (else give it back; it is not a letter itself, so then the alternative fails).
    if class & LETTER != 0 {
        return text.run(i + len, |c| c & LETTER != 0);
    }
    if class & (CRLF | NUMBER) == 0 {
        let (next, next_len) = text.at(i + len);
        if next & LETTER != 0 {
            return text.run(i + len + next_len, |c| c & LETTER != 0);
        }
    }
    if class & NUMBER != 0 {
        return text.digits(i, len);
    }
    if let Some(end) = text.punctuation(i, class, len, CRLF) {
        return end;
    }
    // Every character is a letter, a number, whitespace or in the punctuation class.
    text.whitespace(i)
}

/// `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+` from `s`: greedy `*` takes the
/// whole upper run `s..u`; if a lower character follows, `+` takes the lower run from there.
/// Else `*` gives back characters until `+` can start: at the run's last character that is
/// in both sets, and `+` takes just it (the characters after it in the run are not lower, and
/// neither is the one at `u`).
#[inline]
fn o200k_upper_lower(text: Text<'_>, s: usize) -> Option<usize> {
    let mut u = s;
    let mut after_both = None;
    loop {
        let (class, len) = text.at(u);
        if len == 0 || class & UPPER == 0 {
            break;
        }
        u += len;
        if class & LOWER != 0 {
            after_both = Some(u);
        }
    }
    let (class, len) = text.at(u);
    if len != 0 && class & LOWER != 0 {
        return Some(text.run(u + len, |c| c & LOWER != 0));
    }
    after_both
}

/// `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*` from `s` (no backtracking
/// needed: the `*` can be empty).
#[inline]
fn o200k_upper_then_lower(text: Text<'_>, s: usize) -> Option<usize> {
    let (class, len) = text.at(s);
    if len == 0 || class & UPPER == 0 {
        return None;
    }
    let u = text.run(s + len, |c| c & UPPER != 0);
    Some(text.run(u, |c| c & LOWER != 0))
}

/// The end of the `o200k_base` piece that starts at `i < text.len()`.
#[inline]
fn o200k_piece(text: Text<'_>, i: usize) -> usize {
    // Fast path for an optional space, ASCII capitals, ASCII small letters, when the run ends
    // at an ASCII character (a non-ASCII one might be a letter or a mark). ASCII has no
    // character in both of o200k's letter sets, so: with small letters the first
    // alternative matches (the capitals, then the small letters); with capitals only it
    // fails (nothing to give back) and the second matches the capitals. A space is in the
    // optional first class, and without it neither alternative starts. Then the optional
    // contraction.
    let t = text.bytes;
    let start = i + usize::from(t[i] == b' ');
    let upper = ascii_run(t, start, |b| b.wrapping_sub(b'A') < 26);
    let end = ascii_run(t, upper, |b| b.wrapping_sub(b'a') < 26);
    if end > start && t.get(end).is_none_or(u8::is_ascii) {
        return text.contraction(end).unwrap_or(end);
    }
    if let Some(end) = ascii_other(text, i, CRLF | SLASH) {
        return end;
    }
    o200k_piece_slow(text, i)
}

/// [`o200k_piece`] for any character: each alternative in order.
#[inline(never)]
fn o200k_piece_slow(text: Text<'_>, i: usize) -> usize {
    let (class, len) = text.at(i);
    // The two letter alternatives, each with the optional first character taken, then given
    // back; the whole first alternative is tried before the second. A trailing contraction
    // is optional and greedy.
    let with_prefix = class & (CRLF | LETTER | NUMBER) == 0;
    if with_prefix || class & (UPPER | LOWER) != 0 {
        let prefixed = with_prefix.then_some(i + len);
        let starts = [prefixed, Some(i)];
        let found = starts
            .iter()
            .flatten()
            .find_map(|&s| o200k_upper_lower(text, s))
            .or_else(|| {
                starts
                    .iter()
                    .flatten()
                    .find_map(|&s| o200k_upper_then_lower(text, s))
            });
        if let Some(end) = found {
            return text.contraction(end).unwrap_or(end);
        }
    }
    if class & NUMBER != 0 {
        return text.digits(i, len);
    }
    if let Some(end) = text.punctuation(i, class, len, CRLF | SLASH) {
        return end;
    }
    text.whitespace(i)
}

/// Which of the two patterns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pattern {
    Cl100k,
    O200k,
}

/// The pieces of a text, in order; together they are the whole text.
pub struct Pieces<'a> {
    text: Text<'a>,
    source: &'a str,
    pattern: Pattern,
    pos: usize,
}

impl<'a> Pieces<'a> {
    pub fn new(pattern: Pattern, source: &'a str) -> Self {
        Self {
            text: Text {
                bytes: source.as_bytes(),
                classes: &CLASSES,
            },
            source,
            pattern,
            pos: 0,
        }
    }
}

impl<'a> Iterator for Pieces<'a> {
    type Item = &'a [u8];

    #[inline]
    fn next(&mut self) -> Option<&'a [u8]> {
        let start = self.pos;
        if start >= self.source.len() {
            return None;
        }
        let end = match self.pattern {
            Pattern::Cl100k => cl100k_piece(self.text, start),
            Pattern::O200k => o200k_piece(self.text, start),
        };
        self.pos = end;
        Some(&self.text.bytes[start..end])
    }
}

/// The `regex-automata` pretokenizer this module replaced, kept as the oracle of the tests.
#[cfg(test)]
pub(crate) mod oracle {
    /// tiktoken's `cl100k_base` pattern with the look-ahead rewritten (see the module doc); the
    /// oracle of [`super`].
    const CL100K_PATTERNS: [(&str, bool); 3] = [
        (
            r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+$",
            false,
        ),
        (r"\s+\s", true),
        (r"\s+", false),
    ];

    /// tiktoken's `o200k_base` pattern with the look-ahead rewritten (see the module doc); the
    /// oracle of [`super`].
    const O200K_PATTERNS: [(&str, bool); 3] = [
        (
            concat!(
                r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
                r"|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
                r"|\p{N}{1,3}",
                r"| ?[^\s\p{L}\p{N}]+[\r\n/]*",
                r"|\s*[\r\n]+",
                r"|\s+$",
            ),
            false,
        ),
        (r"\s+\s", true),
        (r"\s+", false),
    ];

    use regex_automata::meta::Regex;
    use regex_automata::{Anchored, Input};

    /// A regex of several patterns, tried in order at each position; a pattern flagged `true`
    /// gives back its last character (the emulated look-ahead).
    pub(crate) struct Pretokenizer {
        regex: Regex,
        lookahead: Vec<bool>,
    }

    impl Pretokenizer {
        fn new(patterns: &[(&str, bool)]) -> Self {
            let (sources, lookahead): (Vec<&str>, Vec<bool>) = patterns.iter().copied().unzip();
            // The patterns are constants, covered by the unit tests.
            #[allow(clippy::expect_used)]
            let regex = Regex::new_many(&sources).expect("the pretokenizer patterns compile");
            Self { regex, lookahead }
        }
    }

    /// The pieces of a text, in order; together they are the whole text.
    pub(crate) struct Splits<'a> {
        pre: &'a Pretokenizer,
        text: &'a str,
        pos: usize,
    }

    impl<'a> Iterator for Splits<'a> {
        type Item = &'a str;

        fn next(&mut self) -> Option<&'a str> {
            let rest = &self.text[self.pos..];
            if rest.is_empty() {
                return None;
            }
            let start = self.pos;
            let end = match self
                .pre
                .regex
                .find(Input::new(rest).anchored(Anchored::Yes))
            {
                Some(m) => {
                    let mut end = start + m.end();
                    if self.pre.lookahead[m.pattern().as_usize()] {
                        // `\s+\s` matched at least two characters: give the last one back.
                        let last = self.text[start..end]
                            .chars()
                            .next_back()
                            .map_or(0, char::len_utf8);
                        if end - last > start {
                            end -= last;
                        }
                    }
                    end
                }
                // Every character matches some alternative, so this is unreachable; never drop
                // text silently: the rest is one piece.
                None => self.text.len(),
            };
            self.pos = end;
            Some(&self.text[start..end])
        }
    }

    static CL100K: std::sync::LazyLock<Pretokenizer> =
        std::sync::LazyLock::new(|| Pretokenizer::new(&CL100K_PATTERNS));
    static O200K: std::sync::LazyLock<Pretokenizer> =
        std::sync::LazyLock::new(|| Pretokenizer::new(&O200K_PATTERNS));

    /// The regex pretokenizer's pieces of `text`.
    pub(crate) fn split(pattern: super::Pattern, text: &str) -> Splits<'_> {
        let pre = match pattern {
            super::Pattern::Cl100k => &*CL100K,
            super::Pattern::O200k => &*O200K,
        };
        Splits { pre, text, pos: 0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const PATTERNS: [Pattern; 2] = [Pattern::Cl100k, Pattern::O200k];

    /// Both pretokenizers' pieces of `text` agree (compared as byte ranges).
    fn check(pattern: Pattern, text: &str) {
        let ours: Vec<&[u8]> = Pieces::new(pattern, text).collect();
        let oracle: Vec<&[u8]> = oracle::split(pattern, text).map(str::as_bytes).collect();
        assert_eq!(ours, oracle, "{pattern:?} {text:?}");
    }

    /// Contexts that expose a character's class to every alternative: letters of both cases
    /// around it, digits, whitespace (with and without a newline, at the end), punctuation,
    /// the optional first character, and contractions after it.
    const CONTEXTS: &[&str] = &[
        "{c}",
        "|a{c}b A{c}a {c}'s x{c}'S 1{c}2 !{c}! {c}{c}  {c}x\n{c}\r\n",
        " {c}a {c}A \t{c} {c}{c}{c}1 {c}\u{301}a {c}'ll {c}'RE a{c}'d {c}  ",
        "Ab{c}cD{c}{c}e \u{2c6}{c}\u{2c6} \u{1c5}{c}\u{1c5}a {c}\u{5d0} \u{5d0}{c}a ({c}) {c}\n\n",
        "{c}\u{a0}{c} {c}\r{c}\n{c} {c}/{c}// {c}\u{660}{c}\u{bd}{c}",
    ];

    /// Every code point (every 7th in debug builds) in every context.
    #[test]
    fn every_code_point_in_context() {
        let step = if cfg!(debug_assertions) { 7 } else { 1 };
        for cp in (0..=0x10_FFFFu32).step_by(step) {
            let Some(c) = char::from_u32(cp) else {
                continue;
            };
            let c = c.to_string();
            for context in CONTEXTS {
                let text = context.replace("{c}", &c);
                for pattern in PATTERNS {
                    check(pattern, &text);
                }
            }
        }
    }

    /// One representative per distinction the patterns make: space, tab, CR, LF, no-break
    /// space, lower and upper ASCII letters, a title-case letter (Lt), a modifier letter (Lm,
    /// in both o200k sets), an uncased letter (Lo), a combining mark (M: in both sets, and not
    /// a letter), a digit and a non-ASCII number, the apostrophe, the contraction letters
    /// (s, ſ, l, r, e, D), `/` and other punctuation.
    const ALPHABET: &[char] = &[
        ' ', '\t', '\r', '\n', '\u{a0}', 'a', 'B', '\u{1c5}', '\u{2b0}', '\u{5d0}', '\u{301}', '1',
        '\u{bd}', '\'', 's', '\u{17f}', 'L', 'r', 'E', 'D', '/', '!',
    ];

    /// Every string of up to 4 characters over [`ALPHABET`] (5 in release builds: 5.4 M).
    #[test]
    fn every_short_string() {
        let max = if cfg!(debug_assertions) { 4 } else { 5 };
        let n = ALPHABET.len();
        let mut text = String::new();
        for len in 1..=max {
            for mut k in 0..n.pow(len) {
                text.clear();
                for _ in 0..len {
                    text.push(ALPHABET[k % n]);
                    k /= n;
                }
                for pattern in PATTERNS {
                    check(pattern, &text);
                }
            }
        }
    }

    #[test]
    fn contraction_folds_match_regex_syntax() {
        // `(?i)x` as regex-syntax folds it, for every letter in the contractions.
        for letter in ['s', 't', 'r', 'e', 'v', 'm', 'l', 'd'] {
            let hir = regex_syntax::ParserBuilder::new()
                .case_insensitive(true)
                .build()
                .parse(&letter.to_string())
                .expect("parses");
            let HirKind::Class(Class::Unicode(class)) = hir.kind() else {
                panic!("{letter}: not a class");
            };
            let folds: Vec<char> = class.iter().flat_map(|r| r.start()..=r.end()).collect();
            let mut expected = vec![letter.to_ascii_uppercase(), letter];
            if letter == 's' {
                expected.push('\u{17f}');
            }
            assert_eq!(folds, expected, "{letter}");
        }
    }

    #[test]
    fn classes_match_regex_syntax() {
        // Spot checks of the compressed table against the flat definition.
        let classes = &*CLASSES;
        for (flag, pattern) in [(LETTER, r"\p{L}"), (NUMBER, r"\p{N}"), (SPACE, r"\s")] {
            let ranges = class_ranges(pattern);
            for cp in 0..=0x10_FFFFu32 {
                let inside = ranges.iter().any(|&(a, b)| (a..=b).contains(&cp));
                assert_eq!(classes.of(cp) & flag != 0, inside, "{pattern} U+{cp:04X}");
            }
        }
    }

    /// Random characters drawn mostly from the alphabet's neighbourhoods, plus any code point.
    fn text_strategy() -> impl Strategy<Value = String> {
        let ch = prop_oneof![
            4 => proptest::sample::select(ALPHABET),
            1 => any::<char>(),
            1 => proptest::char::range('\u{300}', '\u{36f}'),
            1 => proptest::char::range('\u{1c4}', '\u{1cc}'),
        ];
        proptest::collection::vec(ch, 0..40).prop_map(|cs| cs.into_iter().collect())
    }

    proptest! {
        #[test]
        fn random_texts_agree(text in text_strategy(), any_text in any::<String>()) {
            for pattern in PATTERNS {
                check(pattern, &text);
                check(pattern, &any_text);
            }
        }
    }

    /// `BRIEFPACK_BENCH_TEXTS=FILE cargo test --release -- --ignored pretok`: both
    /// pretokenizers agree on every text of FILE (the format of `tokens::tests::bench_corpus`).
    #[test]
    #[ignore = "needs BRIEFPACK_BENCH_TEXTS"]
    fn pretok_agrees_on_file() {
        let Ok(path) = std::env::var("BRIEFPACK_BENCH_TEXTS") else {
            return;
        };
        let data = std::fs::read(path).expect("readable texts file");
        let mut rest = &data[..];
        let mut n = 0;
        while rest.len() >= 4 {
            let len = u32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]) as usize;
            let text = std::str::from_utf8(&rest[4..4 + len]).expect("UTF-8");
            for pattern in PATTERNS {
                check(pattern, text);
            }
            rest = &rest[4 + len..];
            n += 1;
        }
        eprintln!("{n} texts agree");
    }
}
