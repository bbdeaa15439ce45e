//! Runs every conformance fixture in `spec-fixtures/` (both the `cases` and the `regexCases`
//! form), as `a2ui-mcp fixtures spec-fixtures` does.

use a2ui_catalog_mcp::fixtures::run_paths;
use std::path::PathBuf;

#[test]
fn every_fixture_passes() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("spec-fixtures");
    let outcomes = run_paths(&[dir]).expect("the fixture files are readable");
    let failed: Vec<String> = outcomes
        .iter()
        .filter(|o| !o.passed())
        .map(|o| format!("{}:\n    {}", o.id, o.failures.join("\n    ")))
        .collect();
    // Every group of ../shared/reference-cases is here: losing a file must not pass silently.
    assert!(outcomes.len() >= 316, "only {} cases found", outcomes.len());
    assert!(
        failed.is_empty(),
        "{} of {} cases failed:\n{}",
        failed.len(),
        outcomes.len(),
        failed.join("\n")
    );
}
