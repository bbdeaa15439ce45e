//! Base64 decoding of MCP `blob` resource contents.
//!
//! MCP servers write blobs with the standard alphabet; renderers written in JavaScript read them
//! with `atob`, which follows WHATWG's "forgiving-base64 decode". This module decodes the same
//! inputs the same way, so a blob means the same in every renderer: ASCII whitespace is ignored,
//! padding is optional, a length that leaves one stray character is an error.

/// Why a blob is not base64.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Base64Error {
    pub(crate) message: String,
}

impl std::fmt::Display for Base64Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Base64Error {}

fn sextet(byte: u8) -> Option<u32> {
    Some(match byte {
        b'A'..=b'Z' => byte - b'A',
        b'a'..=b'z' => byte - b'a' + 26,
        b'0'..=b'9' => byte - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => return None,
    } as u32)
}

/// Decodes `text` as forgiving base64 (WHATWG), the way `atob` does.
pub(crate) fn decode(text: &str) -> Result<Vec<u8>, Base64Error> {
    let mut data: Vec<u8> = text
        .bytes()
        .filter(|b| !matches!(b, b'\t' | b'\n' | b'\x0C' | b'\r' | b' '))
        .collect();
    if data.len().is_multiple_of(4) {
        for _ in 0..2 {
            if data.last() == Some(&b'=') {
                data.pop();
            }
        }
    }
    if data.len() % 4 == 1 {
        return Err(Base64Error {
            message: "base64 text has a stray final character".to_owned(),
        });
    }
    let mut out = Vec::with_capacity(data.len() / 4 * 3 + 2);
    let (mut buffer, mut bits) = (0u32, 0u32);
    for (i, &byte) in data.iter().enumerate() {
        let Some(value) = sextet(byte) else {
            return Err(Base64Error {
                message: format!("base64 text has an invalid character at offset {i}"),
            });
        };
        buffer = (buffer << 6) | value;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((buffer >> bits) as u8);
            buffer &= (1 << bits) - 1;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::decode;

    #[test]
    fn decodes_padded_unpadded_and_spaced_text() {
        assert_eq!(decode("aGVsbG8=").unwrap(), b"hello");
        assert_eq!(decode("aGVsbG8").unwrap(), b"hello");
        assert_eq!(decode("aGVs\nbG8=").unwrap(), b"hello");
        assert_eq!(decode("").unwrap(), b"");
        assert_eq!(decode("+/8=").unwrap(), [0xFB, 0xFF]);
    }

    #[test]
    fn rejects_what_atob_rejects() {
        assert!(decode("a").is_err());
        assert!(decode("aGVsbG8==").is_err());
        assert!(decode("aGV$bG8=").is_err());
        assert!(decode("a=GV").is_err());
    }
}
