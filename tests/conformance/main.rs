//! The A2UI project's conformance suite, run through the crate's public API.
//!
//! Each test reads one file of `tests/a2ui-conformance/conformance/`, runs every case it can map
//! onto the crate and prints `N passed, M failed, K skipped` (see them with
//! `cargo test --all-features --test conformance -- --nocapture`). Every skip carries its
//! reason; a failed case fails the test.

mod actions;
mod common_types;
mod data_model;
mod multi_catalog;
mod node_resolution;
mod processor;
mod rpc;
// Not every runner uses every helper of the tally.
#[allow(dead_code)]
mod suite;

mod mcp_catalog;

#[test]
fn message_processor_v1_0() {
    suite::Tally::run_file("core/message_processor_v1_0.yaml", |case| {
        processor::run(case, true)
    });
}

#[test]
fn validator_v1_0() {
    suite::Tally::run_file("core/validator_v1_0.yaml", |case| {
        processor::run(case, true)
    });
}

#[test]
fn data_deletion() {
    suite::Tally::run_file("core/data_deletion.yaml", |case| processor::run(case, true));
}

#[test]
fn suites_data_model() {
    suite::Tally::run_file("suites/data_model.yaml", data_model::run_listeners);
}

#[test]
fn data_model_pointers() {
    suite::Tally::run_file("core/data_model_pointers.yaml", |case| {
        processor::run(case, true)
    });
}

#[test]
fn reserved_keys() {
    suite::Tally::run_file("core/reserved_keys.yaml", |case| processor::run(case, true));
}

#[test]
fn actions() {
    suite::Tally::run_file("core/actions.yaml", actions::run);
}

#[test]
fn common_types() {
    suite::Tally::run_file("core/common_types.yaml", common_types::run);
}

#[test]
fn data_model() {
    suite::Tally::run_file("core/data_model.yaml", data_model::run);
}

#[test]
fn multi_catalog() {
    suite::Tally::run_file("core/multi_catalog.yaml", multi_catalog::run);
}

#[test]
fn rpc_functions() {
    suite::Tally::run_file("core/rpc_functions.yaml", rpc::run);
}

#[test]
fn node_resolution() {
    suite::Tally::run_file("core/node_resolution.yaml", node_resolution::run);
}

#[test]
fn message_processor() {
    suite::Tally::run_file("core/message_processor.yaml", |case| {
        processor::run(case, false)
    });
}

#[cfg(feature = "basic-catalog")]
mod basic;
#[cfg(feature = "basic-catalog")]
mod catalog;

#[cfg(feature = "basic-catalog")]
#[test]
fn catalog() {
    suite::Tally::run_file("core/catalog.yaml", catalog::run);
}

/// Every vendored suite file reads as a list of named cases with an action: a truncated or
/// mangled copy fails here rather than as a runner's skip.
#[test]
fn every_suite_file_reads() {
    let mut files = Vec::new();
    for dir in ["core", "suites"] {
        for entry in std::fs::read_dir(suite::root().join("conformance").join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|x| x == "yaml") {
                files.push(format!(
                    "{dir}/{}",
                    path.file_name().unwrap().to_str().unwrap()
                ));
            }
        }
    }
    files.sort();
    assert!(files.len() >= 18, "suite files: {files:?}");
    for file in files {
        let cases = suite::load(&file);
        for case in &cases {
            assert!(
                case.get("name").and_then(|n| n.as_str()).is_some(),
                "{file}: a case without a name"
            );
        }
    }
}
