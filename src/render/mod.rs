//! Price and pack source blocks in one pass: the budget stage's common case (no page images,
//! no compression) as one kernel.
//!
//! Each source, in rank order, is rendered with the widest label exactly as
//! `briefpack.prompt.render_source` renders it, counted with a limit of what is left of the
//! budget (its separator and a caller's `tokens` included), and placed greedily as `pack`
//! places it: with [`Overflow::Stop`] the first source that does not fit ends the walk (nothing
//! after it is rendered or counted), with [`Overflow::Skip`] the walk goes on. A source with
//! `tokens` is counted without its text (its wrapper only), and `tokens` stands in for the
//! text's count.
//!
//! Escaping: text as `html.escape(quote=False)` plus decimal references for bidi controls,
//! annotation marks and tag characters (a subdivision flag kept whole); attribute values as
//! `html.escape(quote=True)` plus decimal references for the control set (U+0000-U+001F,
//! U+007F-U+009F, U+2028, U+2029); a `brackets` title (and a page's parts) as text plus the
//! control references plus `(`, `)` and `;` as references; and a `brackets` text's first
//! visible `(` (or look-alike) as a reference. The label look-alike rule
//! (`neutralise_labels`), the tag look-alike rule and the rest of the invisible-character rule
//! change only values that hold an opening bracket ([`OPEN`]), an angle-bracket look-alike
//! ([`ANGLES`]) not followed by a CJK character, a variation selector (text) or an invisible
//! character ([`is_invisible`], values) or, in a `brackets` head, a separator look-alike
//! ([`HEAD_LOOKALIKES`]); they need Unicode classes and normalisation, so this module never
//! applies them: such a value comes already escaped from the caller ([`Field::escaped`], see
//! [`needs_caller`]), and every other value is escaped here. No Unicode tables are consulted.
//!
//! Costs are u128 and sums checked: a sum that would overflow cannot fit (nothing wraps or
//! panics). Counts are exact where they fit (`count_limited`'s contract), so the decisions and
//! the kept costs equal those of pricing every source in full and calling `pack`.
//! O(total text of the sources walked).

#[cfg(feature = "python")]
pub mod py;

use crate::pack::Overflow;
use crate::tokens::{count_limited_cached, Encoding, CACHE};

/// The label style (`briefpack.prompt.LabelStyle`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// `<source id="N" title="…" page="…" updated="…" url="…">` + newline + text + newline +
    /// `</source>`.
    Xml,
    /// `[N] (title) text`; a page: `[N] (title; page P; updated; url) text`.
    Brackets,
}

impl Style {
    /// The legal option strings, in the order error messages list them.
    pub const ALL: [(&'static str, Style); 2] =
        [("xml", Style::Xml), ("brackets", Style::Brackets)];
}

/// The opening brackets of a label look-alike (`briefpack._escape._OPEN`).
pub const OPEN: [char; 17] = [
    '[', '［', '【', '〔', '〖', '〘', '〚', '⟦', '⁅', '⦋', '⦍', '⦏', '⦗', '⟬', '⁽', '₍', '﹝',
];

/// The angle-bracket look-alikes that can open a tag name (`briefpack._escape._ANGLES`).
pub const ANGLES: [char; 16] = [
    '＜', '﹤', '\u{2329}', '\u{3008}', '⟨', '‹', '❮', '❬', '⧼', 'ᐸ', '˂', '《', '⦉', '⦑', '⧘', '⸦',
];

/// The look-alikes of a `brackets` head's separators (`briefpack._escape._HEAD_SEPARATOR`).
pub const HEAD_LOOKALIKES: [char; 10] = ['；', '（', '）', '﹙', '﹚', '⁽', '⁾', '₍', '₎', '﹔'];

/// The opening parentheses a `brackets` text may not start with (`briefpack._escape._LEAD`).
const LEAD_PARENS: [char; 5] = ['(', '（', '﹙', '⁽', '₍'];

/// The invisible format characters (`briefpack._escape._INVISIBLE`): zero-width spaces and
/// joiners, bidi controls, soft hyphen, BOM, variation selectors, tags, the Hangul fillers.
pub fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{ad}' | '\u{34f}' | '\u{61c}' | '\u{115f}' | '\u{1160}' | '\u{17b4}' | '\u{17b5}'
        | '\u{180b}'..='\u{180f}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}'
        | '\u{2060}'..='\u{206f}' | '\u{3164}' | '\u{fe00}'..='\u{fe0f}' | '\u{feff}'
        | '\u{ffa0}' | '\u{fff9}'..='\u{fffb}' | '\u{e0000}'..='\u{e0fff}')
}

/// The whitespace that may stand before a `brackets` text's opening parenthesis (Python's
/// `str.isspace` set, listed).
fn is_lead_space(c: char) -> bool {
    matches!(c,
        '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | '\u{1c}'..='\u{1f}' | ' ' | '\u{85}' | '\u{a0}'
        | '\u{1680}' | '\u{2000}'..='\u{200a}' | '\u{2028}' | '\u{2029}' | '\u{202f}'
        | '\u{205f}' | '\u{3000}')
}

/// Where a value stands, for [`needs_caller`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Free text (source text): bidi controls and tag characters are escaped here; the
    /// caller's rules add stray variation selectors, label look-alikes and tag look-alikes.
    Text,
    /// An `xml` attribute value: every invisible character is a reference.
    Value,
    /// A part of a `brackets` head: as [`Role::Value`], and the separators' look-alikes.
    Head,
}

/// The invisible characters text may not hold raw whatever stands around them (bidi
/// embeddings, overrides and isolates, deprecated format characters, annotation marks, tag
/// characters): written as references here, except the tags of a subdivision flag.
fn is_hidden_in_text(c: char) -> bool {
    matches!(c,
        '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{206f}' | '\u{fff9}'..='\u{fffb}'
        | '\u{e0000}'..='\u{e007f}')
}

/// The variation selectors: whether text may hold one raw depends on the character before it
/// (a Unicode class), so only the caller's rules escape a text holding one.
fn is_selector(c: char) -> bool {
    matches!(c, '\u{fe00}'..='\u{fe0f}' | '\u{e0100}'..='\u{e01ef}')
}

/// Characters known to be visible (`briefpack._escape._visible`) without a Unicode table: the
/// ASCII graphic characters and blocks of symbols that every Unicode version since 7.0 has
/// assigned in full (arrows, miscellaneous technical and symbols, dingbats, pictographs,
/// emoticons), where a variation selector is an emoji's presentation.
fn is_known_visible(c: char) -> bool {
    matches!(c,
        '!'..='~' | '\u{2190}'..='\u{21ff}' | '\u{2300}'..='\u{23ff}' | '\u{2600}'..='\u{27bf}'
        | '\u{1f300}'..='\u{1f64f}')
}

/// The byte length of the subdivision flag `rest` starts with (🏴, the tags `gbeng`, `gbsct`
/// or `gbwls`, CANCEL TAG), if it starts with one (`briefpack._escape._FLAG`).
fn flag_len(rest: &str) -> Option<usize> {
    let tail = rest.strip_prefix('\u{1f3f4}')?;
    ["eng", "sct", "wls"].iter().find_map(|name| {
        let mut chars = tail.chars();
        let wanted = "gb".chars().chain(name.chars());
        for w in wanted {
            if chars.next()? != char::from_u32(0xE0000 + u32::from(w))? {
                return None;
            }
        }
        (chars.next()? == '\u{e007f}').then_some(4 + 6 * 4)
    })
}

/// Whether `c` can follow an angle-bracket look-alike without it opening a tag name: a CJK
/// ideograph, kana or Hangul syllable (normalisation keeps them what they are).
fn is_cjk(c: char) -> bool {
    matches!(c, '\u{3040}'..='\u{30ff}' | '\u{3400}'..='\u{4dbf}' | '\u{4e00}'..='\u{9fff}' | '\u{ac00}'..='\u{d7af}' | '\u{f900}'..='\u{faff}')
}

/// Whether `s` holds a character only the caller's rules escape in `role` (an opening bracket
/// of a label look-alike, an angle-bracket look-alike that is not followed by a CJK character,
/// an invisible character the role's rule writes as a reference and, in a `brackets` head, a
/// look-alike of a separator); every other value is escaped here. Those rules need Unicode
/// classes and normalisation, which this module never consults.
pub fn needs_caller(s: &str, role: Role) -> bool {
    if memchr::memchr(b'[', s.as_bytes()).is_some() {
        return true;
    }
    if s.is_ascii() {
        return false;
    }
    for (i, &b) in s.as_bytes().iter().enumerate() {
        if !SPECIAL_LEAD[b as usize] {
            continue;
        }
        // a lead byte starts a character
        let mut chars = s[i..].chars();
        let Some(c) = chars.next() else { continue };
        let next = chars.next();
        let hidden = match role {
            // one selector after a character known to be visible is kept raw by the rule
            Role::Text => {
                is_selector(c)
                    && (!s[..i].chars().next_back().is_some_and(is_known_visible)
                        || next.is_some_and(is_selector))
            }
            Role::Value | Role::Head => is_invisible(c),
        };
        if hidden
            || OPEN.contains(&c)
            || (ANGLES.contains(&c) && !next.is_some_and(is_cjk))
            || (role == Role::Head && HEAD_LOOKALIKES.contains(&c))
        {
            return true;
        }
    }
    false
}

/// A table of lead bytes: the first UTF-8 byte of every character [`needs_caller`] looks for
/// (U+00AD, U+02C2, U+034F, U+061C, U+1xxx, U+2xxx, U+3xxx, U+Fxxx, U+E0xxx).
const SPECIAL_LEAD: [bool; 256] =
    lead_table(&[0xC2, 0xCB, 0xCD, 0xD8, 0xE1, 0xE2, 0xE3, 0xEF, 0xF3]);

/// The same for text escaping: `&<>` and the lead bytes of [`is_hidden_in_text`] and of 🏴.
const TEXT_LEAD: [bool; 256] = lead_table(&[b'&', b'<', b'>', 0xE2, 0xEF, 0xF0, 0xF3]);

const fn lead_table(bytes: &[u8]) -> [bool; 256] {
    let mut t = [false; 256];
    let mut k = 0;
    while k < bytes.len() {
        t[bytes[k] as usize] = true;
        k += 1;
    }
    t
}

/// Write the first visible character of the `brackets` text at `out[start..]` as a reference
/// when it is an opening parenthesis (or a look-alike), so no text reads as a head's `(title)`.
fn guard_lead(out: &mut String, start: usize) {
    let found = out[start..]
        .char_indices()
        .find(|&(_, c)| !(is_lead_space(c) || is_invisible(c)));
    if let Some((i, c)) = found {
        if LEAD_PARENS.contains(&c) {
            let at = start + i;
            let mut rep = String::new();
            reference(&mut rep, c);
            out.replace_range(at..at + c.len_utf8(), &rep);
        }
    }
}

/// One value of a source: as given (escaped here) or already escaped by the caller (in the
/// form it takes in the block: for a `brackets` page, the whole `page P` part).
#[derive(Debug, Clone)]
pub struct Field<S> {
    pub value: S,
    pub escaped: bool,
}

impl<S: AsRef<str>> Field<S> {
    fn is_empty(&self) -> bool {
        self.value.as_ref().is_empty()
    }
}

/// A source's label fields (`page` is `""` for none) and its caller's `tokens`.
#[derive(Debug, Clone)]
pub struct Source<S> {
    pub text: Field<S>,
    pub title: Field<S>,
    pub url: Field<S>,
    pub updated: Field<S>,
    pub page: Field<S>,
    pub tokens: Option<u128>,
}

/// What to escape a value as.
#[derive(Clone, Copy)]
enum As {
    Text,
    Attr,
    BracketsTitle,
}

fn reference(out: &mut String, c: char) {
    out.push_str("&#");
    out.push_str(&u32::from(c).to_string());
    out.push(';');
}

fn is_control(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}' | '\u{2028}' | '\u{2029}')
}

/// Byte classes: `&<>` (every role), `"'` (attributes), `()` (a `brackets` title), and the
/// bytes a control character can start with (ASCII controls, DEL, the lead bytes of U+0080 -
/// U+009F and of U+2028 / U+2029). Each is ASCII or a lead byte, so a hit is a char boundary.
const TEXT: u8 = 1;
const QUOTE: u8 = 2;
const PAREN: u8 = 4;
const CONTROL: u8 = 8;
const CLASSES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 0x20 {
        t[b] = CONTROL;
        b += 1;
    }
    t[0x7f] = CONTROL;
    t[0xc2] = CONTROL;
    t[0xe2] = CONTROL;
    t[b'&' as usize] = TEXT;
    t[b'<' as usize] = TEXT;
    t[b'>' as usize] = TEXT;
    t[b'"' as usize] = QUOTE;
    t[b'\'' as usize] = QUOTE;
    t[b'(' as usize] = PAREN;
    t[b')' as usize] = PAREN;
    t[b';' as usize] = PAREN;
    t
};

/// Append `s` escaped as `how` (see the module's notes; no look-alike rule).
fn escape(out: &mut String, s: &str, how: As) {
    let bytes = s.as_bytes();
    let mut last = 0;
    if matches!(how, As::Text) && !s.is_ascii() {
        escape_text_unicode(out, s);
        return;
    }
    if matches!(how, As::Text) {
        for i in memchr::memchr3_iter(b'&', b'<', b'>', bytes) {
            out.push_str(&s[last..i]);
            out.push_str(match bytes[i] {
                b'&' => "&amp;",
                b'<' => "&lt;",
                _ => "&gt;",
            });
            last = i + 1;
        }
        out.push_str(&s[last..]);
        return;
    }
    let mask = TEXT
        | CONTROL
        | match how {
            As::Attr => QUOTE,
            _ => PAREN,
        };
    for (i, &b) in bytes.iter().enumerate() {
        if CLASSES[b as usize] & mask == 0 {
            continue;
        }
        let rep = match b {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            b'\'' => "&#x27;",
            b'(' => "&#40;",
            b')' => "&#41;",
            b';' => "&#59;",
            _ => "",
        };
        if rep.is_empty() {
            let Some(c) = s[i..].chars().next() else {
                continue;
            };
            if !is_control(c) {
                continue;
            }
            out.push_str(&s[last..i]);
            reference(out, c);
            last = i + c.len_utf8();
        } else {
            out.push_str(&s[last..i]);
            out.push_str(rep);
            last = i + 1;
        }
    }
    out.push_str(&s[last..]);
}

/// Append the text `s` (not all ASCII) escaped: `&<>` and the characters text may not hold
/// raw ([`is_hidden_in_text`]; a subdivision flag is kept whole).
fn escape_text_unicode(out: &mut String, s: &str) {
    let mut last = 0;
    let mut skip = 0;
    for (i, &b) in s.as_bytes().iter().enumerate() {
        if i < skip || !TEXT_LEAD[b as usize] {
            continue;
        }
        // an ASCII byte or a lead byte starts a character
        let Some(c) = s[i..].chars().next() else {
            continue;
        };
        let rep = match c {
            '&' => "&amp;",
            '<' => "&lt;",
            '>' => "&gt;",
            '\u{1f3f4}' => {
                skip = flag_len(&s[i..]).map_or(0, |n| i + n);
                continue;
            }
            _ if is_hidden_in_text(c) => "",
            _ => continue,
        };
        out.push_str(&s[last..i]);
        if rep.is_empty() {
            reference(out, c);
        } else {
            out.push_str(rep);
        }
        last = i + c.len_utf8();
    }
    out.push_str(&s[last..]);
}

fn value<S: AsRef<str>>(out: &mut String, f: &Field<S>, how: As) {
    if f.escaped {
        out.push_str(f.value.as_ref());
    } else {
        escape(out, f.value.as_ref(), how);
    }
}

/// Append the block of `source` under `label` (`briefpack.prompt.render_source`), with its
/// text or (`with_text` false) with an empty text.
pub fn render<S: AsRef<str>>(
    out: &mut String,
    label: &str,
    source: &Source<S>,
    style: Style,
    with_text: bool,
) {
    let text = |out: &mut String| {
        if with_text {
            value(out, &source.text, As::Text);
        }
    };
    match style {
        Style::Xml => {
            out.push_str("<source id=\"");
            escape(out, label, As::Attr);
            out.push('"');
            for (name, f) in [
                ("title", &source.title),
                ("page", &source.page),
                ("updated", &source.updated),
                ("url", &source.url),
            ] {
                if !f.is_empty() {
                    out.push(' ');
                    out.push_str(name);
                    out.push_str("=\"");
                    value(out, f, As::Attr);
                    out.push('"');
                }
            }
            out.push_str(">\n");
            text(out);
            out.push_str("\n</source>");
        }
        Style::Brackets => {
            out.push('[');
            out.push_str(label);
            out.push(']');
            if !source.page.is_empty() {
                out.push_str(" (");
                let mut first = true;
                for (f, is_page) in [
                    (&source.title, false),
                    (&source.page, true),
                    (&source.updated, false),
                    (&source.url, false),
                ] {
                    if f.is_empty() {
                        continue;
                    }
                    if !first {
                        out.push_str("; ");
                    }
                    first = false;
                    if is_page && !f.escaped {
                        out.push_str("page ");
                    }
                    value(out, f, As::BracketsTitle);
                }
                out.push(')');
            } else if !source.title.is_empty() {
                out.push_str(" (");
                value(out, &source.title, As::BracketsTitle);
                out.push(')');
            }
            out.push(' ');
            let start = out.len();
            text(out);
            guard_lead(out, start);
        }
    }
}

/// The fixed settings of one pricing walk.
#[derive(Debug, Clone)]
pub struct Settings {
    pub style: Style,
    /// The widest label the request can produce (its decimal digits).
    pub widest: String,
    pub budget: u128,
    /// The token count of the separator that stands before each block.
    pub separator: u128,
    pub overflow: Overflow,
    pub encoding: Encoding,
}

/// What the walk decided: the placed sources (ascending), their costs and blocks (with the
/// text, under the widest label), and the sources that did not fit with what was left of the
/// budget when each was tried. With [`Overflow::Stop`] there is at most one misfit, and every
/// source after it is dropped after it (never rendered or counted).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Priced {
    pub kept: Vec<usize>,
    pub costs: Vec<u128>,
    pub blocks: Vec<String>,
    pub misfits: Vec<usize>,
    pub remaining: Vec<u128>,
}

/// The walk, one source at a time (so a binding can fetch sources lazily, in batches).
#[derive(Debug)]
pub struct Packer {
    settings: Settings,
    used: u128,
    next: usize,
    stopped: bool,
    buf: String,
    pub priced: Priced,
}

impl Packer {
    pub fn new(settings: Settings) -> Self {
        Self {
            settings,
            used: 0,
            next: 0,
            stopped: false,
            buf: String::new(),
            priced: Priced::default(),
        }
    }

    /// Whether the walk has ended at a misfit (`overflow="stop"`): push nothing more.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Price the next source and place it if it fits; `false` once the walk has stopped.
    pub fn push<S: AsRef<str>>(&mut self, source: &Source<S>) -> bool {
        if self.stopped {
            return false;
        }
        let i = self.next;
        self.next += 1;
        let s = &self.settings;
        let left = s.budget.saturating_sub(self.used);
        let fixed = s.separator.checked_add(source.tokens.unwrap_or(0));
        // A cost is at least `fixed`: past what is left, nothing needs counting.
        let cost = match fixed {
            Some(fixed) if fixed <= left => {
                self.buf.clear();
                render(
                    &mut self.buf,
                    &s.widest,
                    source,
                    s.style,
                    source.tokens.is_none(),
                );
                let limit = usize::try_from(left - fixed).unwrap_or(usize::MAX);
                let n = count_limited_cached(s.encoding, &self.buf, limit, &CACHE, true);
                fixed.checked_add(n as u128)
            }
            _ => None,
        };
        match cost {
            Some(cost) if cost <= left => {
                self.used += cost;
                let block = if source.tokens.is_none() {
                    self.buf.clone()
                } else {
                    let mut b =
                        String::with_capacity(self.buf.len() + source.text.value.as_ref().len());
                    render(&mut b, &s.widest, source, s.style, true);
                    b
                };
                self.priced.kept.push(i);
                self.priced.costs.push(cost);
                self.priced.blocks.push(block);
            }
            _ => {
                self.priced.misfits.push(i);
                self.priced.remaining.push(left);
                self.stopped = s.overflow == Overflow::Stop;
            }
        }
        !self.stopped
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// Price and pack every source of `sources`.
    fn price_pack<S: AsRef<str>>(sources: &[Source<S>], settings: Settings) -> Priced {
        let mut packer = Packer::new(settings);
        for source in sources {
            if !packer.push(source) {
                break;
            }
        }
        packer.priced
    }

    fn raw(s: &str) -> Field<&str> {
        Field {
            value: s,
            escaped: false,
        }
    }

    fn source<'a>(text: &'a str, title: &'a str, page: &'a str) -> Source<&'a str> {
        Source {
            text: raw(text),
            title: raw(title),
            url: raw("https://x/y?a=1&b=2"),
            updated: raw(""),
            page: raw(page),
            tokens: None,
        }
    }

    fn block(s: &Source<&str>, style: Style) -> String {
        let mut out = String::new();
        render(&mut out, "12", s, style, true);
        out
    }

    #[test]
    fn renders_as_render_source() {
        let s = source("a < b & \"c\"\n", "T'(x)\n", "");
        assert_eq!(
            block(&s, Style::Xml),
            "<source id=\"12\" title=\"T&#x27;(x)&#10;\" url=\"https://x/y?a=1&amp;b=2\">\na &lt; b &amp; \"c\"\n\n</source>"
        );
        assert_eq!(
            block(&s, Style::Brackets),
            "[12] (T'&#40;x&#41;&#10;) a &lt; b &amp; \"c\"\n"
        );
        let p = source("", "", "iv");
        assert_eq!(
            block(&p, Style::Brackets),
            "[12] (page iv; https://x/y?a=1&amp;b=2) "
        );
        assert_eq!(
            block(&p, Style::Xml),
            "<source id=\"12\" page=\"iv\" url=\"https://x/y?a=1&amp;b=2\">\n\n</source>"
        );
    }

    #[test]
    fn controls_and_separators_are_references_in_values_only() {
        let s = source("\u{85}\u{2028}", "\u{7f}\u{9f}\u{a0}\u{2029}", "");
        assert_eq!(
            block(&s, Style::Brackets),
            "[12] (&#127;&#159;\u{a0}&#8233;) \u{85}\u{2028}"
        );
    }

    #[test]
    fn finds_every_character_the_callers_rules_react_to() {
        for role in [Role::Text, Role::Value, Role::Head] {
            for c in OPEN.iter().chain(&ANGLES) {
                assert!(needs_caller(&format!("x{c}"), role), "{c}");
                assert!(needs_caller(&format!("x{c}a"), role), "{c}");
            }
            for c in ['\u{fe0f}', '\u{e0100}'] {
                assert!(needs_caller(&format!(" {c}b"), role), "{c:?}");
                assert!(needs_caller(&format!("é{c}b"), role), "{c:?}");
                assert!(needs_caller(&format!("a{c}{c}"), role), "{c:?}");
            }
            for s in [
                "",
                "abc",
                "]］】〕 é ⟧⁆ (x); 中",
                "\u{e2}\u{e3}",
                "《红楼梦》 〈한〉",
            ] {
                assert!(!needs_caller(s, role), "{s}");
            }
        }
        // an emoji's presentation selector, after a symbol known to be visible
        for s in [
            "\u{2764}\u{fe0f}",
            "1\u{fe0f}\u{20e3}",
            "\u{1f3f3}\u{fe0f}\u{200d}x",
        ] {
            assert!(!needs_caller(s, Role::Text), "{s:?}");
            assert!(needs_caller(s, Role::Value), "{s:?}");
        }
        for c in HEAD_LOOKALIKES {
            assert!(needs_caller(&format!("x{c}"), Role::Head), "{c}");
            assert_eq!(
                needs_caller(&format!("x{c}"), Role::Value),
                OPEN.contains(&c)
            );
        }
        // joiners, zero-width spaces, marks and fillers: raw in text, references in values;
        // bidi controls and tags: references in both, text's escaped here
        for c in [
            '\u{200b}',
            '\u{200c}',
            '\u{200d}',
            '\u{2060}',
            '\u{feff}',
            '\u{ad}',
            '\u{3164}',
            '\u{202e}',
            '\u{2066}',
            '\u{e0041}',
            '\u{fff9}',
        ] {
            assert!(!needs_caller(&format!("a{c}b"), Role::Text), "{c:?}");
            assert!(needs_caller(&format!("a{c}b"), Role::Value), "{c:?}");
        }
    }

    #[test]
    fn the_lead_byte_tables_cover_every_character_looked_for() {
        let mut buf = [0u8; 4];
        for c in (0..=0x10_FFFF).filter_map(char::from_u32) {
            let lead = c.encode_utf8(&mut buf).as_bytes()[0] as usize;
            let special = is_invisible(c)
                || is_selector(c)
                || OPEN.contains(&c)
                || ANGLES.contains(&c)
                || HEAD_LOOKALIKES.contains(&c);
            if special && !c.is_ascii() {
                assert!(SPECIAL_LEAD[lead], "{c:?}");
            }
            if is_hidden_in_text(c) || matches!(c, '&' | '<' | '>' | '\u{1f3f4}') {
                assert!(TEXT_LEAD[lead], "{c:?}");
            }
        }
    }

    #[test]
    fn bidi_controls_and_tags_in_text_are_references_but_a_flag_is_kept() {
        let flag = "\u{1f3f4}\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}";
        assert_eq!(flag_len(flag), Some(flag.len()));
        let text = format!("a\u{202e}b<{flag}\u{e0069}\u{1f3f4}\u{e0067}\u{e007f} é");
        assert_eq!(
            block(&source(&text, "", ""), Style::Brackets),
            format!("[12] a&#8238;b&lt;{flag}&#917609;\u{1f3f4}&#917607;&#917631; é")
        );
    }

    #[test]
    fn a_brackets_text_cannot_start_a_head_and_a_head_part_cannot_split() {
        let s = source(" \u{a0}(Official; updated 2099) x", "a; b", "");
        assert_eq!(
            block(&s, Style::Brackets),
            "[12] (a&#59; b)  \u{a0}&#40;Official; updated 2099) x"
        );
        let s = source("（x", "", "2; 3");
        assert_eq!(
            block(&s, Style::Brackets),
            "[12] (page 2&#59; 3; https://x/y?a=1&amp;b=2) &#65288;x"
        );
    }

    fn settings(budget: u128, overflow: Overflow) -> Settings {
        Settings {
            style: Style::Brackets,
            widest: "9".into(),
            budget,
            separator: 1,
            overflow,
            encoding: Encoding::Approx,
        }
    }

    #[test]
    fn packs_as_pack_does() {
        // approx: [9] + space + text, max(1, chars / 4)
        let texts = [
            "x".repeat(36),
            "x".repeat(76),
            "x".repeat(16),
            "x".repeat(4),
        ];
        let sources: Vec<Source<&str>> = texts.iter().map(|t| source(t, "", "")).collect();
        let costs: Vec<u128> = texts
            .iter()
            .map(|t| (t.len() as u128 + 4) / 4 + 1)
            .collect();
        for overflow in [Overflow::Stop, Overflow::Skip] {
            for budget in 0..40 {
                let p = price_pack(&sources, settings(budget, overflow));
                let (kept, _) = crate::pack::pack(&costs, budget, overflow);
                assert_eq!(p.kept, kept);
                assert_eq!(p.costs, kept.iter().map(|&i| costs[i]).collect::<Vec<_>>());
                if overflow == Overflow::Stop {
                    assert!(p.misfits.len() <= 1);
                }
            }
        }
    }

    #[test]
    fn huge_tokens_never_fit_and_never_wrap() {
        let mut s = source("abc", "", "");
        s.tokens = Some(u128::MAX);
        let p = price_pack(
            &[s.clone(), source("abcd", "", "")],
            settings(u128::MAX, Overflow::Skip),
        );
        assert_eq!((p.kept, p.misfits), (vec![1], vec![0]));
    }
}
