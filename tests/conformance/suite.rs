//! Reading the A2UI conformance suite (`tests/a2ui-conformance/`, vendored with its licence) and
//! counting its cases. Each runner module maps the cases of its actions onto the crate's public
//! API; this module only loads files and keeps the tally.

use serde_json::Value;
use std::path::PathBuf;

/// The vendored suite's folder.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/a2ui-conformance")
}

/// The cases of one suite file (relative to `conformance/`), as JSON values.
pub fn load(file: &str) -> Vec<Value> {
    let path = root().join("conformance").join(file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let value: Value = serde_yaml_ng::from_str(&text)
        .unwrap_or_else(|e| panic!("{} is not YAML: {e}", path.display()));
    match value {
        Value::Array(cases) => cases,
        other => panic!(
            "{}: a suite file is a list of cases, got {other}",
            path.display()
        ),
    }
}

/// What one case came to.
pub enum Outcome {
    Passed,
    /// A difference, described.
    Failed(String),
    /// Not run, with the written reason (a case about another SDK's own object model, say).
    Skipped(&'static str),
}

/// The counts of one suite file. [`Tally::finish`] prints `N passed, M failed, K skipped` and
/// fails the test when a case failed.
pub struct Tally {
    file: String,
    passed: usize,
    failures: Vec<String>,
    skipped: Vec<(String, &'static str)>,
}

impl Tally {
    pub fn new(file: &str) -> Self {
        Tally {
            file: file.to_owned(),
            passed: 0,
            failures: Vec::new(),
            skipped: Vec::new(),
        }
    }

    pub fn record(&mut self, case: &Value, outcome: Outcome) {
        let name = case
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("(unnamed)")
            .to_owned();
        match outcome {
            Outcome::Passed => self.passed += 1,
            Outcome::Failed(why) => self.failures.push(format!("{name}: {why}")),
            Outcome::Skipped(reason) => self.skipped.push((name, reason)),
        }
    }

    /// Runs `run` on every case of the file and finishes the tally.
    pub fn run_file(file: &str, mut run: impl FnMut(&Value) -> Outcome) {
        let mut tally = Tally::new(file);
        for case in load(file) {
            let outcome = run(&case);
            tally.record(&case, outcome);
        }
        tally.finish();
    }

    pub fn finish(self) {
        println!(
            "conformance {}: {} passed, {} failed, {} skipped",
            self.file,
            self.passed,
            self.failures.len(),
            self.skipped.len()
        );
        for (name, reason) in &self.skipped {
            println!("  skipped {name}: {reason}");
        }
        assert!(
            self.failures.is_empty(),
            "{}: {} case(s) failed:\n{}",
            self.file,
            self.failures.len(),
            self.failures.join("\n")
        );
    }
}

/// `value` with v1.0 spelled one way: the `"v1.0"` key of a capabilities object and the
/// `"version": "v1.0"` of a message read as the published `"1.0"`. The suite's cases predate
/// the published `"1.0"` (docs/conformance.md), and the crate writes it.
pub fn same_version_keys(value: &Value) -> Value {
    let canonical = |v: &str| {
        a2ui_catalog_mcp::stream::Version::parse(v)
            .map_or_else(|| v.to_owned(), |v| v.as_str().to_owned())
    };
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| match (k.as_str(), v) {
                    ("version", Value::String(s)) => (k.clone(), Value::String(canonical(s))),
                    _ if a2ui_catalog_mcp::stream::Version::parse(k).is_some() => {
                        (canonical(k), v.clone())
                    }
                    _ => (k.clone(), v.clone()),
                })
                .collect(),
        ),
        other => other.clone(),
    }
}
