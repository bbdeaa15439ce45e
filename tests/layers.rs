//! The crate's modules form one-way layers: each imports only from the layers below it, so the
//! module graph has no cycle. This test reads `src/` and fails on any `crate::` path that points
//! at the module's own layer or one above it, and on a module the table does not place.
//!
//! Test modules (`#[cfg(test)] mod …` and files called `tests.rs`) are not checked: a unit
//! test may compile payloads with the whole engine. Comments are not checked either (a doc link
//! is not a dependency). `src/lib.rs` is the root, which re-exports from every layer, and
//! `src/bin/` is a client of the library.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The layers, lowest first. A module may import from the layers before its own.
const LAYERS: &[&[&str]] = &[
    &["error"],
    &["origin"],
    &["cache"],
    &["json"],
    &["path"],
    &["model"],
    &["jmespath", "regex"],
    &["limits"],
    &["syntax"],
    &["value"],
    &["catalog"],
    &["builtins"],
    &["payload"],
    &["env"],
    &["basic"],
    &["mcp"],
    &["stream"],
    &["reactive"],
    &["surfaces"],
    &["messages"],
    &["testing"],
    &["fixtures"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).expect("src/ is readable") {
            let path = entry.expect("src/ is readable").path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|x| x == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The text of a file without its test modules and comments, line by line.
fn checked_lines(text: &str) -> Vec<(usize, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim();
        if trimmed == "#[cfg(test)]" {
            let next = lines[i + 1..]
                .iter()
                .map(|l| l.trim())
                .find(|l| !l.is_empty());
            if next.is_some_and(|l| l.starts_with("mod ") || l.starts_with("pub(crate) mod ")) {
                break;
            }
        }
        let code = match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        };
        out.push((i + 1, code.to_owned()));
    }
    out
}

/// The first segment of every path that follows `crate::` in `code` (`crate::{a::b, c}` names
/// `a` and `c`).
fn crate_paths(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // The top-level items of the group.
            let mut depth = 0;
            let mut item = String::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        out.push(first_segment(&item));
                        item.clear();
                        continue;
                    }
                    _ => {}
                }
                item.push(c);
            }
            out.push(first_segment(&item));
        } else {
            out.push(first_segment(rest));
        }
    }
    out.retain(|s| !s.is_empty() && s != "self");
    out
}

fn first_segment(path: &str) -> String {
    path.trim()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

/// The module each name the root re-exports comes from (`Environment` → `env`): the `pub use`
/// lines at the start of a line (the public modules declared in the root re-export with
/// indented, whole `crate::` paths, which the reader follows as they are).
fn root_names(lib: &str) -> HashMap<String, String> {
    let mut names = HashMap::new();
    let mut rest = lib;
    while let Some(at) = rest.find("\npub use ") {
        rest = &rest[at + "\npub use ".len()..];
        let end = rest.find(';').expect("a use ends with ';'");
        let item = &rest[..end];
        let module = first_segment(item);
        let listed = item[module.len()..].trim_start_matches("::");
        for name in listed.trim_matches(|c| c == '{' || c == '}').split(',') {
            let name = first_segment(name);
            if !name.is_empty() {
                names.insert(name, module.clone());
            }
        }
    }
    names
}

#[test]
fn no_module_imports_from_its_own_layer_or_above() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib = std::fs::read_to_string(src.join("lib.rs")).expect("src/lib.rs is readable");
    let roots = root_names(&lib);
    let mut problems = Vec::new();
    for file in rust_files(&src) {
        let relative = file.strip_prefix(&src).expect("under src/");
        let mut parts = relative.iter().map(|p| p.to_string_lossy().into_owned());
        let first = parts.next().expect("a file name");
        if first == "lib.rs" || first == "bin" || file.file_name().is_some_and(|n| n == "tests.rs")
        {
            continue;
        }
        let module = first.trim_end_matches(".rs").to_owned();
        let Some(own) = layer_of(&module) else {
            problems.push(format!(
                "{}: the module `{module}` has no place in LAYERS",
                relative.display()
            ));
            continue;
        };
        let text = std::fs::read_to_string(&file).expect("a source file is readable");
        for (line, code) in checked_lines(&text) {
            for name in crate_paths(&code) {
                let target = roots.get(&name).cloned().unwrap_or(name);
                if target == module {
                    continue;
                }
                match layer_of(&target) {
                    Some(layer) if layer < own => {}
                    Some(layer) => problems.push(format!(
                        "src/{}:{line}: `{module}` (layer {own}) imports `{target}` (layer {layer})",
                        relative.display()
                    )),
                    None => problems.push(format!(
                        "src/{}:{line}: `{module}` imports `{target}`, which has no place in LAYERS",
                        relative.display()
                    )),
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "imports against the layers:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_reader_finds_every_kind_of_path() {
    assert_eq!(
        crate_paths("use crate::{error::Error, path::{self, JsonPointer}, Limits};"),
        ["error", "path", "Limits"]
    );
    assert_eq!(
        crate_paths("let v = crate::json::kind_name(x); crate::mcp::X"),
        ["json", "mcp"]
    );
    let lines =
        checked_lines("use crate::a; // crate::b\n#[cfg(test)]\nmod tests {\nuse crate::c;\n}");
    assert_eq!(lines, [(1, "use crate::a; ".to_owned())]);
    let roots = root_names(
        "\npub use env::Environment;\npub use mcp::{\n    McpHost, ToolClient,\n};\npub mod f {\n    pub use crate::catalog::Reads;\n}",
    );
    assert_eq!(roots["Environment"], "env");
    assert_eq!(roots["ToolClient"], "mcp");
    assert!(!roots.contains_key("Reads"));
}
