//! The crate's modules form one-way layers: each imports only from the layers below it, so the
//! module graph has no cycle. This test reads `src/` and fails on any `crate::` or `super::`
//! path that points at the module's own layer or one above it, and on a module the table does
//! not place.
//!
//! A module is a top-level module of the crate (`payload`), or, for the modules in [`SPLIT`],
//! one of its sub-modules (`mcp::host`): those hold layers of their own, and their `mod.rs`
//! only declares and re-exports (checked), as `src/lib.rs` does for the root.
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
    &["json_schema"],
    &["path"],
    &["model"],
    &["jmespath", "regex"],
    &["limits"],
    &["syntax"],
    // MCP's pure layer: the protocol's JSON, the `McpApp` component, MCP Apps visibility.
    &["mcp::protocol"],
    &["value"],
    &["catalog"],
    &["builtins"],
    &["payload"],
    &["env"],
    &["basic"],
    // MCP's host layer: the host's clients, its policy and audit, and the tool calls it makes.
    &["mcp::host"],
    &["stream"],
    &["reactive"],
    &["surfaces"],
    &["messages"],
    &["connect"],
    &["testing"],
    &["fixtures"],
];

/// The modules whose sub-modules are placed one by one in [`LAYERS`].
const SPLIT: &[&str] = &["mcp"];

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

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The paths of the use tree at the start of `text` (`a::{b, c::{d}}` is `a::b` and
/// `a::c::d`), each as its segments; an expression's path ends at its first other character.
fn use_tree(text: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    tree_into(text, Vec::new(), &mut out);
    out
}

/// Reads one use tree from `text` under `prefix`, and returns how many bytes it took.
fn tree_into(text: &str, prefix: Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
    let mut path = prefix;
    let mut at = 0;
    loop {
        let rest = &text[at..];
        let skipped = rest.len() - rest.trim_start().len();
        at += skipped;
        let rest = &text[at..];
        if let Some(group) = rest.strip_prefix('{') {
            at += 1;
            let mut inner = 0;
            loop {
                inner += tree_into(&group[inner..], path.clone(), out);
                let tail = &group[inner..];
                let skipped = tail.len() - tail.trim_start().len();
                inner += skipped;
                match group[inner..].chars().next() {
                    Some(',') => inner += 1,
                    Some('}') => return at + inner + 1,
                    _ => return at + inner,
                }
            }
        }
        if rest.starts_with('*') {
            out.push(path);
            return at + 1;
        }
        let ident: String = rest.chars().take_while(|c| is_ident(*c)).collect();
        at += ident.len();
        if ident.is_empty() {
            // An empty item: a trailing comma.
            return at;
        }
        if ident != "self" {
            path.push(ident);
        }
        if text[at..].starts_with("::") {
            at += 2;
        } else {
            // A rename does not change what the path names.
            let tail = text[at..].trim_start();
            if let Some(renamed) = tail.strip_prefix("as ") {
                let renamed = renamed.trim_start();
                let name = renamed.chars().take_while(|c| is_ident(*c)).count();
                at = text.len() - renamed.len() + name;
            }
            out.push(path);
            return at;
        }
    }
}

/// Every path in `code` that starts with `crate::` or `super::`, made absolute (its segments
/// from the crate's root) for code in the module at `module_path`, with the byte offset where
/// it starts.
fn crate_paths(code: &str, module_path: &[String]) -> Vec<(usize, Vec<String>)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(found) = ["crate::", "super::"]
        .iter()
        .filter_map(|p| code[from..].find(p).map(|at| (from + at, *p)))
        .min()
    {
        let (at, prefix) = found;
        from = at + prefix.len();
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| is_ident(c) || c == ':') {
            continue;
        }
        let mut base: Vec<String> = Vec::new();
        if prefix == "super::" {
            let mut up = 1;
            while code[from..].starts_with("super::") {
                from += "super::".len();
                up += 1;
            }
            base = module_path[..module_path.len().saturating_sub(up)].to_vec();
        }
        for path in use_tree(&code[from..]) {
            let mut whole = base.clone();
            whole.extend(path);
            if !whole.is_empty() {
                out.push((at, whole));
            }
        }
    }
    out
}

/// The names a facade (`src/lib.rs`, a split module's `mod.rs`) re-exports, and the path each
/// comes from, absolute: `pub use env::Environment;` in the root gives `Environment` →
/// `env::Environment`. Only the `pub use` items at the start of a line are read: the public
/// modules the root declares inline re-export with indented lines, which do not name the
/// root's items.
fn facade_names(text: &str, facade: &[String]) -> HashMap<String, Vec<String>> {
    let mut names = HashMap::new();
    let mut rest = text;
    while let Some((at, keyword)) = ["\npub use ", "\npub(crate) use "]
        .iter()
        .filter_map(|k| rest.find(k).map(|at| (at, *k)))
        .min()
    {
        rest = &rest[at + keyword.len()..];
        let end = rest.find(';').expect("a use ends with ';'");
        let item = &rest[..end];
        let (base, item) = match item.strip_prefix("crate::") {
            Some(item) => (Vec::new(), item),
            None => (facade.to_vec(), item),
        };
        for path in use_tree(item) {
            let mut whole = base.clone();
            whole.extend(path);
            if let Some(name) = whole.last() {
                names.insert(name.clone(), whole);
            }
        }
    }
    names
}

/// The layer-table module a path names: `payload::Payload` is `payload`, `mcp::host::McpHost`
/// is `mcp::host`, and a name a facade re-exports is the module it comes from.
fn module_of(path: &[String], facades: &HashMap<String, HashMap<String, Vec<String>>>) -> String {
    let mut path = path.to_vec();
    // A re-export may name another re-export; a few rounds reach the definition.
    for _ in 0..4 {
        let (facade, name) = match path.as_slice() {
            [name, ..] if facades[""].contains_key(name) => ("", name),
            [split, name, ..] if SPLIT.contains(&split.as_str()) => (split.as_str(), name),
            _ => break,
        };
        let Some(names) = facades.get(facade) else {
            break;
        };
        let Some(source) = names.get(name) else {
            break;
        };
        let skip = if facade.is_empty() { 1 } else { 2 };
        let mut next = source.clone();
        next.extend(path[skip..].iter().cloned());
        path = next;
    }
    match path.as_slice() {
        [split, sub, ..] if SPLIT.contains(&split.as_str()) => format!("{split}::{sub}"),
        [first, ..] => first.clone(),
        [] => String::new(),
    }
}

/// The module path of a file under `src/` (`mcp/protocol/app/mod.rs` is `mcp::protocol::app`).
fn module_path(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().expect("a file name");
    if last != "mod.rs" {
        parts.push(last.trim_end_matches(".rs").to_owned());
    }
    parts
}

/// A facade's problems: anything but module declarations, re-exports and attributes.
fn facade_problems(file: &str, text: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let mut in_use = false;
    for (line, code) in checked_lines(text) {
        let code = code.trim();
        if in_use || code.starts_with("pub use ") || code.starts_with("pub(crate) use ") {
            in_use = !code.ends_with(';');
            continue;
        }
        let allowed = code.is_empty()
            || code.starts_with("#[")
            || code.starts_with("#![")
            || code.starts_with("mod ")
            || code.starts_with("pub mod ")
            || code.starts_with("pub(crate) mod ");
        if !allowed {
            problems.push(format!(
                "{file}:{line}: a split module's mod.rs only declares and re-exports: `{code}`"
            ));
        }
    }
    problems
}

#[test]
fn no_module_imports_from_its_own_layer_or_above() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let read = |p: &Path| std::fs::read_to_string(p).expect("a source file is readable");
    let mut facades = HashMap::new();
    facades.insert(String::new(), facade_names(&read(&src.join("lib.rs")), &[]));
    for split in SPLIT {
        let text = read(&src.join(split).join("mod.rs"));
        facades.insert(split.to_string(), facade_names(&text, &[split.to_string()]));
    }
    let mut problems = Vec::new();
    for file in rust_files(&src) {
        let relative = file.strip_prefix(&src).expect("under src/");
        let shown = format!("src/{}", relative.display());
        let path = module_path(relative);
        if path == ["lib"]
            || path.first().is_some_and(|p| p == "bin")
            || file.file_name().is_some_and(|n| n == "tests.rs")
        {
            continue;
        }
        let text = read(&file);
        if path.len() == 1 && SPLIT.contains(&path[0].as_str()) {
            problems.extend(facade_problems(&shown, &text));
            continue;
        }
        let module = module_of(&path, &HashMap::from([(String::new(), HashMap::new())]));
        let Some(own) = layer_of(&module) else {
            problems.push(format!(
                "{shown}: the module `{module}` has no place in LAYERS"
            ));
            continue;
        };
        let lines = checked_lines(&text);
        let code: String = lines.iter().map(|(_, c)| format!("{c}\n")).collect();
        // The line of each byte of `code`, for the messages.
        let line_at = |at: usize| lines[code[..at].matches('\n').count()].0;
        for (at, target) in crate_paths(&code, &path) {
            let target = module_of(&target, &facades);
            if target == module {
                continue;
            }
            match layer_of(&target) {
                Some(layer) if layer < own => {}
                Some(layer) => problems.push(format!(
                    "{shown}:{}: `{module}` (layer {own}) imports `{target}` (layer {layer})",
                    line_at(at)
                )),
                None => problems.push(format!(
                    "{shown}:{}: `{module}` imports `{target}`, which has no place in LAYERS",
                    line_at(at)
                )),
            }
        }
    }
    problems.sort();
    problems.dedup();
    assert!(
        problems.is_empty(),
        "imports against the layers:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_reader_finds_every_kind_of_path() {
    let names = |code: &str, at: &[&str]| -> Vec<String> {
        let at: Vec<String> = at.iter().map(|s| s.to_string()).collect();
        crate_paths(code, &at)
            .into_iter()
            .map(|(_, p)| p.join("::"))
            .collect()
    };
    assert_eq!(
        names(
            "use crate::{error::Error, path::{self, JsonPointer}, Limits};",
            &["x"]
        ),
        ["error::Error", "path", "path::JsonPointer", "Limits"]
    );
    assert_eq!(
        names("let v = crate::json::kind_name(x); crate::mcp::X", &["x"]),
        ["json::kind_name", "mcp::X"]
    );
    assert_eq!(
        names(
            "use crate::mcp::{\n    AllowList,\n    McpHost as Host,\n};",
            &["x"]
        ),
        ["mcp::AllowList", "mcp::McpHost"]
    );
    assert_eq!(
        names(
            "use super::host::McpHost; super::super::a::b()",
            &["mcp", "call"]
        ),
        ["mcp::host::McpHost", "a::b"]
    );
    let lines =
        checked_lines("use crate::a; // crate::b\n#[cfg(test)]\nmod tests {\nuse crate::c;\n}");
    assert_eq!(lines, [(1, "use crate::a; ".to_owned())]);

    let root = facade_names(
        "\npub use env::Environment;\npub use mcp::{\n    McpHost, ToolClient,\n};\npub mod f {\n    pub use crate::catalog::Reads;\n}",
        &[],
    );
    assert_eq!(root["Environment"], ["env", "Environment"]);
    assert_eq!(root["ToolClient"], ["mcp", "ToolClient"]);
    assert!(!root.contains_key("Reads"));
    let mcp = facade_names(
        "//! x\nmod host;\npub use host::McpHost;\npub use crate::origin::Provenance;",
        &["mcp".to_owned()],
    );
    assert_eq!(mcp["McpHost"], ["mcp", "host", "McpHost"]);
    assert_eq!(mcp["Provenance"], ["origin", "Provenance"]);
    let facades = HashMap::from([(String::new(), root), ("mcp".to_owned(), mcp)]);
    let module = |path: &str| {
        let path: Vec<String> = path.split("::").map(str::to_owned).collect();
        module_of(&path, &facades)
    };
    // The root's name, then the split module's re-export, then the sub-module.
    assert_eq!(module("McpHost"), "mcp::host");
    assert_eq!(module("mcp::Provenance"), "origin");
    assert_eq!(module("mcp::host::McpHost"), "mcp::host");
    assert_eq!(module("payload::Payload"), "payload");
    assert_eq!(
        facade_problems("m.rs", "mod a;\npub use a::{\n    B,\n};\nfn f() {}"),
        ["m.rs:5: a split module's mod.rs only declares and re-exports: `fn f() {}`"]
    );
}
