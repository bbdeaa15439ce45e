//! A command line split into words as a POSIX shell splits them, without running a shell: no
//! variables, globs, redirections or command substitution, only quoting. What the user typed
//! for `--mcp 'npx -y @modelcontextprotocol/server-filesystem "My Documents"'` is what they
//! would have typed at their prompt.

/// Splits `line` into words as a POSIX shell does, quotes and backslashes only.
///
/// - Words are separated by spaces, tabs and newlines.
/// - `'…'` keeps everything inside as it is.
/// - `"…"` keeps everything inside, except that a backslash before `"`, `\`, `$`, `` ` `` or a
///   newline stands for that character (and a backslash before a newline joins the lines).
/// - Outside quotes a backslash keeps the next character as it is (a backslash before a
///   newline joins the lines).
/// - `''` and `""` are empty words.
///
/// Nothing else is special: `$HOME`, `*` and `>` are plain characters, since no shell runs.
///
/// ```
/// use a2ui_catalog_mcp::connect::split_command_line;
/// let words = split_command_line(r#"npx -y server "My Documents" it\'s ''"#).unwrap();
/// assert_eq!(words, ["npx", "-y", "server", "My Documents", "it's", ""]);
/// assert!(split_command_line("echo 'open").is_err());
/// ```
pub fn split_command_line(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    // A word exists once anything of it was read, even an empty pair of quotes.
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err("a single quote (') is not closed".to_owned()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => word.push(c),
                            Some('\n') => {}
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err("a double quote (\") is not closed".to_owned()),
                        },
                        Some(c) => word.push(c),
                        None => return Err("a double quote (\") is not closed".to_owned()),
                    }
                }
            }
            '\\' => match chars.next() {
                Some('\n') => {}
                Some(c) => {
                    in_word = true;
                    word.push(c);
                }
                None => return Err("the line ends with a backslash (\\)".to_owned()),
            },
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::split_command_line as split;

    #[test]
    fn words_as_a_shell_splits_them() {
        assert_eq!(split("  a  b\tc\n").unwrap(), ["a", "b", "c"]);
        assert_eq!(split("").unwrap(), Vec::<String>::new());
        assert_eq!(split("a'b c'd").unwrap(), ["ab cd"]);
        assert_eq!(split(r#""a \" \\ \$ \x""#).unwrap(), [r#"a " \ $ \x"#]);
        assert_eq!(split(r"a\ b \'c").unwrap(), ["a b", "'c"]);
        assert_eq!(split("'' \"\"").unwrap(), ["", ""]);
        assert_eq!(split("a\\\nb").unwrap(), ["ab"]);
        assert_eq!(
            split("$HOME *.json >out").unwrap(),
            ["$HOME", "*.json", ">out"]
        );
        assert_eq!(split("'it''s'").unwrap(), ["its"]);
        assert_eq!(split("é 'ü ñ'").unwrap(), ["é", "ü ñ"]);
    }

    #[test]
    fn unclosed_quotes_and_trailing_backslashes_are_errors() {
        assert!(split("a 'b").unwrap_err().contains("single quote"));
        assert!(split("a \"b").unwrap_err().contains("double quote"));
        assert!(split("a \"b\\").unwrap_err().contains("double quote"));
        assert!(split("a \\").unwrap_err().contains("backslash"));
    }
}
