//! Unicode normalisation (NFC and NFKC) from the committed character table (Unicode 14).
//!
//! Mirrors `briefpack.reference.text.nfc` / `nfkc`. The data are the table's `C` (canonical
//! combining class), `D` (full canonical decomposition), `K` (full compatibility
//! decomposition) and `P` (primary composite) lines, which `scripts/gen_chartable.py` writes
//! from Python 3.11's `unicodedata`; Hangul syllables are decomposed and composed
//! algorithmically. Nothing here reads the Unicode tables of the Rust standard library.
//!
//! Algorithm (UAX #15): decompose every character fully (the table holds the recursive
//! decompositions), sort each run of non-starters by combining class (stable), then compose:
//! each character combines with the last starter when no character between them blocks it (a
//! blocker has class 0 or a class not lower than the character's) and the pair is a primary
//! composite. O(len) time apart from the sort of non-starter runs, which are a few characters.
//!
//! Fast paths, so that normalised text costs one scan and no allocation: ASCII text is returned
//! as it is (`str::is_ascii`); other text first gets the quick check of UAX #15 §9 with
//! `NFC_QC` / `NFKC_QC` derived from the same lines (No: a decomposition that is not a primary
//! composite, and for NFKC any compatibility decomposition; Maybe: the second character of a
//! primary composite, Hangul vowels and trailing consonants included). Only text whose answer
//! is not Yes (a No, a Maybe, or non-starters out of order) takes the full algorithm, and only
//! on its runs of non-ASCII characters that fail the quick check (each ASCII character is a
//! normalisation boundary), so a long passage with one ligature pays for a few characters;
//! Maybe is treated like No, which costs time but never changes a result.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::OnceLock;

use super::{decode, parse_hex, two_level, BLOCK, BLOCK_BITS, MAX_CP, TABLE_TEXT};

/// Flag bits above the combining class in [`Norm::info`].
const NFC_NO: u16 = 1 << 8;
const NFKC_NO: u16 = 1 << 9;
const MAYBE: u16 = 1 << 10;
const HAS_CANONICAL: u16 = 1 << 11;
const HAS_COMPAT: u16 = 1 << 12;

// Hangul syllables (The Unicode Standard, 3.12).
const S_BASE: u32 = 0xAC00;
const L_BASE: u32 = 0x1100;
const V_BASE: u32 = 0x1161;
const T_BASE: u32 = 0x11A7;
const L_COUNT: u32 = 19;
const V_COUNT: u32 = 21;
const T_COUNT: u32 = 28;
const N_COUNT: u32 = V_COUNT * T_COUNT;
const S_COUNT: u32 = L_COUNT * N_COUNT;

/// The normalisation data, parsed once.
struct Norm {
    /// Per code point: the canonical combining class (low byte) and the flags.
    info_index: Vec<u16>,
    info_blocks: Vec<u16>,
    /// Code point -> (start, len) in `data`: full canonical decompositions.
    canonical: HashMap<u32, (u32, u32)>,
    /// Code point -> (start, len) in `data`: full compatibility decompositions, where they
    /// differ from the canonical ones.
    compat: HashMap<u32, (u32, u32)>,
    data: Vec<u32>,
    /// `(first << 32) | second` -> primary composite.
    compose: HashMap<u64, u32>,
}

fn parse(text: &str) -> Norm {
    let n = (MAX_CP + 1) as usize;
    let mut info = vec![0u16; n];
    let mut canonical = HashMap::new();
    let mut compat = HashMap::new();
    let mut data = Vec::new();
    let mut compose = HashMap::new();
    let mut composites = Vec::new();
    for line in text.lines() {
        let mut parts = line.split_ascii_whitespace();
        match parts.next() {
            Some("C") => {
                let (Some(lo), Some(hi)) = (parse_hex(parts.next()), parse_hex(parts.next()))
                else {
                    continue;
                };
                let Some(ccc) = parts.next().and_then(|c| c.parse::<u8>().ok()) else {
                    continue;
                };
                if lo <= hi {
                    for v in &mut info[lo as usize..=hi as usize] {
                        *v = (*v & !0xFF) | u16::from(ccc);
                    }
                }
            }
            Some(kind @ ("D" | "K")) => {
                let Some(cp) = parse_hex(parts.next()) else {
                    continue;
                };
                let start = data.len() as u32;
                // Only scalar values (never a surrogate) may appear in a decomposition.
                data.extend(
                    parts.filter_map(|p| {
                        parse_hex(Some(p)).filter(|&v| char::from_u32(v).is_some())
                    }),
                );
                let entry = (start, data.len() as u32 - start);
                if kind == "D" {
                    canonical.insert(cp, entry);
                } else {
                    compat.insert(cp, entry);
                }
            }
            Some("P") => {
                let (Some(a), Some(b), Some(c)) = (
                    parse_hex(parts.next()),
                    parse_hex(parts.next()),
                    parse_hex(parts.next()),
                ) else {
                    continue;
                };
                if char::from_u32(c).is_some() {
                    compose.insert((u64::from(a) << 32) | u64::from(b), c);
                    info[b as usize] |= MAYBE;
                    composites.push(c);
                }
            }
            _ => {}
        }
    }
    // Quick-check answers: a canonical decomposition that does not compose back is NFC_QC=No
    // (singletons, non-starter decompositions, exclusions); any compatibility decomposition
    // is NFKC_QC=No as well.
    let primary: std::collections::HashSet<u32> = composites.into_iter().collect();
    for &cp in canonical.keys() {
        info[cp as usize] |= HAS_CANONICAL;
        if !primary.contains(&cp) {
            info[cp as usize] |= NFC_NO | NFKC_NO;
        }
    }
    for &cp in compat.keys() {
        info[cp as usize] |= NFKC_NO | HAS_COMPAT;
    }
    for cp in (V_BASE..V_BASE + V_COUNT).chain(T_BASE + 1..T_BASE + T_COUNT) {
        info[cp as usize] |= MAYBE;
    }
    let (info_index, info_blocks) = two_level(&info);
    Norm {
        info_index,
        info_blocks,
        canonical,
        compat,
        data,
        compose,
    }
}

fn norm() -> &'static Norm {
    static NORM: OnceLock<Norm> = OnceLock::new();
    NORM.get_or_init(|| parse(TABLE_TEXT))
}

impl Norm {
    #[inline]
    fn info(&self, cp: u32) -> u16 {
        let block = self.info_index[(cp >> BLOCK_BITS) as usize] as usize;
        self.info_blocks[(block << BLOCK_BITS) | (cp as usize & (BLOCK - 1))]
    }

    #[inline]
    fn ccc(&self, cp: u32) -> u8 {
        (self.info(cp) & 0xFF) as u8
    }

    /// Whether `s` is certainly normalised (quick check Yes); `no` is `NFC_NO` or `NFKC_NO`.
    fn quick_check(&self, s: &[u8], no: u16) -> bool {
        let mut last = 0u8;
        let mut i = 0;
        while i < s.len() {
            if s[i] < 0x80 {
                // A run of ASCII (class 0, quick check Yes): skip it eight bytes at a time.
                last = 0;
                i += 1;
                while i + 8 <= s.len() {
                    let word: [u8; 8] = s[i..i + 8].try_into().unwrap_or([0x80; 8]);
                    if u64::from_ne_bytes(word) & 0x8080_8080_8080_8080 != 0 {
                        break;
                    }
                    i += 8;
                }
                while i < s.len() && s[i] < 0x80 {
                    i += 1;
                }
                continue;
            }
            let (cp, len) = decode(s, i);
            i += len;
            let info = self.info(cp);
            let ccc = (info & 0xFF) as u8;
            if info & (no | MAYBE) != 0 || (ccc != 0 && last > ccc) {
                return false;
            }
            last = ccc;
        }
        true
    }

    /// Push the full decomposition of `cp` onto `out`.
    fn decompose(&self, cp: u32, compat: bool, out: &mut Vec<u32>) {
        // Most characters have no decomposition: one table look-up, no hashing.
        let has = if compat {
            HAS_CANONICAL | HAS_COMPAT
        } else {
            HAS_CANONICAL
        };
        if cp < 0x80 || (self.info(cp) & has == 0 && !(S_BASE..S_BASE + S_COUNT).contains(&cp)) {
            out.push(cp);
            return;
        }
        let s = cp.wrapping_sub(S_BASE);
        if s < S_COUNT {
            out.push(L_BASE + s / N_COUNT);
            out.push(V_BASE + (s % N_COUNT) / T_COUNT);
            if !s.is_multiple_of(T_COUNT) {
                out.push(T_BASE + s % T_COUNT);
            }
            return;
        }
        let found = if compat {
            self.compat.get(&cp).or_else(|| self.canonical.get(&cp))
        } else {
            self.canonical.get(&cp)
        };
        match found {
            Some(&(start, len)) => {
                out.extend_from_slice(&self.data[start as usize..(start + len) as usize]);
            }
            None => out.push(cp),
        }
    }

    /// Sort each run of non-starters by combining class, stably.
    fn canonical_order(&self, cps: &mut [u32]) {
        let mut i = 0;
        while i < cps.len() {
            if self.ccc(cps[i]) == 0 {
                i += 1;
                continue;
            }
            let mut j = i + 1;
            while j < cps.len() && self.ccc(cps[j]) != 0 {
                j += 1;
            }
            cps[i..j].sort_by_key(|&c| self.ccc(c));
            i = j;
        }
    }

    /// The primary composite of `first` and `second` (Hangul included), if any.
    fn compose_pair(&self, first: u32, second: u32) -> Option<u32> {
        // Only a character flagged Maybe is the second of any pair (Hangul V and T included).
        if second < 0x80 || self.info(second) & MAYBE == 0 {
            return None;
        }
        let (l_index, v_index) = (first.wrapping_sub(L_BASE), second.wrapping_sub(V_BASE));
        if l_index < L_COUNT && v_index < V_COUNT {
            return Some(S_BASE + (l_index * V_COUNT + v_index) * T_COUNT);
        }
        let (s_index, t_index) = (first.wrapping_sub(S_BASE), second.wrapping_sub(T_BASE));
        if s_index < S_COUNT && s_index.is_multiple_of(T_COUNT) && t_index > 0 && t_index < T_COUNT
        {
            return Some(first + t_index);
        }
        self.compose
            .get(&((u64::from(first) << 32) | u64::from(second)))
            .copied()
    }

    /// Canonical composition of decomposed, ordered code points, in place.
    fn compose(&self, cps: &mut Vec<u32>) {
        let mut out = 0; // cps[..out] is the composed prefix
        let mut starter: Option<usize> = None;
        let mut last = 0u8; // class of cps[out - 1] when it is not the starter
        for i in 0..cps.len() {
            let cp = cps[i];
            let ccc = self.ccc(cp);
            if let Some(st) = starter {
                if st + 1 == out || (last != 0 && last < ccc) {
                    if let Some(c) = self.compose_pair(cps[st], cp) {
                        cps[st] = c;
                        continue;
                    }
                }
            }
            if ccc == 0 {
                starter = Some(out);
            }
            last = ccc;
            cps[out] = cp;
            out += 1;
        }
        cps.truncate(out);
    }

    fn normalize<'t>(&self, text: &'t str, compat: bool) -> Cow<'t, str> {
        let no = if compat { NFKC_NO } else { NFC_NO };
        if text.is_ascii() || self.quick_check(text.as_bytes(), no) {
            return Cow::Borrowed(text);
        }
        // Every ASCII character is a boundary: a starter that is quick-check Yes and never
        // composes with what precedes it, so no decomposition, reordering or composition
        // crosses the point before it. Each run of non-ASCII characters, with the ASCII
        // character before it (which may compose with the run, as "e" with U+0301), is
        // normalised on its own, and ASCII in between is copied.
        let bytes = text.as_bytes();
        let mut out = String::with_capacity(text.len() + text.len() / 8);
        let mut cps = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            let mut k = i;
            while k < bytes.len() && bytes[k] < 0x80 {
                k += 1;
            }
            if k == bytes.len() {
                out.push_str(&text[i..]);
                break;
            }
            let start = if k > i { k - 1 } else { k };
            let mut end = k;
            while end < bytes.len() && bytes[end] >= 0x80 {
                end += 1;
            }
            out.push_str(&text[i..start]);
            let segment = &text[start..end];
            if self.quick_check(segment.as_bytes(), no) {
                out.push_str(segment);
            } else {
                cps.clear();
                for c in segment.chars() {
                    self.decompose(c as u32, compat, &mut cps);
                }
                self.canonical_order(&mut cps);
                self.compose(&mut cps);
                // Every code point comes from the input, the table's checked scalars or Hangul
                // arithmetic inside the syllable and jamo blocks: `from_u32` never fails here.
                out.extend(cps.iter().filter_map(|&c| char::from_u32(c)));
            }
            i = end;
        }
        Cow::Owned(out)
    }
}

/// Normalisation Form C by the table (`reference.text.nfc`). Borrows `text` when it is
/// already in NFC by the quick check (always for ASCII).
#[must_use]
pub fn nfc(text: &str) -> Cow<'_, str> {
    norm().normalize(text, false)
}

/// Normalisation Form KC by the table (`reference.text.nfkc`). Borrows `text` when it is
/// already in NFKC by the quick check (always for ASCII).
#[must_use]
pub fn nfkc(text: &str) -> Cow<'_, str> {
    norm().normalize(text, true)
}

/// The combining diacritical marks [`fold_diacritics`] drops (the five "Combining Diacritical
/// Marks" blocks; `reference.sentences.DIACRITICS`).
const DIACRITICS: &[(u32, u32)] = &[
    (0x0300, 0x036F),
    (0x1AB0, 0x1AFF),
    (0x1DC0, 0x1DFF),
    (0x20D0, 0x20FF),
    (0xFE20, 0xFE2F),
];

fn is_diacritic(cp: u32) -> bool {
    DIACRITICS.iter().any(|&(lo, hi)| (lo..=hi).contains(&cp))
}

/// A word with its accents dropped (`reference.sentences.fold`): each character whose full
/// compatibility decomposition holds a `DIACRITICS` mark becomes that decomposition without
/// those marks, a lone mark is dropped, every other character stays; then all is lowercased by
/// the table. So "fiancée" and "fiancee" are one scoring term. Borrows ASCII words.
#[must_use]
pub fn fold_diacritics(word: &str) -> Cow<'_, str> {
    if word.is_ascii() {
        return Cow::Borrowed(word);
    }
    let data = norm();
    let mut buf = Vec::new();
    let mut out = String::with_capacity(word.len());
    let mut push = |cp: u32| {
        if let Some(ch) = char::from_u32(cp) {
            out.push(super::char_lower(ch));
        }
    };
    for c in word.chars() {
        let cp = c as u32;
        if is_diacritic(cp) {
            continue;
        }
        buf.clear();
        if !(S_BASE..S_BASE + S_COUNT).contains(&cp) {
            data.decompose(cp, true, &mut buf);
        }
        if buf.iter().any(|&d| is_diacritic(d)) {
            buf.iter()
                .filter(|&&d| !is_diacritic(d))
                .for_each(|&d| push(d));
        } else {
            push(cp);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Normalisation without the quick check: the definition the fast path must match.
    fn slow(text: &str, compat: bool) -> String {
        let n = norm();
        let mut cps = Vec::new();
        for c in text.chars() {
            n.decompose(c as u32, compat, &mut cps);
        }
        n.canonical_order(&mut cps);
        n.compose(&mut cps);
        cps.into_iter().filter_map(char::from_u32).collect()
    }

    #[test]
    fn golden() {
        assert_eq!(nfc("cafe\u{301}"), "caf\u{e9}");
        assert_eq!(nfc("caf\u{e9}"), "caf\u{e9}");
        assert!(matches!(nfc("caf\u{e9}"), Cow::Borrowed(_)));
        assert!(matches!(nfkc("plain ascii"), Cow::Borrowed(_)));
        assert_eq!(nfc("x\u{b2}"), "x\u{b2}");
        assert_eq!(nfkc("x\u{b2}"), "x2");
        assert_eq!(nfkc("\u{fb01}n"), "fin");
        assert_eq!(nfkc("\u{ff21}\u{ff42}"), "Ab");
        assert_eq!(nfc("\u{212b}"), "\u{c5}"); // ANGSTROM SIGN: a singleton
        assert_eq!(nfc("\u{1100}\u{1161}\u{11a8}"), "\u{ac01}"); // Hangul L V T
        assert_eq!(nfc("\u{ac00}\u{11a8}"), "\u{ac01}"); // Hangul LV + T
        assert_eq!(nfc("\u{ac01}"), "\u{ac01}");
        // Reordering: dot below (220) before acute (230), then composition with both.
        assert_eq!(nfc("e\u{301}\u{323}"), "\u{1eb9}\u{301}");
        assert_eq!(nfc("\u{1e0b}\u{323}"), "\u{1e0d}\u{307}");
        // Blocked: a starter between, or a mark of the same class between.
        assert_eq!(nfc("a\u{308}\u{308}"), "\u{e4}\u{308}");
        // Composition exclusion: U+0958 decomposes and stays decomposed.
        assert_eq!(nfc("\u{958}"), "\u{915}\u{93c}");
        // Assigned after Unicode 14 (in 16.0 U+105D2 U+0307 composes to U+105C9): the table
        // knows nothing of it, so it stays as given whatever a newer library would do.
        assert_eq!(nfc("\u{105d2}\u{307}"), "\u{105d2}\u{307}");
    }

    fn texts() -> impl Strategy<Value = String> {
        let special = prop::sample::select(vec![
            'a', 'e', 'A', 'E', 'o', ' ', '\u{e9}', '\u{c5}', '\u{300}', '\u{301}', '\u{308}',
            '\u{323}', '\u{327}', '\u{345}', '\u{5b0}', '\u{93c}', '\u{958}', '\u{f73}',
            '\u{1100}', '\u{1161}', '\u{11a8}', '\u{ac00}', '\u{ac01}', '\u{fb01}', '\u{ff21}',
            '\u{b2}', '\u{212b}', '\u{1e0b}', '\u{a0}', '\u{fdfa}', '\u{2000}',
        ]);
        prop::collection::vec(prop_oneof![any::<char>(), special.clone(), special], 0..24)
            .prop_map(|cs| cs.into_iter().collect())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        #[test]
        fn quick_check_never_changes_a_result(text in texts()) {
            prop_assert_eq!(nfc(&text), slow(&text, false));
            prop_assert_eq!(nfkc(&text), slow(&text, true));
        }

        #[test]
        fn normal_forms_are_stable(text in texts()) {
            let c = nfc(&text).into_owned();
            prop_assert_eq!(nfc(&c), c.as_str());
            let k = nfkc(&text).into_owned();
            prop_assert_eq!(nfkc(&k), k.as_str());
            prop_assert_eq!(nfkc(&c), k.as_str());
        }
    }
}
