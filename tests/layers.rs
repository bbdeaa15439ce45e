//! The crate's modules form one-way layers: each imports only from the layers below it, so the
//! module graph has no cycle. This test reads `src/` and fails on any `crate::` or `super::`
//! path that points at the module's own layer or one above it, and on a module the table does
//! not place.
//!
//! A module is a top-level module of the crate (`payload`), or, for the modules in [`SPLIT`],
//! one of its sub-modules (`mcp::host`): those hold layers of their own, and their `mod.rs`
//! only declares and re-exports (checked), as `src/lib.rs` does for the root.
//!
//! Inside every folder the same holds (`every_folder_is_a_table_of_contents_over_one_way_layers`):
//! its `mod.rs` only declares and re-exports, and its sub-modules import one another one way,
//! with no circle; run with `--nocapture` to see each folder's layers. Folders not there yet
//! are listed, with the reason, in [`NOT_YET_A_TABLE_OF_CONTENTS`] and [`NOT_YET_LAYERED`].
//!
//! Test modules (`#[cfg(test)] mod …` and files called `tests.rs`) are not checked: a unit
//! test may compile payloads with the whole engine. Comments are not checked either (a doc link
//! is not a dependency). `src/lib.rs` is the root, which re-exports from every layer, and
//! `src/bin/` is a client of the library.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The layers, lowest first. A module may import from the layers before its own.
const LAYERS: &[&[&str]] = &[
    // The unit tests' random generator (test builds only), below everything that uses it.
    &["test_rng"],
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
            // An inline test module runs to the end of the file; a declared one (`mod tests;`)
            // is a file of its own, and the code after it is checked.
            if next.is_some_and(|l| {
                (l.starts_with("mod ") || l.starts_with("pub(crate) mod ")) && !l.ends_with(';')
            }) {
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
    let edges = |pairs: &[(&str, &[&str])]| -> HashMap<String, Vec<String>> {
        pairs
            .iter()
            .map(|(m, to)| (m.to_string(), to.iter().map(|t| t.to_string()).collect()))
            .collect()
    };
    assert_eq!(
        layers_of(&edges(&[("a", &[]), ("b", &["a"]), ("c", &["a", "b"])])),
        Ok(vec![
            vec!["a".to_owned()],
            vec!["b".to_owned()],
            vec!["c".to_owned()]
        ])
    );
    assert_eq!(
        layers_of(&edges(&[("a", &[]), ("b", &["c"]), ("c", &["b"])])),
        Err(vec!["b".to_owned(), "c".to_owned()])
    );
    assert_eq!(
        facade_problems("m.rs", "mod a;\npub use a::{\n    B,\n};\nfn f() {}"),
        ["m.rs:5: a split module's mod.rs only declares and re-exports: `fn f() {}`"]
    );
}

/// Folders whose `mod.rs` (or `name.rs` beside `name/`) still holds code, not only
/// declarations and re-exports. Each is work left, not a rule: the list only shrinks, and an
/// entry that passes fails the test until it is removed. Empty since issue 37: every folder is
/// a table of contents.
const NOT_YET_A_TABLE_OF_CONTENTS: &[&str] = &[];

/// Folders whose sub-modules still import each other in a circle (same rules as above). Empty
/// since issue 37: no folder has a circle.
const NOT_YET_LAYERED: &[&str] = &[];

/// A module with sub-modules of its own (tests aside): its file, its sub-modules' names, and
/// the names its file re-exports, each with the absolute path it comes from.
struct Folder {
    file: PathBuf,
    children: Vec<String>,
    names: HashMap<String, Vec<String>>,
}

/// Every folder under `src/`, by module path (`mcp::host`); the root is `""`.
fn folders(src: &Path) -> HashMap<String, Folder> {
    let read = |p: &Path| std::fs::read_to_string(p).expect("a source file is readable");
    let mut out = HashMap::new();
    let mut pending = vec![(src.to_path_buf(), Vec::<String>::new())];
    while let Some((dir, path)) = pending.pop() {
        let mut children = Vec::new();
        for entry in std::fs::read_dir(&dir).expect("src/ is readable") {
            let entry = entry.expect("src/ is readable").path();
            let name = entry
                .file_stem()
                .expect("a name")
                .to_string_lossy()
                .into_owned();
            if entry.is_dir() {
                if path.is_empty() && name == "bin" {
                    continue;
                }
                let mut inner = path.clone();
                inner.push(name.clone());
                pending.push((entry.clone(), inner));
                if entry.join("mod.rs").exists() {
                    children.push(name);
                }
            } else if entry.extension().is_some_and(|x| x == "rs")
                && !["mod", "tests", "lib", "main"].contains(&name.as_str())
            {
                children.push(name);
            }
        }
        children.sort();
        children.dedup();
        let file = match path.as_slice() {
            [] => src.join("lib.rs"),
            _ if dir.join("mod.rs").exists() => dir.join("mod.rs"),
            _ => dir.with_extension("rs"),
        };
        if children.is_empty() || !file.exists() {
            continue;
        }
        let names = facade_names(&read(&file), &path);
        out.insert(
            path.join("::"),
            Folder {
                file,
                children,
                names,
            },
        );
    }
    out
}

/// The sub-module of `folder` that an absolute path reaches, following the re-exports of the
/// folders it passes through: `Some("mod")` for an item the folder's own file defines, `None`
/// for a path outside the folder.
fn child_reached(
    path: &[String],
    folder: &[String],
    folders: &HashMap<String, Folder>,
) -> Option<String> {
    let mut path = path.to_vec();
    // A re-export may name another re-export; a few rounds reach the definition.
    for _ in 0..8 {
        // The deepest folder the path passes through whose re-export it uses.
        let mut moved = false;
        for cut in (0..path.len()).rev() {
            let Some(at) = folders.get(&path[..cut].join("::")) else {
                continue;
            };
            let name = &path[cut];
            if at.children.contains(name) {
                continue;
            }
            if let Some(source) = at.names.get(name)
                && source.as_slice() != &path[..=cut]
            {
                let mut next = source.clone();
                next.extend(path[cut + 1..].iter().cloned());
                path = next;
                moved = true;
                break;
            }
        }
        if !moved {
            break;
        }
    }
    if path.len() <= folder.len() || path[..folder.len()] != *folder {
        return None;
    }
    let name = &path[folder.len()];
    let children = &folders[&folder.join("::")].children;
    Some(if children.contains(name) {
        name.clone()
    } else {
        "mod".to_owned()
    })
}

/// The sub-modules of one folder in one-way layers, lowest first, or the ones left in a
/// circle.
fn layers_of(edges: &HashMap<String, Vec<String>>) -> Result<Vec<Vec<String>>, Vec<String>> {
    let mut left: Vec<String> = edges.keys().cloned().collect();
    left.sort();
    let mut placed: Vec<String> = Vec::new();
    let mut layers = Vec::new();
    while !left.is_empty() {
        let ready: Vec<String> = left
            .iter()
            .filter(|m| edges[*m].iter().all(|t| placed.contains(t)))
            .cloned()
            .collect();
        if ready.is_empty() {
            return Err(left);
        }
        left.retain(|m| !ready.contains(m));
        placed.extend(ready.iter().cloned());
        layers.push(ready);
    }
    Ok(layers)
}

#[test]
fn every_folder_is_a_table_of_contents_over_one_way_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let read = |p: &Path| std::fs::read_to_string(p).expect("a source file is readable");
    let folders = folders(&src);
    let mut problems = Vec::new();
    let mut names: Vec<&String> = folders.keys().collect();
    names.sort();
    for name in names {
        if name.is_empty() {
            // The root's layers are the table above.
            continue;
        }
        let folder = &folders[name];
        let segments: Vec<String> = name.split("::").map(str::to_owned).collect();
        let shown = format!("src/{}", folder.file.strip_prefix(&src).unwrap().display());
        let facade = facade_problems(&shown, &read(&folder.file));
        let excused = NOT_YET_A_TABLE_OF_CONTENTS.contains(&name.as_str());
        match (facade.is_empty(), excused) {
            (false, false) => problems.extend(facade.iter().cloned()),
            (true, true) => problems.push(format!(
                "{shown} is a table of contents now: take `{name}` off NOT_YET_A_TABLE_OF_CONTENTS"
            )),
            _ => {}
        }
        // Which sub-module imports which, each file counted for the sub-module it is in.
        let mut edges: HashMap<String, Vec<String>> = HashMap::new();
        for child in &folder.children {
            edges.entry(child.clone()).or_default();
        }
        if !facade.is_empty() {
            edges.entry("mod".to_owned()).or_default();
        }
        for file in rust_files(&src) {
            let relative = file.strip_prefix(&src).expect("under src/");
            let path = module_path(relative);
            if file.file_name().is_some_and(|n| n == "tests.rs")
                || path.len() < segments.len()
                || path[..segments.len()] != *segments
            {
                continue;
            }
            let own = match path.get(segments.len()) {
                Some(child) => child.clone(),
                // The folder's own file: its re-exports are its table, not imports.
                None if facade.is_empty() => continue,
                None => "mod".to_owned(),
            };
            let text = read(&file);
            let lines = checked_lines(&text);
            let code: String = lines
                .iter()
                .filter(|(_, c)| own != "mod" || !c.trim_start().starts_with("pub use "))
                .map(|(_, c)| format!("{c}\n"))
                .collect();
            let mut targets = crate_paths(&code, &path);
            if own == "mod" {
                // The folder's own code names its sub-modules without `super::` (`deps::Deps`).
                for child in &folder.children {
                    let needle = format!("{child}::");
                    let named = code.match_indices(&needle).any(|(at, _)| {
                        !code[..at]
                            .chars()
                            .next_back()
                            .is_some_and(|c| is_ident(c) || c == ':')
                    });
                    if named {
                        let mut whole = segments.clone();
                        whole.push(child.clone());
                        targets.push((0, whole));
                    }
                }
            }
            for (_, target) in targets {
                if let Some(to) = child_reached(&target, &segments, &folders)
                    && to != own
                {
                    let targets = edges.entry(own.clone()).or_default();
                    if !targets.contains(&to) {
                        targets.push(to);
                    }
                }
            }
        }
        let layered = layers_of(&edges);
        let excused = NOT_YET_LAYERED.contains(&name.as_str());
        match (layered, excused) {
            (Ok(layers), false) => {
                let shown: Vec<String> = layers.iter().map(|l| l.join(", ")).collect();
                println!("{name}: {}", shown.join(" < "));
            }
            (Ok(_), true) => problems.push(format!(
                "the sub-modules of `{name}` are one-way layers now: take it off NOT_YET_LAYERED"
            )),
            (Err(circle), false) => {
                let ties: Vec<String> = circle
                    .iter()
                    .flat_map(|m| {
                        edges[m]
                            .iter()
                            .filter(|t| circle.contains(t))
                            .map(move |t| format!("{m} -> {t}"))
                    })
                    .collect();
                problems.push(format!(
                    "the sub-modules of `{name}` import each other in a circle: {}",
                    ties.join(", ")
                ));
            }
            (Err(_), true) => {}
        }
    }
    assert!(
        problems.is_empty(),
        "folders that are not tables of contents over one-way layers:\n{}",
        problems.join("\n")
    );
}
