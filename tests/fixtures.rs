//! Runs every conformance fixture in `spec-fixtures/`.

use a2ui_catalog_mcp::fixtures::run_paths;
use std::path::PathBuf;

/// Cases whose functions land with later issues: they must fail now, and must be removed from
/// this list when they start passing (the test checks both).
const PENDING: &[(&str, &str)] = &[
    ("chains/seed-text-search-results", "regexCapture (issue 4)"),
    (
        "chains/file-listing-tab-separated",
        "regexCapture (issue 4)",
    ),
    ("chains/text-search-crlf-record", "regexCapture (issue 4)"),
    (
        "chains/text-chain-with-ui-resource",
        "regexCapture (issue 4)",
    ),
    ("chains/key-value-lines", "regexCapture (issue 4)"),
    ("limits/regex-pattern-too-long", "regexCapture (issue 4)"),
    (
        "payload-grammar/compile-before-run",
        "regexCapture (issue 4)",
    ),
];

#[test]
fn every_fixture_passes() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("spec-fixtures");
    let outcomes = run_paths(&[dir]).expect("the fixture files are readable");
    let pending = |id: &str| PENDING.iter().any(|(p, _)| *p == id);
    let failed: Vec<String> = outcomes
        .iter()
        .filter(|o| !o.passed() && !pending(&o.id))
        .map(|o| format!("{}:\n    {}", o.id, o.failures.join("\n    ")))
        .collect();
    let now_passing: Vec<&str> = outcomes
        .iter()
        .filter(|o| o.passed() && pending(&o.id))
        .map(|o| o.id.as_str())
        .collect();
    let missing: Vec<&str> = PENDING
        .iter()
        .map(|(p, _)| *p)
        .filter(|p| !outcomes.iter().any(|o| o.id == *p))
        .collect();
    assert!(outcomes.len() >= 98, "only {} cases found", outcomes.len());
    assert!(
        failed.is_empty(),
        "{} of {} cases failed:\n{}",
        failed.len(),
        outcomes.len(),
        failed.join("\n")
    );
    assert!(
        now_passing.is_empty(),
        "these pending cases pass now; remove them from PENDING: {now_passing:?}"
    );
    assert!(
        missing.is_empty(),
        "these PENDING ids are not fixtures: {missing:?}"
    );
}
