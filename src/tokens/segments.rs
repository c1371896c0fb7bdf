//! Split a text where tiktoken's pretokenizer is certain to cut, so counts add up exactly.
//!
//! # The lemma
//!
//! For both `cl100k_base` and `o200k_base`, let `j` be a position with `text[j - 1] == '\n'`
//! and `text[j]` a character that is not whitespace and not `/`. Then the pretokenization of
//! `text` is the pretokenization of `text[..j]` followed by that of `text[j..]`, and so
//! `count(text) == count(text[..j]) + count(text[j..])`. Why:
//!
//! * No piece can hold `'\n'` followed by such a character: the letter alternatives take an
//!   optional prefix from `[^\r\n\p{L}\p{N}]`, digits take no newline, the punctuation
//!   alternative ends in `[\r\n]*` (`[\r\n/]*` for `o200k_base`, hence `/`), and the
//!   whitespace alternatives hold whitespace only. Every position starts some match, so a
//!   piece ends at `j`, and the scan restarts at `j` as on `text[j..]` (no look-behind).
//! * The pieces before `j` are those of `text[..j]`: the only alternative that reads past its
//!   own end is `\s+(?!\S)`, and a whitespace run that reaches the newline at `j - 1` is
//!   taken first by `\s*[\r\n]+`, which ends at `j` in both texts.
//!
//! "Not whitespace" is decided conservatively, so that no Unicode-version difference can
//! matter: an ASCII graphic character (other than `/`), or a non-ASCII alphanumeric one.
//!
//! Tests check the lemma against the counter itself (every split of short strings over the
//! classes that matter, and the corpus in `tests/test_tokens.py`, against tiktoken).
//!
//! # Why
//!
//! A source block is `<source id="7" …>\n` + text + `\n</source>`; rendered again with another
//! label, or inside the whole prompt, its text's segments are the same strings. The cache keys
//! segments (of at least [`MIN_CACHED`] bytes) as well as whole texts, so the final accounting
//! of a prompt costs hashing, not tokenisation.

/// Groups shorter than this are counted, not cached: they would crowd the cache.
pub const MIN_CACHED: usize = 64;

/// A group of segments closes once it holds at least this many bytes.
pub const GROUP: usize = 256;

/// Whether a piece boundary is certain before `c` when a newline precedes it.
#[inline]
fn starts_segment(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_graphic() && c != '/'
    } else {
        c.is_alphanumeric()
    }
}

/// The segments of `text`, cut at every position the lemma allows; they concatenate to `text`.
pub fn split(text: &str) -> impl Iterator<Item = &str> + '_ {
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut from = 0;
    std::iter::from_fn(move || {
        if start >= bytes.len() {
            return None;
        }
        while let Some(off) = memchr_newline(&bytes[from..]) {
            let j = from + off + 1; // the position after the newline (a char boundary)
            from = j;
            if j >= bytes.len() {
                break;
            }
            // `j` follows an ASCII newline, so it is a char boundary.
            if text[j..].chars().next().is_some_and(starts_segment) {
                let seg = &text[start..j];
                start = j;
                return Some(seg);
            }
        }
        from = bytes.len();
        let seg = &text[start..];
        start = bytes.len();
        Some(seg)
    })
}

/// Consecutive segments grouped for the cache: a group closes once it holds [`GROUP`] bytes,
/// and before and after a segment that starts with `<` or `[` (a label line such as
/// `<source id="7" …>` or `</source>`). So a text's groups are the same strings wherever the
/// text is rendered: under another label, or inside a whole prompt. Any grouping is exact
/// (each cut is a segment boundary); this one only decides what the cache can reuse.
pub fn groups(text: &str) -> impl Iterator<Item = &str> + '_ {
    let mut segs = split(text).peekable();
    let base = text.as_ptr() as usize;
    std::iter::from_fn(move || {
        let first = segs.next()?;
        let start = first.as_ptr() as usize - base;
        let mut end = start + first.len();
        if !is_marker(first) {
            while let Some(next) = segs.peek() {
                if end - start >= GROUP || is_marker(next) {
                    break;
                }
                end += next.len();
                segs.next();
            }
        }
        Some(&text[start..end])
    })
}

#[inline]
fn is_marker(segment: &str) -> bool {
    matches!(segment.as_bytes().first(), Some(b'<' | b'['))
}

#[inline]
fn memchr_newline(bytes: &[u8]) -> Option<usize> {
    memchr::memchr(b'\n', bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::{count, Encoding};

    #[test]
    fn segments_concatenate_to_the_text() {
        for text in [
            "",
            "a",
            "\n",
            "a\nb",
            "a\n\nb\n",
            "x\n/y\n z\nä\n中\n",
            "\n\nq",
        ] {
            let segs: Vec<&str> = split(text).collect();
            assert_eq!(segs.concat(), text);
            assert!(segs.iter().all(|s| !s.is_empty()));
        }
        let segs: Vec<&str> = split("<a>\nText\n</a>\n\n<b>").collect();
        assert_eq!(segs, ["<a>\n", "Text\n", "</a>\n\n", "<b>"]);
        let segs: Vec<&str> = split("a\n/b\n c\n\td").collect();
        assert_eq!(segs, ["a\n/b\n c\n\td"]);
    }

    #[test]
    fn groups_are_stable_under_a_new_label() {
        let body = "line of text\n".repeat(60);
        let block = |label: &str| format!("<source id=\"{label}\">\n{body}</source>");
        let a = block("7");
        let b = block("123");
        let ga: Vec<&str> = groups(&a).collect();
        let gb: Vec<&str> = groups(&b).collect();
        assert_eq!(ga.concat(), a);
        assert_eq!(ga[1..], gb[1..]);
        assert!(ga.len() > 3 && ga[1..ga.len() - 1].iter().all(|g| g.len() >= GROUP));
        let joined = format!("{a}\n\n{b}");
        let gj: Vec<&str> = groups(&joined).collect();
        assert_eq!(gj.concat(), joined);
        for g in &ga[1..ga.len() - 1] {
            assert!(gj.contains(g));
        }
    }

    /// Every string of up to 4 characters over an alphabet that spans the pretokenizer's
    /// classes: the sum over segments is the count of the whole.
    #[test]
    fn counts_add_up_over_segments() {
        let alphabet = [
            '\n', '\r', ' ', '\t', '/', 'a', 'B', '1', '\'', 's', '.', '<', '中', 'é', '\u{a0}',
            '\u{301}',
        ];
        let mut text = String::new();
        let mut idx = [0usize; 4];
        for len in 1..=4_u32 {
            let total = alphabet.len().pow(len);
            let len = len as usize;
            for mut n in 0..total {
                for slot in idx.iter_mut().take(len) {
                    *slot = n % alphabet.len();
                    n /= alphabet.len();
                }
                text.clear();
                text.extend(idx[..len].iter().map(|&i| alphabet[i]));
                for enc in [Encoding::Cl100kBase, Encoding::O200kBase] {
                    let whole = count(enc, &text);
                    let parts: usize = split(&text).map(|s| count(enc, s)).sum();
                    assert_eq!(whole, parts, "{enc:?} {text:?}");
                }
            }
        }
    }
}
