//! Cutting a stream's text into the texts of its messages, without parsing them: a JSON array
//! of messages, or JSON values one after another (JSON lines, or pretty-printed objects
//! separated by whitespace).
//!
//! Each message is then parsed on its own, so that a message too large, too deep or malformed
//! is one problem and the others are still read.

/// The messages' texts, and what stopped the cut early if anything did (then the texts found
/// before it are still returned).
pub(crate) struct Cut<'t> {
    pub(crate) messages: Vec<&'t str>,
    pub(crate) broken: Option<String>,
}

/// Cuts `text` into messages.
pub(crate) fn cut(text: &str) -> Cut<'_> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let bytes = text.as_bytes();
    let mut cut = Cut {
        messages: Vec::new(),
        broken: None,
    };
    let start = skip_space(bytes, 0);
    if bytes.get(start) == Some(&b'[') {
        cut_array(text, start + 1, &mut cut);
    } else {
        cut_sequence(text, start, &mut cut);
    }
    cut
}

fn skip_space(bytes: &[u8], mut i: usize) -> usize {
    while bytes.get(i).is_some_and(u8::is_ascii_whitespace) {
        i += 1;
    }
    i
}

/// `[m0, m1, …]` from just after the `[`.
fn cut_array<'t>(text: &'t str, mut i: usize, cut: &mut Cut<'t>) {
    let bytes = text.as_bytes();
    i = skip_space(bytes, i);
    if bytes.get(i) == Some(&b']') {
        i += 1;
    } else {
        loop {
            let end = match value_end(bytes, i, Scalar::InArray) {
                Ok(end) => end,
                Err(why) => {
                    cut.broken = Some(why);
                    return;
                }
            };
            cut.messages.push(&text[i..end]);
            i = skip_space(bytes, end);
            match bytes.get(i) {
                Some(b',') => i = skip_space(bytes, i + 1),
                Some(b']') => {
                    i += 1;
                    break;
                }
                Some(_) => {
                    cut.broken = Some(format!(
                        "expected ',' or ']' after message {} of the array (byte {i})",
                        cut.messages.len() - 1
                    ));
                    return;
                }
                None => {
                    cut.broken = Some("the array of messages is not closed with ']'".into());
                    return;
                }
            }
        }
    }
    let rest = skip_space(bytes, i);
    if rest < bytes.len() {
        cut.broken = Some(format!(
            "text after the end of the array of messages (byte {rest})"
        ));
    }
}

/// Values one after another: JSON lines when the first value fits on its line (then a line
/// that is not JSON is one bad message and the next line is read), else values separated by
/// whitespace (pretty-printed objects).
fn cut_sequence<'t>(text: &'t str, start: usize, cut: &mut Cut<'t>) {
    let bytes = text.as_bytes();
    let pretty = matches!(
        value_end(bytes, start, Scalar::ToEndOfLine),
        Ok(end) if text[start..end].contains('\n')
    );
    if !pretty {
        cut.messages.extend(
            text[start..]
                .lines()
                .map(str::trim)
                .filter(|line| !line.is_empty()),
        );
        return;
    }
    let mut i = start;
    while i < bytes.len() {
        let Ok(end) = value_end(bytes, i, Scalar::ToEndOfLine) else {
            // The rest is one malformed message: the parser says what is wrong with it.
            cut.messages.push(text[i..].trim_end());
            return;
        };
        cut.messages.push(&text[i..end]);
        i = skip_space(bytes, end);
    }
}

/// Where a value that does not start with a bracket or a quote ends.
#[derive(Clone, Copy)]
enum Scalar {
    /// At a `,`, `]` or whitespace.
    InArray,
    /// At the end of the line (a line of garbage is one bad message, not one per word).
    ToEndOfLine,
}

/// The end of the value starting at `i`: brackets are matched by counting (strings skipped);
/// whether they pair up is the parser's business.
fn value_end(bytes: &[u8], mut i: usize, scalar: Scalar) -> Result<usize, String> {
    let start = i;
    match bytes.get(i) {
        None => Err("a message was expected".into()),
        Some(b'"') => string_end(bytes, i + 1).ok_or_else(|| unterminated(start)),
        Some(b'[' | b'{') => {
            let mut depth = 0usize;
            while i < bytes.len() {
                match bytes[i] {
                    b'"' => {
                        i = string_end(bytes, i + 1).ok_or_else(|| unterminated(start))?;
                        continue;
                    }
                    b'[' | b'{' => depth += 1,
                    b']' | b'}' => {
                        depth -= 1;
                        if depth == 0 {
                            return Ok(i + 1);
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
            Err(unterminated(start))
        }
        Some(_) => {
            while let Some(&b) = bytes.get(i) {
                let stop = match scalar {
                    Scalar::InArray => b == b',' || b == b']' || b.is_ascii_whitespace(),
                    Scalar::ToEndOfLine => b == b'\n',
                };
                if stop {
                    break;
                }
                i += 1;
            }
            let mut end = i;
            while end > start && bytes[end - 1].is_ascii_whitespace() {
                end -= 1;
            }
            Ok(end)
        }
    }
}

fn unterminated(start: usize) -> String {
    format!("the message starting at byte {start} is not terminated")
}

/// The position just after the string whose content starts at `i` (after its opening quote).
fn string_end(bytes: &[u8], mut i: usize) -> Option<usize> {
    loop {
        i += memchr::memchr2(b'"', b'\\', bytes.get(i..)?)?;
        if bytes[i] == b'\\' {
            i += 2;
        } else {
            return Some(i + 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(text: &str) -> (Vec<&str>, Option<String>) {
        let c = cut(text);
        (c.messages, c.broken)
    }

    #[test]
    fn arrays_lines_and_pretty_values() {
        assert_eq!(
            texts(r#" [ {"a": "]}"}, {"b": [1, {"c": "\"["}]} ] "#),
            (vec![r#"{"a": "]}"}"#, r#"{"b": [1, {"c": "\"["}]}"#], None)
        );
        assert_eq!(texts("[]"), (vec![], None));
        assert_eq!(texts("  \n "), (vec![], None));
        assert_eq!(
            texts("{\n  \"a\": 1\n}\n{\"b\": 2}\n\n {\n  \"c\": 3\n}\n"),
            (
                vec!["{\n  \"a\": 1\n}", "{\"b\": 2}", "{\n  \"c\": 3\n}"],
                None
            )
        );
        assert_eq!(
            texts("{\"a\": 1}\n\n  {\"b\": [2,\n3]}\n"),
            (vec!["{\"a\": 1}", "{\"b\": [2,", "3]}"], None)
        );
        assert_eq!(texts("\u{feff}{}"), (vec!["{}"], None));
    }

    #[test]
    fn garbage_is_one_message_per_line() {
        assert_eq!(
            texts("hello world\n{\"a\": 1}\n42"),
            (vec!["hello world", "{\"a\": 1}", "42"], None)
        );
        assert_eq!(texts("[1, x y]").0, vec!["1", "x"]);
        assert!(texts("[1, x y]").1.unwrap().contains("expected ','"));
    }

    #[test]
    fn broken_streams_keep_what_came_before() {
        let (m, broken) = texts(r#"[{"a": 1}, {"b": "#);
        assert_eq!(m, vec![r#"{"a": 1}"#]);
        assert!(broken.unwrap().contains("not terminated"));
        let (m, broken) = texts(r#"[{"a": 1}"#);
        assert_eq!(m, vec![r#"{"a": 1}"#]);
        assert!(broken.unwrap().contains("not closed"));
        let (m, broken) = texts(r#"[{"a": 1}] {}"#);
        assert_eq!(m.len(), 1);
        assert!(broken.unwrap().contains("after the end"));
        assert_eq!(
            texts("{\"a\": 1}\n{\"b\": ").0,
            vec!["{\"a\": 1}", "{\"b\":"]
        );
        // JSON lines: a broken line is one message, the next line is read.
        assert_eq!(
            texts("{not json\n{\"b\": 1}\n").0,
            vec!["{not json", "{\"b\": 1}"]
        );
        // Pretty-printed values: a broken one is the rest of the text.
        assert_eq!(
            texts("{\n\"a\": 1}\n{\n\"b\": ").0,
            vec!["{\n\"a\": 1}", "{\n\"b\":"]
        );
        assert_eq!(texts("\"abc").0, vec!["\"abc"]);
    }
}
