//! Runs every conformance fixture in `spec-fixtures/`.

use a2ui_catalog_mcp::fixtures::run_paths;
use std::path::PathBuf;

/// Cases whose functions land with later issues: they must fail now, and must be removed from
/// this list when they start passing (the test checks both).
const PENDING: &[(&str, &str)] = &[
    (
        "callMcpTool/cached-resource-surface-reused",
        "transformData (issue 3)",
    ),
    ("callMcpTool/arguments-from-call", "transformData (issue 3)"),
    (
        "callMcpTool/scripted-results-sequence",
        "transformData (issue 3)",
    ),
    ("chains/seed-json-issue-list", "transformData (issue 3)"),
    (
        "chains/seed-text-search-results",
        "transformData (issue 3) and regexCapture (issue 4)",
    ),
    (
        "chains/seed-json-issue-list-variant",
        "transformData (issue 3)",
    ),
    (
        "chains/file-listing-tab-separated",
        "transformData (issue 3) and regexCapture (issue 4)",
    ),
    (
        "chains/text-search-crlf-record",
        "transformData (issue 3) and regexCapture (issue 4)",
    ),
    ("chains/structured-content-chain", "transformData (issue 3)"),
    (
        "chains/text-chain-with-ui-resource",
        "transformData (issue 3) and regexCapture (issue 4)",
    ),
    (
        "chains/key-value-lines",
        "transformData (issue 3) and regexCapture (issue 4)",
    ),
    ("chains/target-and-updates", "transformData (issue 3)"),
    ("limits/jmespath-too-long", "transformData (issue 3)"),
    ("limits/jmespath-nesting-ok", "transformData (issue 3)"),
    (
        "limits/regex-pattern-too-long",
        "transformData (issue 3) and regexCapture (issue 4)",
    ),
    (
        "payload-grammar/compile-before-run",
        "transformData (issue 3) and regexCapture (issue 4)",
    ),
    (
        "payload-grammar/errors-stop-outer-calls",
        "transformData (issue 3)",
    ),
    ("split/value-from-tool", "transformData (issue 3)"),
    ("split/nested-failure-propagates", "transformData (issue 3)"),
    (
        "updateDataModel/nested-failure-writes-nothing",
        "transformData (issue 3)",
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
