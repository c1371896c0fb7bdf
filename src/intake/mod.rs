//! Intake's fast path: candidates that need no conversion become checked `Chunk`s in one call.
//!
//! A request's candidates are `Chunk`s or plain dicts whose values already have the types the
//! full check (`briefpack.candidates.to_chunk`) returns, almost always. The binding (`py`)
//! reads each one's fields, checks the same conditions the reference
//! (`briefpack.reference.intake`) checks, builds the `Chunk` of a dict, and names the
//! candidates it did not take (the full check converts those, or writes the error). The rules
//! that need no Python live here.

#[cfg(feature = "python")]
pub mod py;

/// The fields of a `Chunk`, in its declaration order (the order its `__dict__` has).
pub const CHUNK_FIELDS: [&str; 14] = [
    "text", "id", "score", "doc", "position", "parent", "title", "url", "updated", "tokens",
    "vector", "meta", "image", "page",
];

/// The keys a dict may have to take the fast path: every field but the page fields.
pub const PLAIN_KEYS: [&str; 12] = [
    "text", "id", "score", "doc", "position", "parent", "title", "url", "updated", "tokens",
    "vector", "meta",
];

/// The id of a candidate given without one: its input index as a string, or, when `given`
/// holds that, the index behind as many `#` as it takes to be new
/// (`briefpack.candidates.automatic_id`).
pub fn automatic_id(index: usize, given: impl Fn(&str) -> bool) -> String {
    let mut id = index.to_string();
    while given(&id) {
        id.insert(0, '#');
    }
    id
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn automatic_ids_avoid_given_ones() {
        let given: HashSet<&str> = ["0", "#0", "2"].into_iter().collect();
        assert_eq!(automatic_id(0, |s| given.contains(s)), "##0");
        assert_eq!(automatic_id(1, |s| given.contains(s)), "1");
        assert_eq!(automatic_id(2, |s| given.contains(s)), "#2");
    }

    #[test]
    fn plain_keys_are_the_fields_without_pages() {
        let fields: Vec<&str> = CHUNK_FIELDS
            .iter()
            .copied()
            .filter(|f| *f != "image" && *f != "page")
            .collect();
        assert_eq!(fields, PLAIN_KEYS);
    }
}
