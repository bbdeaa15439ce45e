//! Runs every conformance fixture in `spec-fixtures/` (the `cases`, `regexCases` and
//! `affectsCases` forms), as `a2ui-mcp fixtures spec-fixtures` does.

use a2ui_catalog_mcp::fixtures::{Outcome, run_text};
use std::path::{Path, PathBuf};

/// The `*.json` files under `dir`, in name order.
fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).expect("the fixture folder is readable") {
            let path = entry.expect("the fixture folder is readable").path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|x| x == "json") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn every_fixture_passes() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("spec-fixtures");
    let mut outcomes: Vec<Outcome> = Vec::new();
    for file in json_files(&dir) {
        let text = std::fs::read_to_string(&file).expect("the fixture files are readable");
        let found = run_text(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        outcomes.extend(found);
    }
    let failed: Vec<String> = outcomes
        .iter()
        .filter(|o| !o.passed())
        .map(|o| format!("{}:\n    {}", o.id, o.failures.join("\n    ")))
        .collect();
    // Every group of the imported reference cases is here: losing a file must not pass silently.
    assert!(outcomes.len() >= 409, "only {} cases found", outcomes.len());
    assert!(
        failed.is_empty(),
        "{} of {} cases failed:\n{}",
        failed.len(),
        outcomes.len(),
        failed.join("\n")
    );
}
