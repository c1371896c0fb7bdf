//! A compiled-in vocabulary written back in tiktoken's file format (`NAME.tiktoken`).
//!
//! One line per token, in rank order: the token's bytes in standard padded base64, a space,
//! the rank in decimal, `\n`. That is byte for byte the file tiktoken downloads, so its SHA-256
//! is the one tiktoken checks (`expected_hash` in `tiktoken_ext.openai_public`); the Python
//! oracle checks it before building a `tiktoken.Encoding` from these bytes when tiktoken cannot
//! load its own copy. O(size of the vocabulary); about 3.6 MB for `o200k_base`.

use super::bpe::{read_vocab, CL100K_DATA, O200K_DATA};
use super::Encoding;

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Append the standard (RFC 4648, padded) base64 of `bytes` to `out`.
fn base64(bytes: &[u8], out: &mut Vec<u8>) {
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]);
            } else {
                out.push(b'=');
            }
        }
    }
}

/// `encoding`'s vocabulary as tiktoken's `.tiktoken` file, or `None` for `approx` (no
/// vocabulary).
pub fn tiktoken_file(encoding: Encoding) -> Option<Vec<u8>> {
    let data = match encoding {
        Encoding::O200kBase => O200K_DATA,
        Encoding::Cl100kBase => CL100K_DATA,
        Encoding::Approx => return None,
    };
    let tokens = read_vocab(data);
    let mut out = Vec::with_capacity(data.len() * 2 + tokens.len() * 8);
    for (rank, token) in tokens.iter().enumerate() {
        base64(token, &mut out);
        out.push(b' ');
        out.extend_from_slice(rank.to_string().as_bytes());
        out.push(b'\n');
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_is_rfc_4648() {
        for (plain, coded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            let mut out = Vec::new();
            base64(plain.as_bytes(), &mut out);
            assert_eq!(out, coded.as_bytes(), "{plain:?}");
        }
        let mut out = Vec::new();
        base64(&[0xfb, 0xff, 0x00], &mut out);
        assert_eq!(out, b"+/8A");
    }

    #[test]
    fn files_have_one_line_per_token_in_rank_order() {
        // First and last lines of tiktoken's published files.
        for (encoding, n, first, last) in [
            (Encoding::O200kBase, 199_998, "IQ== 0", "IGNvY29z 199997"),
            (
                Encoding::Cl100kBase,
                100_256,
                "IQ== 0",
                "IENvbnZleW9y 100255",
            ),
        ] {
            let file = tiktoken_file(encoding).expect("a BPE encoding");
            let text = std::str::from_utf8(&file).expect("ascii");
            assert!(text.ends_with('\n'));
            let lines: Vec<&str> = text.lines().collect();
            assert_eq!(lines.len(), n);
            assert_eq!(lines[0], first);
            assert_eq!(lines[n - 1], last);
        }
        assert!(tiktoken_file(Encoding::Approx).is_none());
    }
}
