//! The difference guard: a pair over the threshold whose texts differ in a number, a date, a
//! version, a code identifier or a negation is not a duplicate.
//!
//! Mirrors `briefpack.reference.guard` (the oracle; the rule and its data are in
//! `docs/dedupe_guard.md`). The kernels call [`Accept::accept`] only for a pair that already
//! meets the threshold; [`Guard`] builds a text's words and raw tokens on first use (only texts
//! that reach the guard are read again), once per request, and remembers for each item the
//! first kept item the guard saved it from, with the similarity and the reason.
//!
//! Cost per call: the word comparison (step 0, which ends every copy) and, for a pair whose
//! words differ, two lookups per key of the two texts. Building a profile is O(len(text)).

use super::intern::Interner;
use crate::text::{char_class, char_lower, for_each_word, nfkc, WHITESPACE, WORD};
use rustc_hash::{FxHashMap, FxHashSet};
use std::borrow::Cow;

/// How a kernel decides a pair that meets its threshold.
pub(crate) trait Accept {
    /// Whether the guard can keep a pair at all (`false`: every pair over the threshold is a
    /// duplicate, and the kernels' shortcuts for equal sets stay exact).
    const ACTIVE: bool;
    /// Item `item` meets the threshold with the kept item `kept` at `similarity`: `true` when
    /// it is its duplicate.
    fn accept(&mut self, item: usize, kept: usize, similarity: f64) -> bool;
    /// Whether the guard kept some pair of `item` (so an item with the same set may not take
    /// `item`'s answer).
    fn saved(&self, item: usize) -> bool;
    /// The kernel's word sequences of the batch (only asked for when `ACTIVE`), so step 0
    /// compares interned ids instead of splitting the texts into words again.
    fn set_words(&mut self, _seqs: WordSeqs) {}
}

/// No guard: the kernels as they were.
pub(crate) struct NoGuard;

impl Accept for NoGuard {
    const ACTIVE: bool = false;
    #[inline]
    fn accept(&mut self, _: usize, _: usize, _: f64) -> bool {
        true
    }
    #[inline]
    fn saved(&self, _: usize) -> bool {
        false
    }
}

/// Per kept item the guard saved: the first kept item it met the threshold with, the
/// similarity and the reason (`"differs in 'insort_left' / 'insort_right'"`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Saved {
    pub near_of: Vec<Option<usize>>,
    pub similarity: Vec<Option<f64>>,
    pub kept_because: Vec<Option<String>>,
}

/// The word sequences of a batch as the kernel interned them (ids in text order, repeats
/// kept): text `i`'s words are `ids[offsets[r]..offsets[r + 1]]` with `r = first[i]`, the
/// first item with the same text. Two texts have the same words, in order, exactly when their
/// sequences are equal (the interner gives distinct words distinct ids), so the guard's step 0
/// needs no second word split.
#[derive(Debug, Default)]
pub(crate) struct WordSeqs {
    pub(crate) offsets: Vec<usize>,
    pub(crate) ids: Vec<u32>,
    pub(crate) first: Vec<u32>,
}

impl WordSeqs {
    #[inline]
    fn get(&self, i: usize) -> &[u32] {
        let r = self.first[i] as usize;
        &self.ids[self.offsets[r]..self.offsets[r + 1]]
    }
}

/// The guard over one batch of texts.
pub struct Guard<'t, S: AsRef<str>> {
    texts: &'t [S],
    /// The kernel's word sequences, when it handed them over (`set_words`).
    seqs: Option<WordSeqs>,
    /// Per text read so far (without `seqs`): its words joined by spaces (no word holds a
    /// space).
    words: FxHashMap<usize, String>,
    /// Per text read so far: its profile (`None`: the batch has more distinct keys than ids,
    /// and the guard lets every pair of the text go, as without it).
    profiles: FxHashMap<usize, Option<Profile<'t>>>,
    /// Every key of a profile built so far, to its id (keys are stored once per batch).
    keys: Interner,
    /// Scratch of `Profile::new`, reused by every profile.
    scratch: Scratch,
    /// Items the guard kept some pair of (even when they ended up a duplicate).
    saved: FxHashSet<usize>,
    /// Per item still kept: the first saving pair.
    notes: FxHashMap<usize, (usize, f64, String)>,
}

impl<'t, S: AsRef<str>> Guard<'t, S> {
    #[must_use]
    pub fn new(texts: &'t [S]) -> Self {
        Self {
            texts,
            seqs: None,
            words: FxHashMap::default(),
            profiles: FxHashMap::default(),
            keys: Interner::with_capacity(1 << 12),
            scratch: Scratch::default(),
            saved: FxHashSet::default(),
            notes: FxHashMap::default(),
        }
    }

    fn words_of(&mut self, i: usize) {
        let texts = self.texts;
        self.words.entry(i).or_insert_with(|| {
            let mut out = String::new();
            for_each_word(texts[i].as_ref(), |w| {
                out.push_str(w);
                out.push(' ');
            });
            out
        });
    }

    /// Whether texts `a` and `b` have the same words in the same order (step 0).
    fn same_words(&mut self, a: usize, b: usize) -> bool {
        if let Some(s) = &self.seqs {
            return s.get(a) == s.get(b);
        }
        self.words_of(a);
        self.words_of(b);
        self.words[&a] == self.words[&b]
    }

    fn ensure_profile(&mut self, i: usize) {
        let (texts, keys, scratch) = (self.texts, &mut self.keys, &mut self.scratch);
        let words = self.seqs.as_ref().map(|s| s.get(i));
        self.profiles
            .entry(i)
            .or_insert_with(|| Profile::new(texts[i].as_ref(), words, keys, scratch));
    }

    /// The reason texts `kept` and `item` are both kept, or `None` (a duplicate).
    pub fn check(&mut self, kept: usize, item: usize) -> Option<String> {
        if self.texts[kept].as_ref() == self.texts[item].as_ref() {
            return None;
        }
        if self.same_words(kept, item) {
            return None;
        }
        self.ensure_profile(kept);
        self.ensure_profile(item);
        match (&self.profiles[&kept], &self.profiles[&item]) {
            (Some(a), Some(b)) => kept_because(a, b),
            _ => None,
        }
    }

    /// The columns of the saved items (`n` inputs), after the kernel ran.
    #[must_use]
    pub fn saved_columns(self, n: usize) -> Saved {
        let mut out = Saved {
            near_of: vec![None; n],
            similarity: vec![None; n],
            kept_because: vec![None; n],
        };
        for (i, (k, s, why)) in self.notes {
            out.near_of[i] = Some(k);
            out.similarity[i] = Some(s);
            out.kept_because[i] = Some(why);
        }
        out
    }
}

impl<S: AsRef<str>> Accept for Guard<'_, S> {
    const ACTIVE: bool = true;

    fn accept(&mut self, item: usize, kept: usize, similarity: f64) -> bool {
        match self.check(kept, item) {
            None => {
                self.notes.remove(&item);
                true
            }
            Some(why) => {
                self.saved.insert(item);
                self.notes.entry(item).or_insert((kept, similarity, why));
                false
            }
        }
    }

    fn saved(&self, item: usize) -> bool {
        self.saved.contains(&item)
    }

    fn set_words(&mut self, seqs: WordSeqs) {
        self.seqs = Some(seqs);
    }
}

/// One key of a text: its first form (a byte range of the folded text) and offset (in
/// characters), occurrences, marked occurrences.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Tok {
    start: u32,
    end: u32,
    first: usize,
    count: u32,
    marked: u32,
    /// A number, negation or identifier (`shape` of the key and first form).
    shape: bool,
    /// A shape only by its hyphens ("sign-on", "built-in"): an English compound as often as a
    /// kebab-case name, it counts by presence (and marks), not by occurrences, so a copy that
    /// adds a heading with one more "sign-on" is still a copy.
    compound: bool,
}

/// A text's raw tokens by key (the id, in the guard's `keys`, of the table's lowercase of the
/// form), and the keys of a class (shape or marked: the only ones that can differ), with
/// whether each is a shape.
/// Both lists are sorted by key, so comparing two profiles is a merge.
#[derive(Debug, Clone, Default)]
struct Profile<'t> {
    /// The NFKC text (borrowed when the text is ASCII).
    folded: Cow<'t, str>,
    tokens: Vec<(u32, Tok)>,
    /// Indexes into `tokens` of the keys of a class, ascending (so by key too).
    classed: Vec<u32>,
}

/// Buffers `Profile::new` reuses from one text to the next: the folded text's characters,
/// their byte offsets (one more: the length), their kind (`K_WORD`, `K_JOINER` bits), the key
/// being built, and per key id the key's place in the profile being built (plus one; 0:
/// absent, and every used slot is cleared when the profile is done).
#[derive(Debug, Default)]
struct Scratch {
    chars: Vec<char>,
    bytes: Vec<u32>,
    kinds: Vec<u8>,
    key: String,
    slot: Vec<u32>,
    /// Per key id: `key_shape` of the key (computed once per batch).
    shapes: Vec<bool>,
    /// Per ASCII byte: its kind (`K_WORD`, `K_JOINER` bits), built on first use.
    ascii: Option<[u8; 128]>,
    /// Per kernel word id: its key id + 1 (0: not seen yet); see `Sink::words`.
    by_word: Vec<u32>,
}

/// A character of the table's WORD class.
const K_WORD: u8 = 1;
/// One of the joiners `_ . - ' ’`.
const K_JOINER: u8 = 2;

/// Negation words (en, de, fr, es); a key ending in `n't` or `n’t` is one too.
pub(crate) const NEGATIONS: &[&str] = &[
    "not", "no", "never", "none", "nor", "cannot", "without", "nothing", "nobody", "neither",
    "nicht", "kein", "keine", "keinen", "keinem", "keiner", "keines", "nie", "niemals", "ohne",
    "ne", "pas", "jamais", "sans", "aucun", "aucune", "rien", "nunca", "sin", "ningún", "ninguna",
    "ninguno", "jamás", "tampoco",
];

/// At most this many keys on each side that the other lacks (the name swap clause).
const SWAP_MAX: usize = 2;
/// The first of each more than this many edits apart.
const SWAP_DISTANCE: usize = 2;

#[inline]
fn is_joiner(c: char) -> bool {
    matches!(c, '_' | '.' | '-' | '\'' | '\u{2019}')
}

#[inline]
fn is_word(c: char) -> bool {
    char_class(c) == WORD
}

/// A character of a text being scanned: a byte of an ASCII text (the fast path: no
/// character decoding, offsets in bytes are offsets in characters) or a `char`.
trait Unit: Copy {
    fn ch(self) -> char;
}

impl Unit for u8 {
    #[inline]
    fn ch(self) -> char {
        char::from(self)
    }
}

impl Unit for char {
    #[inline]
    fn ch(self) -> char {
        self
    }
}

/// The kind (`K_WORD`, `K_JOINER` bits) of a character.
#[inline]
fn kind_of(c: char) -> u8 {
    u8::from(is_word(c)) * K_WORD + u8::from(is_joiner(c)) * K_JOINER
}

/// The line starting at `start` is a command line: after spaces and tabs, `$ ` or `>>> `.
fn prompt<U: Unit>(chars: &[U], start: usize) -> bool {
    let mut k = start;
    while k < chars.len() && matches!(chars[k].ch(), ' ' | '\t') {
        k += 1;
    }
    let rest = &chars[k.min(chars.len())..];
    let at = |o: usize, c: char| rest.get(o).is_some_and(|u| u.ch() == c);
    (at(0, '$') && at(1, ' ')) || (at(0, '>') && at(1, '>') && at(2, '>') && at(3, ' '))
}

/// The parts of `Scratch` the scan writes: the key being built, the per key id slot and
/// shape.
struct Sink<'s> {
    key: &'s mut String,
    slot: &'s mut Vec<u32>,
    shapes: &'s mut Vec<bool>,
    /// The kernel's word ids of the text (ASCII texts only), and per word id the key id of
    /// that word + 1 (0: not seen yet), so a one-word token needs no key built or looked up.
    words: Option<&'s [u32]>,
    by_word: &'s mut Vec<u32>,
}

/// Steps 2-3 over the characters `chars` of the folded text: every raw token by key id, in
/// order of first occurrence (`None` when the batch has more distinct keys than ids).
/// `kind(k)` is character `k`'s kind, `byte(k)` its byte offset in `folded` (`byte(n)` the
/// length); with `ASCII`, `chars` are `folded`'s bytes.
#[allow(
    clippy::many_single_char_names,
    reason = "the reference's names: run i..j, token s..e"
)]
fn scan<U: Unit, const ASCII: bool>(
    chars: &[U],
    kind: impl Fn(usize) -> u8,
    byte: impl Fn(usize) -> u32,
    folded: &str,
    keys: &mut Interner,
    sink: &mut Sink<'_>,
) -> Option<Vec<(u32, Tok)>> {
    let n = chars.len();
    let mut tokens: Vec<(u32, Tok)> = Vec::with_capacity(n / 8);
    let mut i = 0;
    let mut on_prompt = prompt(chars, 0);
    let mut overflow = false;
    let mut w = 0;
    while i < n {
        if chars[i].ch() == '\n' {
            on_prompt = prompt(chars, i + 1);
        }
        if kind(i) == 0 {
            i += 1;
            continue;
        }
        // `runs`: the word runs of the run, so the text's next word is `words[w]` (an ASCII
        // word is a maximal run of letters and digits, and joiners are neither).
        let (mut j, mut runs, mut in_word) = (i, 0usize, false);
        while j < n {
            let k = kind(j);
            if k == 0 {
                break;
            }
            let word = k & K_WORD != 0;
            runs += usize::from(word && !in_word);
            in_word = word;
            j += 1;
        }
        // A run with one word run is a token of one word (the joiners are at its ends).
        let word_id = if ASCII && runs == 1 {
            sink.words.and_then(|ws| ws.get(w)).map(|&x| x as usize)
        } else {
            None
        };
        w += runs;
        let (mut s, mut e) = (i, j);
        while s < e && kind(s) & K_JOINER != 0 {
            s += 1;
        }
        while e > s && kind(e - 1) & K_JOINER != 0 {
            e -= 1;
        }
        if s < e {
            let form = &chars[s..e];
            let before = (i > 0).then(|| chars[i - 1].ch());
            let after = (e < n).then(|| chars[e].ch());
            let caps = form.len() >= 2 && form.iter().all(|c| c.ch().is_ascii_uppercase());
            let option = chars[i].ch() == '-'
                && before.is_none_or(|b| char_class(b) == WHITESPACE)
                && !form[0].ch().is_ascii_digit();
            let mark = after == Some('(')
                || before == Some('`')
                || after == Some('`')
                || (j < n && chars[j].ch() == '`')
                || on_prompt
                || caps
                || option;
            let (start, end) = (byte(s), byte(e));
            let Some((id, key)) = key_id::<U, ASCII>(
                &folded[start as usize..end as usize],
                form,
                word_id,
                keys,
                sink.key,
                sink.by_word,
            ) else {
                overflow = true;
                break;
            };
            if id as usize == sink.shapes.len() {
                sink.slot.push(0);
                sink.shapes.push(key_shape(key));
            }
            let mark = u32::from(mark);
            let at = &mut sink.slot[id as usize];
            if *at == 0 {
                let (shape, compound) = classes(sink.shapes[id as usize], key, folded, start, end);
                tokens.push((
                    id,
                    Tok {
                        start,
                        end,
                        first: s,
                        count: 1,
                        marked: mark,
                        shape,
                        compound,
                    },
                ));
                *at = tokens.len() as u32;
            } else {
                let t = &mut tokens[*at as usize - 1].1;
                t.count += 1;
                t.marked += mark;
            }
        }
        i = j;
    }
    for (id, _) in &tokens {
        sink.slot[*id as usize] = 0;
    }
    (!overflow).then_some(tokens)
}

/// The key id and the key of the token `f` (its characters `form`; `None` when the batch
/// has more distinct keys than ids). The key is the form lowercased. A one-word ASCII token
/// whose kernel word id (`word_id`) was seen before in this batch is neither lowercased nor
/// looked up: its key id is `by_word`'s, and the form stands in for its key (the caller then
/// reads the key only for a `-`, which a one-word form lacks; its shape is already known).
fn key_id<'k, U: Unit, const ASCII: bool>(
    f: &'k str,
    form: &[U],
    word_id: Option<usize>,
    keys: &mut Interner,
    buf: &'k mut String,
    by_word: &mut Vec<u32>,
) -> Option<(u32, &'k str)> {
    if let Some(k) = word_id
        .and_then(|x| by_word.get(x).copied())
        .filter(|&k| k != 0)
    {
        return Some((k - 1, f));
    }
    let key: &str = if ASCII {
        if f.bytes().any(|b| b.is_ascii_uppercase()) {
            buf.clear();
            buf.push_str(f);
            buf.make_ascii_lowercase();
            buf
        } else {
            f
        }
    } else {
        buf.clear();
        buf.extend(form.iter().map(|&c| char_lower(c.ch())));
        buf
    };
    let id = keys.intern(key)?;
    if let Some(x) = word_id {
        if by_word.len() <= x {
            by_word.resize(x + 1, 0);
        }
        by_word[x] = id + 1;
    }
    Some((id, key))
}

impl<'t> Profile<'t> {
    /// The profile of `text` (`None` when the batch has more distinct keys than ids).
    fn new(
        text: &'t str,
        words: Option<&[u32]>,
        keys: &mut Interner,
        scratch: &mut Scratch,
    ) -> Option<Self> {
        // ASCII is its own NFKC.
        let folded = if text.is_ascii() {
            Cow::Borrowed(text)
        } else {
            nfkc(text)
        };
        let Scratch {
            chars,
            bytes,
            kinds,
            key,
            slot,
            shapes,
            ascii,
            by_word,
        } = scratch;
        let mut sink = Sink {
            key,
            slot,
            shapes,
            words: if text.is_ascii() { words } else { None },
            by_word,
        };
        let mut tokens = if folded.is_ascii() {
            let lut = ascii.get_or_insert_with(|| {
                let mut t = [0u8; 128];
                for (b, k) in t.iter_mut().enumerate() {
                    *k = kind_of(char::from(b as u8));
                }
                t
            });
            let units = folded.as_bytes();
            scan::<u8, true>(
                units,
                |k| lut[usize::from(units[k])],
                |k| k as u32,
                &folded,
                keys,
                &mut sink,
            )?
        } else {
            chars.clear();
            bytes.clear();
            kinds.clear();
            for (b, c) in folded.char_indices() {
                chars.push(c);
                bytes.push(b as u32);
                kinds.push(kind_of(c));
            }
            bytes.push(folded.len() as u32);
            scan::<char, false>(chars, |k| kinds[k], |k| bytes[k], &folded, keys, &mut sink)?
        };
        tokens.sort_unstable_by_key(|(id, _)| *id);
        let classed = (0..tokens.len() as u32)
            .filter(|&k| {
                let t = &tokens[k as usize].1;
                t.shape || t.marked > 0
            })
            .collect();
        Some(Self {
            folded,
            tokens,
            classed,
        })
    }

    /// The first form of token `t`.
    #[inline]
    fn form(&self, t: &Tok) -> &str {
        &self.folded[t.start as usize..t.end as usize]
    }

    /// The token of key `id`, if the text has it.
    #[cfg(test)]
    fn get(&self, id: u32) -> Option<&Tok> {
        self.tokens
            .binary_search_by_key(&id, |(k, _)| *k)
            .ok()
            .map(|k| &self.tokens[k].1)
    }
}

/// A number, negation or identifier (its occurrences count): `key_shape(key) ||
/// camel(form)` of a token's key and first form.
///
/// Everything but the camel case test reads the key alone: the table's lowercase maps one
/// character to one and never makes or removes an ASCII digit, `_`, `-` or `.`, so digits,
/// joiners and the dotted parts' lengths are the same in the key as in any of its forms.
fn key_shape(key: &str) -> bool {
    if key.bytes().any(|b| b.is_ascii_digit()) {
        return true;
    }
    if NEGATIONS.contains(&key) || key.ends_with("n't") || key.ends_with("n\u{2019}t") {
        return true;
    }
    if key.contains('_') || key.contains('-') {
        return true;
    }
    if key.contains('.') {
        let mut parts = key.split('.').filter(|p| !p.is_empty());
        let (mut count, mut long) = (0, false);
        for p in parts.by_ref() {
            count += 1;
            long |= p.chars().nth(1).is_some();
        }
        return count >= 2 && long;
    }
    false
}

/// `[a-z][A-Z]` or `[A-Z]{2}[a-z]{2}` somewhere in `form` (ASCII).
fn camel(form: &str) -> bool {
    let b = form.as_bytes();
    b.windows(2)
        .any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase())
        || b.windows(4).any(|w| {
            w[0].is_ascii_uppercase()
                && w[1].is_ascii_uppercase()
                && w[2].is_ascii_lowercase()
                && w[3].is_ascii_lowercase()
        })
}

/// `(shape, compound)` of a new token: the key's shape (computed once per batch) or camel case
/// in its first form `folded[start..end]`; a compound is a shape only by its hyphens.
fn classes(key_shaped: bool, key: &str, folded: &str, start: u32, end: u32) -> (bool, bool) {
    let camel_form = || camel(&folded[start as usize..end as usize]);
    if key_shaped {
        (true, key_compound(key) && !camel_form())
    } else {
        (camel_form(), false)
    }
}

/// A key that is a shape only by its hyphens: a `-`, and no digit, `_`, negation or dotted
/// name (the camel case test, on the form, is the caller's).
fn key_compound(key: &str) -> bool {
    key.contains('-')
        && !key.contains('_')
        && !key.bytes().any(|b| b.is_ascii_digit())
        && !key_shape(&key.replace('-', ""))
}

/// `(offset, form)` of the first (by offset) of the keys of `x` of a class that differ from
/// `y`: a merge of `x`'s class keys with `y`'s keys (both by key).
fn differs<'p>(x: &'p Profile<'_>, y: &Profile<'_>) -> Option<(usize, &'p str)> {
    let mut best: Option<&Tok> = None;
    let mut j = 0;
    for &k in &x.classed {
        let (key, t) = &x.tokens[k as usize];
        while j < y.tokens.len() && y.tokens[j].0 < *key {
            j += 1;
        }
        if let Some((_, o)) = y.tokens.get(j).filter(|(ky, _)| ky == key) {
            // numbers, negations and code names count by occurrences; a compound and a
            // marked word by presence (marked once in `y` covers any marks in `x`)
            let covered = if t.shape && !t.compound {
                o.count >= t.count
            } else {
                o.marked >= t.marked.min(1)
            };
            if covered {
                continue;
            }
        }
        if best.is_none_or(|b| t.first < b.first) {
            best = Some(t);
        }
    }
    best.map(|t| (t.first, x.form(t)))
}

/// Edit distance over characters.
fn levenshtein(x: &str, y: &str) -> usize {
    let y: Vec<char> = y.chars().collect();
    let mut prev: Vec<usize> = (0..=y.len()).collect();
    let mut cur = Vec::with_capacity(y.len() + 1);
    for (i, cx) in x.chars().enumerate() {
        cur.clear();
        cur.push(i + 1);
        for (j, &cy) in y.iter().enumerate() {
            let v = (prev[j + 1] + 1)
                .min(cur[j] + 1)
                .min(prev[j] + usize::from(cx != cy));
            cur.push(v);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[y.len()]
}

/// A form in the reason: `'form'`, or `"form"` when it holds a `'` (Python's `repr`).
fn quote(form: &str) -> String {
    if form.contains('\'') {
        format!("\"{form}\"")
    } else {
        format!("'{form}'")
    }
}

/// The first (by offset) of the keys of `x` that `y` lacks, as `(offset, key, form)`, when
/// there are 1 to `SWAP_MAX` of them. (Two keys of a text never share an offset, so the
/// first by offset is the least `(offset, key, form)`.)
fn only<'p>(x: &'p Profile<'_>, y: &Profile<'_>) -> Option<(usize, String, &'p str)> {
    let mut lacks: Vec<&Tok> = Vec::new();
    let mut at = 0;
    for (key, tok) in &x.tokens {
        while at < y.tokens.len() && y.tokens[at].0 < *key {
            at += 1;
        }
        if y.tokens.get(at).is_none_or(|(other, _)| other != key) {
            lacks.push(tok);
            if lacks.len() > SWAP_MAX {
                return None;
            }
        }
    }
    let t = lacks.into_iter().min_by_key(|t| t.first)?;
    let form = x.form(t);
    Some((t.first, form.chars().map(char_lower).collect(), form))
}

/// Steps 1-7 and the name swap of the rule for two texts whose words differ.
fn kept_because(a: &Profile<'_>, b: &Profile<'_>) -> Option<String> {
    match (differs(a, b), differs(b, a)) {
        (Some(x), Some(y)) => return Some(format!("differs in {} / {}", quote(x.1), quote(y.1))),
        (Some(x), None) | (None, Some(x)) => return Some(format!("differs in {}", quote(x.1))),
        (None, None) => {}
    }
    let (x, y) = (only(a, b)?, only(b, a)?);
    (levenshtein(&x.1, &y.1) > SWAP_DISTANCE)
        .then(|| format!("differs in {} / {}", quote(x.2), quote(y.2)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn why(a: &str, b: &str) -> Option<String> {
        Guard::new(&[a, b]).check(0, 1)
    }

    #[test]
    fn families() {
        assert_eq!(
            why(
                "Call insort_left(a, x) here.",
                "Call insort_right(a, x) here."
            ),
            Some("differs in 'insort_left' / 'insort_right'".into())
        );
        assert_eq!(
            why("The cache is shared.", "The cache is not shared."),
            Some("differs in 'not'".into())
        );
        assert_eq!(why("The  Cache is shared.", "the cache is shared"), None);
        assert_eq!(
            why("See gettextize(1) for more.", "See msgcmp(1) for more."),
            Some("differs in 'gettextize' / 'msgcmp'".into())
        );
        assert_eq!(why("We recieve it now.", "We receive it now."), None);
        assert_eq!(
            why("It is fine.", "It isn't fine."),
            Some("differs in \"isn't\"".into())
        );
    }

    #[test]
    fn marks_and_offsets() {
        let mut keys = Interner::with_capacity(16);
        let p = Profile::new(
            "Use `insort_left(a, x)`; $ not\n$ run -D --sort-by EOF",
            None,
            &mut keys,
            &mut Scratch::default(),
        )
        .expect("a small batch");
        let mut tok = |k: &str| {
            let id = keys.intern(k).expect("a small batch");
            p.get(id).expect("a key of the text").clone()
        };
        let t = tok("insort_left");
        assert_eq!((t.first, t.count, t.marked), (5, 1, 1));
        assert_eq!(tok("run").marked, 1);
        assert_eq!(tok("d").marked, 1);
        let t = tok("sort-by");
        assert_eq!(p.form(&t), "sort-by");
        assert_eq!(tok("eof").marked, 1);
        assert_eq!(levenshtein("recieve", "receive"), 2);
    }

    /// The shape test as the reference words it, on the first form.
    fn shape_of_form(key: &str, form: &str) -> bool {
        if form.bytes().any(|b| b.is_ascii_digit())
            || NEGATIONS.contains(&key)
            || key.ends_with("n't")
            || key.ends_with("n\u{2019}t")
            || form.contains('_')
            || form.contains('-')
            || camel(form)
        {
            return true;
        }
        let parts: Vec<&str> = form.split('.').filter(|p| !p.is_empty()).collect();
        form.contains('.') && parts.len() >= 2 && parts.iter().any(|p| p.chars().count() >= 2)
    }

    #[test]
    fn key_shape_reads_the_key_as_the_form() {
        for form in [
            "insort_left",
            "sort-by",
            "v1.2",
            "a.b",
            "os.path",
            "É.Ü",
            "ÉT.x",
            "Not",
            "ISN'T",
            "getText",
            "HTTPServer",
            "plain",
            "Größe",
            "K.K",
            "x.",
            ".x.y",
            "rien",
            "Ǆx.y",
        ] {
            let key: String = form.chars().map(char_lower).collect();
            assert_eq!(
                key_shape(&key) || camel(form),
                shape_of_form(&key, form),
                "{form}"
            );
        }
    }

    #[test]
    fn offsets_count_characters_not_bytes() {
        let mut keys = Interner::with_capacity(16);
        let p = Profile::new(
            "Größe ist `ÄNDERN(x)`",
            None,
            &mut keys,
            &mut Scratch::default(),
        )
        .expect("a small batch");
        let id = keys.intern("ändern").expect("a small batch");
        let t = p.get(id).expect("a key of the text");
        assert_eq!((t.first, p.form(t), t.marked), (11, "ÄNDERN", 1));
    }

    #[test]
    fn kernel_words_and_own_words_agree() {
        // Step 0 from the kernel's interned sequences decides as the guard's own word split.
        let texts = [
            "The  Cache is shared.",
            "the cache is shared",
            "The cache is not shared.",
        ];
        for (a, b) in [(0, 1), (0, 2), (1, 2)] {
            let own = Guard::new(&texts).check(a, b);
            let mut g = Guard::new(&texts);
            let (_, seqs) =
                crate::dedupe::jaccard::word_sets_with::<_, true>(&texts).expect("small");
            g.set_words(seqs.expect("asked for"));
            assert_eq!(g.check(a, b), own);
        }
    }
}
