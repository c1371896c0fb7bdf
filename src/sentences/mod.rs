//! Sentences: splitting, lexical scoring with aliases learned from the request, and selection.
//!
//! Mirrors `briefpack.reference.sentences` (the oracle) rule for rule; `docs/semantics.md`
//! ("Sentences") states the rules and `tests/test_sentences.py` holds both backends equal.
//! Character classes come from the committed table (`crate::text`) or from the explicit lists
//! below, never from the Rust standard library's Unicode tables.
//!
//! * [`spans`]: a text's sentences as `(start, end)` offsets in characters (code points, as
//!   Python indexes a str). A line break always ends a unit; `. ! ? …` end a sentence before
//!   whitespace (so decimals, versions, URLs and emails never split), after the run of stops
//!   and the closing quotes and brackets that follow; `。 ！ ？ । ؟ ．` end one wherever they
//!   stand; abbreviations, lower-case initialisms and ellipses end one only before an
//!   upper-case word (or never, for titles like "Dr.", company forms like "Co." and upper-case
//!   initials and initialisms like "J." and "U.S."); a list marker ("1.", "2)") that opens a sentence is kept in
//!   it. Spans partition the non-whitespace of the text, in order.
//! * [`aliases`]: definitions "long form (SHORT)" and "SHORT (long form)" whose long form has
//!   one word per letter of SHORT, with matching initials.
//! * [`score`]: BM25 (k1 = 1.2, b = 0.75, idf `ln(1 + (N - df + 0.5) / (df + 0.5))`) over the
//!   sentences as the collection, on the shared words folded for accents (decomposed, the
//!   combining diacritical marks dropped, lowercased) with each learned long form read as its
//!   short form, then each all-ASCII-letter term longer than [`STEM`] letters cut to its
//!   first [`STEM`] (after the stopword test), and a few word forms no truncation joins read
//!   as one term ("born" as "birth", "died" and "dead" as "death": `form`); the question's distinct non-stopword terms are summed in first-occurrence
//!   order, the same float64 operations in the same order as the reference, so the floats are
//!   identical.
//! * [`select`]: the sentences scoring `>= threshold`, closed under "continues": the next
//!   sentence when it is led by a continuation word, the previous one when the kept one is.
//!
//! Complexity: `spans` is O(len) per text (a stop run and its closers are scanned once; the
//! abbreviation look-back is bounded by the sentence); `aliases` is O(len) per text (each
//! character is in at most one "before" segment); `score` is O(total words · longest alias).
//! Texts are decoded to `Vec<char>` once so offsets are code-point indices like the reference's;
//! the byte-level fast path of `crate::text` was not worth its complexity here (sentence
//! splitting runs on the placed candidates of one request, not on a corpus).

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use rustc_hash::{FxHashMap, FxHashSet};

use crate::text::normalize::fold_diacritics;
use crate::text::{char_class, char_lower, has_lower, words, WHITESPACE, WORD};

#[cfg(feature = "python")]
pub mod py;

/// Characters that end a line (those of Python's `str.splitlines`).
const LINE_BREAKS: &[char] = &[
    '\n', '\r', '\x0b', '\x0c', '\x1c', '\x1d', '\x1e', '\u{85}', '\u{2028}', '\u{2029}',
];
/// `. ! ? … ‼ ⁇ ⁈ ⁉ ‽`: end a sentence only before whitespace or the end of the text.
const SPACED_STOPS: &[char] = &[
    '.', '!', '?', '\u{2026}', '\u{203c}', '\u{2047}', '\u{2048}', '\u{2049}', '\u{203d}',
];
/// `。 ！ ？ ｡ । ॥ ؟ ۔`: end a sentence wherever they stand.
const FIRM_STOPS: &[char] = &[
    '\u{3002}', '\u{ff01}', '\u{ff1f}', '\u{ff61}', '\u{0964}', '\u{0965}', '\u{061f}', '\u{06d4}',
];
/// `．`: a firm stop except directly before a digit.
const FULLWIDTH_STOP: char = '\u{ff0e}';
/// Closing quotes and brackets: after a stop they belong to the sentence.
const CLOSERS: &[char] = &[
    '"', '\'', ')', ']', '}', '\u{bb}', '\u{203a}', '\u{201d}', '\u{2019}', '\u{300d}', '\u{300f}',
    '\u{ff09}', '\u{ff3d}', '\u{ff5d}', '\u{3009}', '\u{300b}', '\u{3011}', '\u{3015}', '\u{3017}',
    '\u{3019}', '\u{301b}', '\u{ff02}', '\u{ff07}',
];
/// Opening quotes and brackets: skipped before an abbreviation and before the next word.
const OPENERS: &[char] = &[
    '"', '\'', '(', '[', '{', '\u{ab}', '\u{2039}', '\u{201c}', '\u{2018}', '\u{201e}', '\u{300c}',
    '\u{300e}', '\u{ff08}', '\u{ff3b}', '\u{ff5b}', '\u{3008}', '\u{300a}', '\u{3010}', '\u{3014}',
    '\u{3016}', '\u{3018}', '\u{301a}', '\u{bf}', '\u{a1}',
];
/// Abbreviations after which a sentence never ends (case-sensitive).
const NEVER_END: &[&str] = &[
    "Mr", "Mrs", "Ms", "Mx", "Dr", "Prof", "Rev", "Hon", "St", "Mt", "Gen", "Col", "Capt", "Lt",
    "Sgt", "Gov", "Sen", "Rep", "e.g", "E.g", "i.e", "I.e", "cf", "Cf", "vs", "Vs", "viz",
    "approx", "Approx", "ca", "Fig", "Figs", "fig", "figs", "No", "Nos", "Vol", "Vols", "vol",
    "Ch", "ch", "Sec", "Eq", "Eqs", "eq", "Ref", "Refs", "ref", "pp", "Art", "Co", "Cos", "Inc",
    "Ltd", "Corp", "LLC", "LLP", "LP", "GmbH", "plc", "Plc", "Pty",
];
/// Abbreviations that end a sentence only before an upper-case word.
const MAYBE_END: &[&str] = &["etc", "Jr", "Sr", "al", "Bros", "Ph.D"];
/// Opening brackets: after an abbreviation that may end a sentence, they continue it.
const BRACKETS: &[char] = &['(', '[', '\u{ff08}', '\u{ff3b}'];
/// First words that make a sentence continue the one before it.
const CONTINUATIONS: &[&str] = &[
    "it",
    "its",
    "this",
    "these",
    "that",
    "those",
    "they",
    "them",
    "their",
    "he",
    "she",
    "his",
    "her",
    "such",
    "and",
    "but",
    "or",
    "so",
    "yet",
    "also",
    "however",
    "then",
    "thus",
    "therefore",
    "hence",
    "otherwise",
    "instead",
    "still",
    "although",
    "though",
    "moreover",
    "furthermore",
    "additionally",
    "besides",
    "nevertheless",
    "nonetheless",
    "consequently",
    "accordingly",
    "likewise",
    "similarly",
    "meanwhile",
    "except",
    "unless",
];
/// Words that are never query terms.
const STOPWORDS: &[&str] = &[
    "a", "an", "the", "is", "are", "was", "were", "be", "been", "being", "am", "do", "does", "did",
    "done", "has", "have", "had", "having", "of", "in", "on", "at", "to", "for", "from", "by",
    "with", "as", "into", "onto", "about", "over", "than", "and", "or", "but", "nor", "not", "no",
    "if", "so", "it", "its", "this", "that", "these", "those", "there", "here", "what", "which",
    "who", "whom", "whose", "when", "where", "why", "how", "i", "me", "my", "we", "us", "our",
    "you", "your", "he", "him", "his", "she", "her", "they", "them", "their", "can", "could",
    "will", "would", "shall", "should", "may", "might", "must", "also", "just", "only", "very",
];

/// BM25 term-frequency saturation.
pub const K1: f64 = 1.2;
/// BM25 length normalisation.
pub const B: f64 = 0.75;

#[inline]
fn is_space(c: char) -> bool {
    char_class(c) == WHITESPACE
}

#[inline]
fn is_digit(c: char) -> bool {
    c.is_ascii_digit() || ('\u{ff10}'..='\u{ff19}').contains(&c)
}

fn is_stop(t: &[char], i: usize) -> bool {
    let c = t[i];
    if SPACED_STOPS.contains(&c) || FIRM_STOPS.contains(&c) {
        return true;
    }
    c == FULLWIDTH_STOP && !(i + 1 < t.len() && is_digit(t[i + 1]))
}

/// Past a list marker ("1.", "12)", "a.") that opens a sentence and is followed by whitespace
/// or the end: the index after its "." or ")"; else `i`.
fn skip_marker(t: &[char], i: usize) -> usize {
    let n = t.len();
    let mut m = i;
    while m < n && m - i < 3 && t[m].is_ascii_digit() {
        m += 1;
    }
    if m == i {
        if !t[i].is_ascii_alphabetic() {
            return i;
        }
        m = i + 1;
    } else if m < n && t[m].is_ascii_digit() {
        return i;
    }
    if m < n && (t[m] == '.' || t[m] == ')') && (m + 1 == n || is_space(t[m + 1])) {
        return m + 1;
    }
    i
}

/// The non-whitespace run ending at `i` (not before `start`), leading openers stripped.
fn word_before(t: &[char], start: usize, i: usize) -> &[char] {
    let mut b = i;
    while b > start && !is_space(t[b - 1]) {
        b -= 1;
    }
    while b < i && OPENERS.contains(&t[b]) {
        b += 1;
    }
    &t[b..i]
}

fn in_list(word: &[char], list: &[&str]) -> bool {
    list.iter().any(|w| w.chars().eq(word.iter().copied()))
}

/// Single letters joined by dots: "U.S", "e.g", "p.m".
fn is_initialism(word: &[char]) -> bool {
    word.len() >= 3
        && word.len() % 2 == 1
        && word.iter().enumerate().all(|(k, &c)| {
            if k % 2 == 1 {
                c == '.'
            } else {
                char_class(c) == WORD && !is_digit(c)
            }
        })
}

/// An initialism whose letters are all upper-case: "U.S", "L.P", "S.A" (not "p.m").
fn is_upper_initialism(word: &[char]) -> bool {
    is_initialism(word) && word.iter().step_by(2).all(|&c| has_lower(c))
}

/// The index of the first character at or after `k` that is not a space on this line.
fn skip_line_spaces(t: &[char], k: usize) -> usize {
    let mut m = k;
    while m < t.len() && is_space(t[m]) && !LINE_BREAKS.contains(&t[m]) {
        m += 1;
    }
    m
}

/// Whether the next word on this line (past spaces and openers) starts upper-case; the end of
/// the line counts as yes.
fn next_is_upper(t: &[char], k: usize) -> bool {
    let n = t.len();
    let mut m = skip_line_spaces(t, k);
    if m == n || LINE_BREAKS.contains(&t[m]) {
        return true;
    }
    while m < n && OPENERS.contains(&t[m]) {
        m += 1;
    }
    m < n && has_lower(t[m])
}

/// After an abbreviation that may end a sentence: whether the next word on this line starts
/// one. As `next_is_upper`, except that a word opening with a bracket continues the sentence
/// ("Edward Wood Jr. (October 10, 1924 - ...)").
fn next_starts_sentence(t: &[char], k: usize) -> bool {
    let m = skip_line_spaces(t, k);
    if m < t.len() && BRACKETS.contains(&t[m]) {
        return false;
    }
    next_is_upper(t, m)
}

/// Whether the stops `t[i..j]` and the closers `t[j..k]` end the sentence that began at `start`.
fn ends(t: &[char], start: usize, i: usize, j: usize, k: usize) -> bool {
    let run = &t[i..j];
    if run
        .iter()
        .any(|c| FIRM_STOPS.contains(c) || *c == FULLWIDTH_STOP)
    {
        return true;
    }
    if k < t.len() && !is_space(t[k]) {
        return false;
    }
    if run == ['.'] && k == j {
        let word = word_before(t, start, i);
        if in_list(word, NEVER_END)
            || (word.len() == 1 && has_lower(word[0]))
            || is_upper_initialism(word)
        {
            return false;
        }
        // A single lower-case letter ("c. 80", "p. 12") ends only before a capital, like "etc".
        if in_list(word, MAYBE_END)
            || is_initialism(word)
            || (word.len() == 1 && word[0].is_ascii_lowercase())
        {
            return next_starts_sentence(t, k);
        }
        return true;
    }
    if run.iter().all(|&c| c == '.' || c == '\u{2026}') {
        return next_is_upper(t, k);
    }
    true
}

/// The sentences of one text, already decoded to characters, as `(start, end)` indices.
/// Names follow the reference: `i` scans, `j` ends the run of stops, `k` the closers.
#[allow(clippy::many_single_char_names)]
fn spans_of_chars(t: &[char]) -> Vec<(usize, usize)> {
    let n = t.len();
    let mut out = Vec::new();
    let mut i = 0;
    while i < n {
        if is_space(t[i]) {
            i += 1;
            continue;
        }
        let start = i;
        i = skip_marker(t, i);
        while i < n {
            if LINE_BREAKS.contains(&t[i]) {
                break;
            }
            if is_stop(t, i) {
                let mut j = i;
                while j < n && is_stop(t, j) {
                    j += 1;
                }
                let mut k = j;
                while k < n && CLOSERS.contains(&t[k]) {
                    k += 1;
                }
                if ends(t, start, i, j, k) {
                    i = k;
                    break;
                }
                i = j;
                continue;
            }
            i += 1;
        }
        let mut end = i;
        // t[start] is not whitespace, so this stops at start + 1 at the latest.
        while end > start + 1 && is_space(t[end - 1]) {
            end -= 1;
        }
        out.push((start, end));
    }
    out
}

/// One text's sentences as `(start, end)` offsets in characters (code points).
#[must_use]
pub fn spans(text: &str) -> Vec<(usize, usize)> {
    let chars: Vec<char> = text.chars().collect();
    spans_of_chars(&chars)
}

/// Sentence spans of a batch, flat: `(starts, ends, offsets)` as `reference.split_sentences`.
#[must_use]
pub fn split<S: AsRef<str>>(texts: &[S]) -> (Vec<usize>, Vec<usize>, Vec<usize>) {
    let mut starts = Vec::new();
    let mut ends = Vec::new();
    let mut offsets = Vec::with_capacity(texts.len() + 1);
    offsets.push(0);
    for text in texts {
        for (s, e) in spans(text.as_ref()) {
            starts.push(s);
            ends.push(e);
        }
        offsets.push(starts.len());
    }
    (starts, ends, offsets)
}

fn strip(t: &[char]) -> &[char] {
    let mut a = 0;
    let mut b = t.len();
    while a < b && is_space(t[a]) {
        a += 1;
    }
    while b > a && is_space(t[b - 1]) {
        b -= 1;
    }
    &t[a..b]
}

/// 2 to 10 word characters, at least two of them upper-case: `SSO`, `IdP`, `B2B`.
fn is_acronym(token: &[char]) -> bool {
    (2..=10).contains(&token.len())
        && token.iter().all(|&c| char_class(c) == WORD)
        && token.iter().filter(|&&c| has_lower(c)).count() >= 2
}

fn matches(short: &str, long: &[String]) -> bool {
    short.chars().count() == long.len()
        && long
            .iter()
            .zip(short.chars())
            .all(|(w, s)| w.starts_with(s))
}

fn lowered(token: &[char]) -> String {
    token.iter().map(|&c| char_lower(c)).collect()
}

/// A definition "long (SHORT)" or "SHORT (long)" as `(short, long words)`.
fn definition(before: &[char], inner: &[char]) -> Option<(String, Vec<String>)> {
    let b = strip(before);
    let last = *b.last()?;
    if char_class(last) != WORD {
        return None;
    }
    let inside = strip(inner);
    if is_acronym(inside) {
        let short = lowered(inside);
        let all: Vec<String> = words(&b.iter().collect::<String>());
        let take = short.chars().count().min(all.len());
        let long = &all[all.len() - take..];
        if matches(&short, long) {
            return Some((short, long.to_vec()));
        }
    }
    let mut t = b.len();
    while t > 0 && char_class(b[t - 1]) == WORD {
        t -= 1;
    }
    if is_acronym(&b[t..]) {
        let short = lowered(&b[t..]);
        let long = words(&inside.iter().collect::<String>());
        if matches(&short, &long) {
            return Some((short, long));
        }
    }
    None
}

fn definitions(text: &str, out: &mut Vec<(String, Vec<String>)>) {
    if !text.contains('(') {
        return; // a definition needs a "(": skip decoding the text
    }
    let t: Vec<char> = text.chars().collect();
    let n = t.len();
    let mut seg = 0;
    let mut i = 0;
    while i < n {
        match t[i] {
            '(' => {
                let mut q = i + 1;
                while q < n && t[q] != '(' && t[q] != ')' {
                    q += 1;
                }
                if q < n && t[q] == ')' {
                    if let Some(found) = definition(&t[seg..i], &t[i + 1..q]) {
                        out.push(found);
                    }
                    seg = q + 1;
                    i = q + 1;
                    continue;
                }
                seg = i + 1;
            }
            ')' => seg = i + 1,
            _ => {}
        }
        i += 1;
    }
}

/// The abbreviations `texts` define, as `(short, long words)`; the first definition of each
/// long form wins, in order of appearance (`reference.sentence_aliases`).
#[must_use]
pub fn aliases<S: AsRef<str>>(texts: &[S]) -> Vec<(String, Vec<String>)> {
    let mut found = Vec::new();
    for text in texts {
        definitions(text.as_ref(), &mut found);
    }
    let mut seen: HashSet<Vec<String>> = HashSet::new();
    found
        .into_iter()
        .filter(|(_, long)| seen.insert(long.clone()))
        .collect()
}

/// A word as a scoring term: accents folded (`crate::text::normalize::fold_diacritics`).
fn fold(word: String) -> String {
    match fold_diacritics(&word) {
        Cow::Borrowed(_) => word,
        Cow::Owned(folded) => folded,
    }
}

/// Terms longer than this many letters, all ASCII `a`-`z`, are cut to their first `STEM`
/// (a truncation stemmer: "contribute" and "contribution" are one term, `contr`).
pub const STEM: usize = 5;

/// The learned aliases of `alias_texts` as a lookup: long form (folded words) -> short form,
/// plus the first words of the long forms and the longest long form, so that a text's terms
/// try the table only where a long form can start.
struct Aliases {
    table: HashMap<Vec<String>, String>,
    firsts: FxHashSet<String>,
    longest: usize,
}

impl Aliases {
    fn new<A: AsRef<str>>(alias_texts: &[A]) -> Self {
        let mut table: HashMap<Vec<String>, String> = HashMap::new();
        for (short, long) in aliases(alias_texts) {
            table.insert(long.into_iter().map(fold).collect(), fold(short));
        }
        let longest = table.keys().map(Vec::len).max().unwrap_or(0);
        let firsts = table.keys().filter_map(|k| k.first().cloned()).collect();
        Aliases {
            table,
            firsts,
            longest,
        }
    }
}

/// Reusable buffers for one text's terms: the folded words live in `words[..len]`, whose
/// `String`s are kept (and their capacity reused) from text to text.
#[derive(Default)]
struct Terms {
    words: Vec<String>,
    len: usize,
}

impl Terms {
    /// Fill with `words(text)`, each folded.
    fn load(&mut self, text: &str) {
        self.len = 0;
        let (words, len) = (&mut self.words, &mut self.len);
        crate::text::for_each_word(text, |w| {
            if *len == words.len() {
                words.push(String::new());
            }
            let slot = &mut words[*len];
            slot.clear();
            slot.push_str(&fold_diacritics(w));
            *len += 1;
        });
    }

    /// The loaded text's terms in order, each learned long form read as its short form
    /// (longest first), before stemming.
    fn each<F: FnMut(&str)>(&self, aliases: &Aliases, mut emit: F) {
        let ws = &self.words[..self.len];
        let mut i = 0;
        'outer: while i < ws.len() {
            if aliases.longest >= 2 && aliases.firsts.contains(&ws[i]) {
                let mut size = aliases.longest.min(ws.len() - i);
                while size >= 2 {
                    if let Some(short) = aliases.table.get(&ws[i..i + size]) {
                        emit(short);
                        i += size;
                        continue 'outer;
                    }
                    size -= 1;
                }
            }
            emit(&ws[i]);
            i += 1;
        }
    }

    /// `text`'s terms in order, as [`Terms::load`] then [`Terms::each`] give them. Without a
    /// long form of two words or more, no term depends on the next words, so the words are
    /// folded and handed on as they come, without being copied; an all-ASCII text has nothing
    /// to fold (`fold_diacritics` of an ASCII word is the word).
    fn scan<F: FnMut(&str)>(&mut self, text: &str, aliases: &Aliases, mut emit: F) {
        if aliases.longest >= 2 {
            self.load(text);
            self.each(aliases, emit);
        } else if text.is_ascii() {
            crate::text::for_each_word(text, emit);
        } else {
            crate::text::for_each_word(text, |w| emit(&fold_diacritics(w)));
        }
    }
}

/// The question's distinct terms and where each stands, looked up per sentence term: a term
/// of at most [`PACKED`] bytes is packed with its length into a `u64` and compared with the
/// packed query terms (a linear scan while there are at most [`SCAN`] of them, a hash map
/// beyond); a longer one is looked up as a string.
struct QueryIndex<'a> {
    /// The first bytes of the query terms: a term starting with another byte is no query term.
    starts: [bool; 256],
    keys: Vec<u64>,
    slots: Vec<usize>,
    packed: FxHashMap<u64, usize>,
    long: FxHashMap<&'a str, usize>,
}

/// Terms of up to this many bytes are looked up as a packed `u64` (the top byte is the length).
const PACKED: usize = 7;
/// Up to this many short query terms are scanned rather than hashed.
const SCAN: usize = 16;

/// `term`'s bytes (little-endian) with its length in the top byte, for `term.len() <= PACKED`:
/// two terms pack equal exactly when they are equal.
#[inline]
fn pack(term: &[u8]) -> u64 {
    let mut v = (term.len() as u64) << 56;
    for (i, &b) in term.iter().enumerate() {
        v |= u64::from(b) << (8 * i);
    }
    v
}

impl<'a> QueryIndex<'a> {
    fn new(query: &'a [String]) -> Self {
        let mut index = QueryIndex {
            starts: [false; 256],
            keys: Vec::new(),
            slots: Vec::new(),
            packed: FxHashMap::default(),
            long: FxHashMap::default(),
        };
        for (k, t) in query.iter().enumerate() {
            if let Some(&b) = t.as_bytes().first() {
                index.starts[usize::from(b)] = true;
            }
            if t.len() <= PACKED {
                index.keys.push(pack(t.as_bytes()));
                index.slots.push(k);
            } else {
                index.long.insert(t.as_str(), k);
            }
        }
        if index.keys.len() > SCAN {
            index.packed = index
                .keys
                .iter()
                .copied()
                .zip(index.slots.iter().copied())
                .collect();
        }
        index
    }

    /// The index of the packed term `key` among the short query terms, if it is there.
    #[inline]
    fn short(&self, key: u64) -> Option<usize> {
        if self.keys.len() > SCAN {
            self.packed.get(&key).copied()
        } else {
            let at = self.keys.iter().position(|&k| k == key)?;
            Some(self.slots[at])
        }
    }

    /// The index of `term` (not stemmed yet) in the query, if it is there: the index of
    /// `stemmed(term)`.
    ///
    /// The query's terms are stemmed, so none is all ASCII `a`-`z` and longer than [`STEM`]:
    /// a longer term is a query term either as its stem (when it is all `a`-`z`) or as itself
    /// (when it is not, and then it is not stemmed). So its stem is looked up first, and only
    /// when that is a query term are its letters checked.
    #[inline]
    fn get(&self, term: &str) -> Option<usize> {
        let bytes = term.as_bytes();
        let Some(&first) = bytes.first() else {
            // A word that folds to nothing ("¯" is a space and a combining macron) is the
            // empty term, and the reference counts it as any other.
            return self.short(pack(bytes));
        };
        if !self.starts[usize::from(first)] {
            return None; // a stem starts as its term does
        }
        if bytes.len() <= STEM {
            return self.short(pack(form(bytes).map_or(bytes, str::as_bytes)));
        }
        if let Some(k) = self.short(pack(&bytes[..STEM])) {
            if bytes.iter().all(u8::is_ascii_lowercase) {
                return Some(k);
            }
        }
        if bytes.len() <= PACKED {
            self.short(pack(bytes))
        } else if self.long.is_empty() {
            None
        } else {
            self.long.get(term).copied()
        }
    }
}

/// `term` cut to its first `STEM` letters when it is longer and all ASCII `a`-`z`; a word
/// form of [`form`] is its term there.
fn stemmed(term: &str) -> &str {
    if let Some(f) = form(term.as_bytes()) {
        f
    } else if term.len() > STEM && term.bytes().all(|b| b.is_ascii_lowercase()) {
        &term[..STEM]
    } else {
        term
    }
}

/// Word forms no truncation joins, read as one term (`reference.FORMS`): "born" is "birth"'s,
/// "die", "died", "dies", "dead" and "dying" are "death"'s. Every form is at most [`STEM`]
/// letters and starts as its term does (so [`QueryIndex::get`]'s first-byte test holds).
#[inline]
fn form(term: &[u8]) -> Option<&'static str> {
    match term {
        b"born" => Some("birth"),
        b"die" | b"died" | b"dies" | b"dead" | b"dying" => Some("death"),
        _ => None,
    }
}

/// BM25 relevance of each sentence to `question`, the sentences being the collection, with
/// the aliases `alias_texts` define (`reference.score_sentences`).
///
/// One pass over each sentence's terms: the query terms are hashed once, and each term of a
/// sentence is looked up to count its frequency (short terms as one packed `u64`, see
/// [`QueryIndex`]); document frequencies come from those counts. Without multi-word aliases
/// the words are never copied (see [`Terms::scan`]). A question without terms scores every
/// sentence 0 without reading them. The float operations are the reference's, in its order.
#[must_use]
pub fn score<S: AsRef<str>, A: AsRef<str>>(
    question: &str,
    sentences: &[S],
    alias_texts: &[A],
) -> Vec<f64> {
    let n = sentences.len();
    if n == 0 {
        return Vec::new();
    }
    let aliases = Aliases::new(alias_texts);
    let mut buf = Terms::default();
    let mut query: Vec<String> = Vec::new();
    buf.scan(question, &aliases, |t| {
        if STOPWORDS.contains(&t) {
            return;
        }
        let t = stemmed(t);
        if !query.iter().any(|q| q == t) {
            query.push(t.to_owned());
        }
    });
    if query.is_empty() {
        return vec![0.0; n];
    }
    let index = QueryIndex::new(&query);
    let q = query.len();
    // tf[d * q + k]: the count of query term k in sentence d; lengths[d]: its term count.
    let mut tf: Vec<u32> = vec![0; n * q];
    let mut lengths: Vec<usize> = Vec::with_capacity(n);
    for (d, s) in sentences.iter().enumerate() {
        let row = &mut tf[d * q..(d + 1) * q];
        let mut dl = 0usize;
        buf.scan(s.as_ref(), &aliases, |t| {
            dl += 1;
            if let Some(k) = index.get(t) {
                row[k] += 1;
            }
        });
        lengths.push(dl);
    }
    let total: usize = lengths.iter().sum();
    let avgdl = total as f64 / n as f64;
    let idf: Vec<f64> = (0..q)
        .map(|k| {
            let df = (0..n).filter(|&d| tf[d * q + k] > 0).count();
            (1.0 + ((n - df) as f64 + 0.5) / (df as f64 + 0.5)).ln()
        })
        .collect();
    lengths
        .iter()
        .enumerate()
        .map(|(d, &len)| {
            let dl = len as f64;
            let mut s = 0.0;
            for (&count, &w) in tf[d * q..(d + 1) * q].iter().zip(&idf) {
                let f = f64::from(count);
                if f > 0.0 {
                    s += w * (f * (K1 + 1.0)) / (f + K1 * (1.0 - B + B * (dl / avgdl)));
                }
            }
            s
        })
        .collect()
}

fn continues(sentence: &str) -> bool {
    let mut first: Option<String> = None;
    crate::text::for_each_word(sentence, |w| {
        if first.is_none() {
            first = Some(w.to_owned());
        }
    });
    first.is_some_and(|w| CONTINUATIONS.contains(&w.as_str()))
}

/// Indices (ascending) of the sentences scoring `>= threshold` plus the neighbours that
/// continue them, within each group `offsets[g]..offsets[g + 1]` (`reference.select_sentences`).
///
/// `offsets` must start at 0, end at `sentences.len()` and never decrease, and `scores` must
/// have one entry per sentence (the binding checks both).
#[must_use]
pub fn select<S: AsRef<str>>(
    sentences: &[S],
    scores: &[f64],
    threshold: f64,
    offsets: &[usize],
) -> Vec<usize> {
    let n = sentences.len().min(scores.len());
    let mut keep: Vec<bool> = scores[..n].iter().map(|&v| v >= threshold).collect();
    let cont: Vec<bool> = sentences[..n]
        .iter()
        .map(|s| continues(s.as_ref()))
        .collect();
    for pair in offsets.windows(2) {
        let (lo, hi) = (pair[0].min(n), pair[1].min(n));
        for i in lo..hi.saturating_sub(1) {
            if keep[i] && cont[i + 1] {
                keep[i + 1] = true;
            }
        }
        for i in (lo + 1..hi).rev() {
            if keep[i] && cont[i] {
                keep[i - 1] = true;
            }
        }
    }
    (0..n).filter(|&i| keep[i]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    // The scoring as first written (linear scans per query term): the oracle the one-pass
    // `score` must match bit for bit.
    /// `words(text)`, each folded, with every learned long form replaced by its short form (longest first).
    fn terms(text: &str, table: &HashMap<Vec<String>, String>, longest: usize) -> Vec<String> {
        let ws: Vec<String> = crate::text::words(text).into_iter().map(fold).collect();
        let mut out = Vec::with_capacity(ws.len());
        let mut i = 0;
        'outer: while i < ws.len() {
            let mut size = longest.min(ws.len() - i);
            while size >= 2 {
                if let Some(short) = table.get(&ws[i..i + size]) {
                    out.push(short.clone());
                    i += size;
                    continue 'outer;
                }
                size -= 1;
            }
            out.push(ws[i].clone());
            i += 1;
        }
        out
    }

    /// `term` cut to its first `STEM` letters when it is longer and all ASCII `a`-`z`; a word
    /// form of `FORMS` is its term there.
    fn stem(term: &mut String) {
        let forms = [
            ("born", "birth"),
            ("die", "death"),
            ("died", "death"),
            ("dies", "death"),
            ("dead", "death"),
            ("dying", "death"),
        ];
        if let Some((_, to)) = forms.iter().find(|(from, _)| *from == term.as_str()) {
            *term = (*to).to_owned();
        } else if term.len() > STEM && term.bytes().all(|b| b.is_ascii_lowercase()) {
            term.truncate(STEM);
        }
    }

    /// BM25 relevance of each sentence to `question`, the sentences being the collection, with
    /// the aliases `alias_texts` define (`reference.score_sentences`).
    fn score_linear<S: AsRef<str>, A: AsRef<str>>(
        question: &str,
        sentences: &[S],
        alias_texts: &[A],
    ) -> Vec<f64> {
        let mut table: HashMap<Vec<String>, String> = HashMap::new();
        for (short, long) in aliases(alias_texts) {
            table.insert(long.into_iter().map(fold).collect(), fold(short));
        }
        let longest = table.keys().map(Vec::len).max().unwrap_or(0);
        let docs: Vec<Vec<String>> = sentences
            .iter()
            .map(|s| {
                let mut ts = terms(s.as_ref(), &table, longest);
                ts.iter_mut().for_each(stem);
                ts
            })
            .collect();
        let n = docs.len();
        if n == 0 {
            return Vec::new();
        }
        let mut query: Vec<String> = Vec::new();
        for mut t in terms(question, &table, longest) {
            if STOPWORDS.contains(&t.as_str()) {
                continue;
            }
            stem(&mut t);
            if !query.contains(&t) {
                query.push(t);
            }
        }
        let total: usize = docs.iter().map(Vec::len).sum();
        let avgdl = total as f64 / n as f64;
        let idf: Vec<f64> = query
            .iter()
            .map(|t| {
                let df = docs.iter().filter(|d| d.contains(t)).count();
                (1.0 + ((n - df) as f64 + 0.5) / (df as f64 + 0.5)).ln()
            })
            .collect();
        docs.iter()
            .map(|d| {
                let dl = d.len() as f64;
                let mut s = 0.0;
                for (t, &w) in query.iter().zip(&idf) {
                    let f = d.iter().filter(|x| *x == t).count() as f64;
                    if f > 0.0 {
                        s += w * (f * (K1 + 1.0)) / (f + K1 * (1.0 - B + B * (dl / avgdl)));
                    }
                }
                s
            })
            .collect()
    }

    fn split_text(text: &str) -> Vec<String> {
        let chars: Vec<char> = text.chars().collect();
        spans(text)
            .into_iter()
            .map(|(s, e)| chars[s..e].iter().collect())
            .collect()
    }

    #[test]
    fn abbreviations_decimals_urls() {
        assert_eq!(
            split_text("Dr. Who arrived. It was 3.14 p.m. in the U.S. Then he left."),
            [
                "Dr. Who arrived.",
                "It was 3.14 p.m. in the U.S. Then he left."
            ]
        );
        assert_eq!(
            split_text("KKR & Co. L.P. bought it. J. R. R. Tolkien wrote at 5 p.m. Then more."),
            [
                "KKR & Co. L.P. bought it.",
                "J. R. R. Tolkien wrote at 5 p.m.",
                "Then more."
            ]
        );
        assert_eq!(
            split_text("Use SSO, e.g. Okta. Costs rose 14.5% in v2.0 etc. and more."),
            [
                "Use SSO, e.g. Okta.",
                "Costs rose 14.5% in v2.0 etc. and more."
            ]
        );
        assert_eq!(
            split_text("Mail support@relay.example or see https://relay.example/a.b?x=1. Done!"),
            [
                "Mail support@relay.example or see https://relay.example/a.b?x=1.",
                "Done!"
            ]
        );
    }

    #[test]
    fn ellipses_quotes_and_full_stops() {
        assert_eq!(
            split_text("Wait... what? He said \"no.\" Then (it ended.) Fine…"),
            [
                "Wait... what?",
                "He said \"no.\"",
                "Then (it ended.)",
                "Fine…"
            ]
        );
        assert_eq!(
            split_text("今日は晴れ。明日は雨！本当？「はい。」"),
            ["今日は晴れ。", "明日は雨！", "本当？", "「はい。」"]
        );
        assert_eq!(split_text("यह है। वह है।"), ["यह है।", "वह है।"]);
        assert_eq!(split_text("هل هذا؟ نعم"), ["هل هذا؟", "نعم"]);
        assert_eq!(
            split_text("値は３．１４です．次"),
            ["値は３．１４です．", "次"]
        );
    }

    #[test]
    fn lines_and_markers() {
        assert_eq!(
            split_text("# Setup\n1. Open the app.\n2) Click Save. Done\n  fn main() {}\n"),
            [
                "# Setup",
                "1. Open the app.",
                "2) Click Save.",
                "Done",
                "fn main() {}"
            ]
        );
        assert_eq!(
            split_text("Owner. 1. In Okta, add SAML 2.0. 2. Set the URL."),
            ["Owner.", "1. In Okta, add SAML 2.0.", "2. Set the URL."]
        );
        assert_eq!(split_text(""), Vec::<String>::new());
        assert_eq!(split_text(" \n\t "), Vec::<String>::new());
        assert_eq!(split_text("In 2024. Next"), ["In 2024.", "Next"]);
    }

    #[test]
    fn offsets_are_code_points() {
        assert_eq!(spans("é. Ü!"), [(0, 2), (3, 5)]);
        // "a." opening a sentence is a list marker, not a sentence of its own.
        assert_eq!(
            split(&["a. b", "", "xy. z"]),
            (vec![0, 0, 4], vec![4, 3, 5], vec![0, 1, 1, 3])
        );
    }

    #[test]
    fn aliases_both_directions() {
        let found = aliases(&[
            "Pro includes single sign-on (SSO).",
            "SAML (Security Assertion Markup Language) and SSO (single sign-on) (x)",
            "identity provider (IdP), (AB)",
        ]);
        let as_pairs: Vec<(String, String)> =
            found.into_iter().map(|(s, l)| (s, l.join(" "))).collect();
        assert_eq!(
            as_pairs,
            [
                ("sso".to_owned(), "single sign on".to_owned()),
                (
                    "saml".to_owned(),
                    "security assertion markup language".to_owned()
                ),
            ]
        );
    }

    #[test]
    fn scores_use_aliases() {
        let sentences = [
            "Pro has SSO.",
            "Billing is monthly.",
            "Single sign-on is set up.",
        ];
        let q = "Is single sign-on in Pro?";
        let with = score(q, &sentences, &["single sign-on (SSO)"]);
        let without = score(q, &sentences, &[] as &[&str]);
        assert!(with[0] > 0.0 && with[1] == 0.0 && with[2] > 0.0);
        assert!(with[0] > without[0]);
        assert!(score(q, &[] as &[&str], &[] as &[&str]).is_empty());
        assert_eq!(score("", &["a b"], &[] as &[&str]), [0.0]);
        // Accents are folded on both sides: "fiancee" finds "fiancée".
        let folded = score(
            "His fiancee?",
            &["Her FIANCÉE left.", "No."],
            &[] as &[&str],
        );
        assert!(folded[0] > 0.0 && folded[1] == 0.0);
    }

    #[test]
    fn scores_stem_long_ascii_terms() {
        // "contribution" and "contribute" are one term; a stopword is tested before the cut.
        let s = score(
            "What did it contribute to?",
            &["Its contribution was large.", "Nothing else."],
            &[] as &[&str],
        );
        assert!(s[0] > 0.0 && s[1] == 0.0);
        let t = score("having", &["haven havin"], &[] as &[&str]);
        assert_eq!(t, vec![0.0]);
    }

    #[test]
    fn word_forms_of_birth_and_death_are_one_term() {
        // "born" is "birth"'s term, "died" / "dead" / "die" "death"'s, on both sides, as the
        // linear scoring reads them; "bored" and "diet" are other terms.
        let sentences = [
            "He was born in Rome.",
            "She died in 1990.",
            "Dead on arrival.",
            "Births and deaths.",
            "Bored, on a diet.",
        ];
        for q in [
            "Place of birth? Date of death?",
            "Where was he born, when did he die?",
        ] {
            let got = score(q, &sentences, &[] as &[&str]);
            assert!(
                got[..4].iter().all(|&x| x > 0.0) && got[4] == 0.0,
                "{q:?}: {got:?}"
            );
            let slow = score_linear(q, &sentences, &[] as &[&str]);
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&got), bits(&slow), "{q:?}");
        }
    }

    #[test]
    fn scores_match_the_linear_scoring_on_every_lookup_path() {
        // Terms longer than `PACKED` bytes (not stemmed: digits, accents), more short query
        // terms than `SCAN`, a question without terms, non-ASCII sentences without aliases.
        let sentences = [
            "Configuration2024 of the caf\u{e9} r\u{e9}sum\u{e9}s, version2 and v3.",
            "ab cd ef gh ij kl mn op qr st uv wx yz a1 b2 c3 d4 e5 f6 g7",
            "The CONFIGURATION2024 notes: r\u{e9}sum\u{e9} ab qr.",
            "",
        ];
        let questions = [
            "configuration2024 r\u{e9}sum\u{e9}s v3?",
            "ab cd ef gh ij kl mn op qr st uv wx yz a1 b2 c3 d4 e5 f6 g7 caf\u{e9}",
            "the of and?",
        ];
        for q in questions {
            for alias_texts in [&[] as &[&str], &["caf\u{e9} r\u{e9}sum\u{e9}s (CR)"]] {
                let fast = score(q, &sentences, alias_texts);
                let slow = score_linear(q, &sentences, alias_texts);
                let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&fast), bits(&slow), "{q:?}");
            }
        }
        assert!(score(questions[0], &sentences, &[] as &[&str])[0] > 0.0);
        assert!(score(questions[1], &sentences, &[] as &[&str])[1] > 0.0);
    }

    #[test]
    fn a_word_that_folds_to_nothing_is_the_empty_term_as_in_the_reference() {
        // "¯" (U+00AF) decomposes to a space and a combining macron: its term is "".
        let sentences = ["\u{af} ", "x"];
        let got = score("\u{af} ", &sentences, &[] as &[&str]);
        assert!(got[0] > 0.0 && got[1] == 0.0, "{got:?}");
        let slow = score_linear("\u{af} ", &sentences, &[] as &[&str]);
        assert_eq!(got[0].to_bits(), slow[0].to_bits());
    }

    #[test]
    fn select_keeps_continuations() {
        let s = [
            "A kept.",
            "It goes on.",
            "Unrelated.",
            "However, this leads.",
            "Kept too.",
        ];
        assert_eq!(
            select(&s, &[2.0, 0.0, 0.0, 0.0, 1.0], 1.0, &[0, 5]),
            [0, 1, 4]
        );
        assert_eq!(select(&s, &[0.0, 0.0, 0.0, 2.0, 0.0], 1.0, &[0, 5]), [2, 3]);
        // Groups stop continuations at a source's edge.
        assert_eq!(select(&s, &[2.0, 0.0, 0.0, 0.0, 0.0], 1.0, &[0, 1, 5]), [0]);
        assert_eq!(
            select(&s, &[0.0; 5], f64::INFINITY, &[0, 5]),
            Vec::<usize>::new()
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]

        #[test]
        fn spans_partition_the_non_whitespace(text in "(\\PC|[ \n.!?。\"')(1a])*") {
            let chars: Vec<char> = text.chars().collect();
            let mut covered = vec![false; chars.len()];
            let mut last = 0;
            for (s, e) in spans(&text) {
                prop_assert!(last <= s && s < e && e <= chars.len());
                prop_assert!(!is_space(chars[s]) && !is_space(chars[e - 1]));
                prop_assert!(!chars[s..e].iter().any(|c| LINE_BREAKS.contains(c)));
                covered[s..e].iter_mut().for_each(|c| *c = true);
                last = e;
            }
            for (c, cov) in chars.iter().zip(&covered) {
                prop_assert!(*cov || is_space(*c));
            }
        }

        #[test]
        fn scoring_never_panics(q in ".*", s in prop::collection::vec(".*", 0..5)) {
            let out = score(&q, &s, &s);
            prop_assert_eq!(out.len(), s.len());
            prop_assert!(out.iter().all(|v| v.is_finite() && *v >= 0.0));
        }

        #[test]
        fn one_pass_scoring_is_the_linear_one_bit_for_bit(
            q in "([a-zA-Z( )éE.-]|born |died |birth |death ){0,40}",
            s in prop::collection::vec("(single|sign|on|SSO|Sign|contribution|born|birth|died|death|the|a|é|\\(|\\)| |[a-z]{1,8})*", 0..8),
            with_aliases in any::<bool>(),
        ) {
            let alias_texts: Vec<String> = if with_aliases {
                let mut a = s.clone();
                a.push("single sign-on (SSO) and sign on (SO)".to_owned());
                a
            } else {
                Vec::new()
            };
            let fast = score(&q, &s, &alias_texts);
            let slow = score_linear(&q, &s, &alias_texts);
            prop_assert_eq!(fast.len(), slow.len());
            for (a, b) in fast.iter().zip(&slow) {
                prop_assert_eq!(a.to_bits(), b.to_bits());
            }
        }
    }
}
