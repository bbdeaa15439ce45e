use super::*;
use crate::path::JsonPointer;
use proptest::prelude::*;
use serde_json::json;
use std::collections::{BTreeSet, HashMap};

fn p(s: &str) -> JsonPointer {
    JsonPointer::parse(s).unwrap()
}

fn sorted<K: Ord>(mut keys: Vec<K>) -> Vec<K> {
    keys.sort();
    keys
}

/// Every case of the reference `affectsCases` group.
#[test]
fn affects_reference_cases() {
    let cases = [
        ("/a", "/a", true),
        ("/a/b", "/a", true),
        ("/a", "/a/b", true),
        ("/a", "/ab", false),
        ("/ab", "/a", false),
        ("/a/b", "/a/c", false),
        ("/", "/x/y", true),
        ("/x/y", "/", true),
        ("/rows/1/name", "/rows", true),
        ("/rows", "/rows/1/name", true),
        ("/rows/1", "/rows/10", false),
        ("/a~1b", "/a", false),
        ("/a/b", "/a~1b", false),
    ];
    for (dependency, change, expected) in cases {
        assert_eq!(
            affects(&p(dependency), &p(change)),
            expected,
            "{dependency} / {change}"
        );
        // The index answers the same.
        let mut index = PathIndex::new();
        index.register((), [p(dependency)]);
        assert_eq!(
            !index.affected_by([&p(change)]).is_empty(),
            expected,
            "index: {dependency} / {change}"
        );
    }
}

#[test]
fn affects_is_symmetric_and_the_root_is_above_all() {
    for (a, b) in [("/a", "/a/b/c"), ("/", "/"), ("/a/", "/a"), ("/~0", "/~1")] {
        assert_eq!(affects(&p(a), &p(b)), affects(&p(b), &p(a)), "{a} {b}");
    }
    assert!(affects(&p("/"), &p("/")));
    // `/a/` is the token "" under `a`: under `/a`, not the same as `/a`.
    assert!(affects(&p("/a/"), &p("/a")));
    assert!(!affects(&p("/a/"), &p("/a/b")));
}

#[test]
fn a_change_set_keeps_write_order_without_duplicates() {
    let mut changes = ChangeSet::new();
    assert!(changes.record(p("/b")));
    assert!(changes.record(p("/a")));
    assert!(!changes.record(p("/b")));
    assert!(changes.record(p("/")));
    assert!(changes.record(p("/a/b")));
    assert_eq!(changes.to_strings(), ["/b", "/a", "/", "/a/b"]);
    assert_eq!(changes.len(), 4);
    assert!(changes.contains(&p("/a")) && !changes.contains(&p("/c")));
    assert_eq!(changes.get(1), Some(&p("/a")));
    assert_eq!(changes.iter().len(), 4);
    let by_value: Vec<JsonPointer> = changes.clone().into_iter().collect();
    assert_eq!(by_value[3], p("/a/b"));
    changes.clear();
    assert!(changes.is_empty());
}

#[test]
fn write_groups_merge_into_one_change_set() {
    let frame: ChangeSet = [p("/x"), p("/y")].into_iter().collect();
    let keystroke: ChangeSet = [p("/query")].into_iter().collect();
    let message: ChangeSet = [p("/y"), p("/results"), p("/x")].into_iter().collect();
    let mut all = ChangeSet::new();
    for group in [frame, keystroke, message] {
        all.merge(group);
    }
    assert_eq!(all.to_strings(), ["/x", "/y", "/query", "/results"]);
    let mut extended = ChangeSet::new();
    extended.extend([p("/x"), p("/x"), p("/y")]);
    assert_eq!(extended.to_strings(), ["/x", "/y"]);
}

#[test]
fn change_sets_compare_in_order() {
    let ab: ChangeSet = [p("/a"), p("/b")].into_iter().collect();
    let ba: ChangeSet = [p("/b"), p("/a")].into_iter().collect();
    assert_ne!(ab, ba);
    assert_eq!(ab, ab.clone());
}

#[test]
fn removing_an_array_element_changes_the_array() {
    let model = json!({"rows": [{"name": "a"}, {"name": "b"}], "user": {"nick": "x"}});
    let mut changes = ChangeSet::new();
    changes.record_removal_in(&model, p("/rows/0"));
    changes.record_removal_in(&model, p("/user/nick"));
    // A member of an element is a member of an object.
    changes.record_removal_in(&model, p("/rows/1/name"));
    // Nothing there: a member of a missing parent.
    changes.record_removal_in(&model, p("/gone/x"));
    changes.record_removal_in(&model, p("/"));
    assert_eq!(
        changes.to_strings(),
        ["/rows", "/user/nick", "/rows/1/name", "/gone/x", "/"]
    );
    let mut direct = ChangeSet::new();
    direct.record_removal(p("/"), true);
    direct.record_removal(p("/0"), true);
    assert_eq!(direct.to_strings(), ["/"]);
}

#[test]
fn a_big_change_set_merges_in_linear_time() {
    let mut a = ChangeSet::new();
    for i in 0..100_000 {
        a.record(p(&format!("/rows/{i}/name")));
    }
    let b: ChangeSet = (0..100_000)
        .rev()
        .map(|i| p(&format!("/rows/{i}/name")))
        .collect();
    a.merge(b);
    assert_eq!(a.len(), 100_000);
    assert_eq!(a.get(0), Some(&p("/rows/0/name")));
}

fn rows_index(n: usize) -> PathIndex<String> {
    let mut index = PathIndex::new();
    for i in 0..n {
        index.register(format!("row {i}"), [p(&format!("/rows/{i}/name"))]);
    }
    index.register("list".to_string(), [p("/rows")]);
    index.register("all".to_string(), [p("/")]);
    index.register("other".to_string(), [p("/title")]);
    index
}

#[test]
fn exact_ancestor_and_descendant_keys_are_affected() {
    let index = rows_index(20);
    assert_eq!(
        sorted(index.affected_by([&p("/rows/7/name")])),
        ["all", "list", "row 7"]
    );
    // A row replaced: its name is under it.
    assert_eq!(
        sorted(index.affected_by([&p("/rows/7")])),
        ["all", "list", "row 7"]
    );
    // Deeper than anything registered: ancestors only.
    assert_eq!(
        sorted(index.affected_by([&p("/rows/7/name/first")])),
        ["all", "list", "row 7"]
    );
    assert_eq!(index.affected_by([&p("/")]).len(), 23);
    assert_eq!(index.affected_by([&p("/rows")]).len(), 22);
    assert_eq!(sorted(index.affected_by([&p("/title")])), ["all", "other"]);
    assert_eq!(sorted(index.affected_by([&p("/rowsx")])), ["all"]);
    assert_eq!(index.affected_by(&[] as &[JsonPointer]).len(), 0);
}

#[test]
fn overlapping_changes_report_each_key_once_in_any_order() {
    let index = rows_index(10);
    let groups = [
        vec!["/", "/rows", "/rows/3/name"],
        vec!["/rows/3/name", "/rows", "/"],
        vec!["/rows/3/name", "/rows/3", "/rows/3/name/x", "/rows/4/name"],
        vec!["/rows/4/name", "/rows/4/name", "/title", "/rows/0"],
    ];
    for group in groups {
        let changes: Vec<JsonPointer> = group.iter().map(|s| p(s)).collect();
        let keys = index.affected_by(&changes);
        let unique: BTreeSet<&String> = keys.iter().collect();
        assert_eq!(unique.len(), keys.len(), "{group:?}: {keys:?}");
        let expected: BTreeSet<String> = brute(&index_registrations(10), &changes);
        assert_eq!(
            unique.into_iter().cloned().collect::<BTreeSet<_>>(),
            expected,
            "{group:?}"
        );
    }
}

fn index_registrations(n: usize) -> HashMap<String, Vec<JsonPointer>> {
    let mut map: HashMap<String, Vec<JsonPointer>> = (0..n)
        .map(|i| (format!("row {i}"), vec![p(&format!("/rows/{i}/name"))]))
        .collect();
    map.insert("list".into(), vec![p("/rows")]);
    map.insert("all".into(), vec![p("/")]);
    map.insert("other".into(), vec![p("/title")]);
    map
}

fn brute<K: Clone + Ord>(
    registered: &HashMap<K, Vec<JsonPointer>>,
    changes: &[JsonPointer],
) -> BTreeSet<K> {
    registered
        .iter()
        .filter(|(_, deps)| deps.iter().any(|d| changes.iter().any(|c| affects(d, c))))
        .map(|(k, _)| k.clone())
        .collect()
}

#[test]
fn a_key_with_many_paths_is_reported_once() {
    let mut index = PathIndex::new();
    let deps: Vec<JsonPointer> = (0..5_000)
        .map(|i| p(&format!("/items/{i}/title")))
        .chain([p("/"), p("/items"), p("/items/3/title")])
        .collect();
    index.register("many", &deps);
    index.register("one", [p("/items/3/title")]);
    assert_eq!(index.dependencies_of("many").unwrap().len(), deps.len());
    assert_eq!(sorted(index.affected_by([&p("/items")])), ["many", "one"]);
    assert_eq!(index.affected_by([&p("/")]).len(), 2);
    assert_eq!(index.affected_by([&p("/items/9/title")]), ["many"]);
    let everything: Vec<JsonPointer> = (0..5_000).map(|i| p(&format!("/items/{i}"))).collect();
    assert_eq!(sorted(index.affected_by(&everything)), ["many", "one"]);
    index.unregister("many");
    assert_eq!(index.affected_by([&p("/")]), ["one"]);
    assert_eq!(index.live_nodes(), 4);
}

#[test]
fn registering_again_replaces_and_unregistering_prunes() {
    let mut index = PathIndex::new();
    index.register(1u64, [p("/a/b/c"), p("/a/x")]);
    index.register(2u64, [p("/a/b")]);
    assert_eq!(index.live_nodes(), 5);
    index.register(1u64, [p("/z")]);
    assert_eq!(index.dependencies_of(&1).unwrap(), [p("/z")]);
    assert!(index.affected_by([&p("/a/b/c")]) == [2]);
    assert_eq!(index.live_nodes(), 4);
    assert!(!index.unregister(&7));
    assert!(index.unregister(&2));
    assert!(!index.unregister(&2));
    assert_eq!(index.live_nodes(), 2);
    assert_eq!(index.len(), 1);
    assert!(index.contains_key(&1) && !index.contains_key(&2));
    // Freed nodes and slots are reused.
    index.register(3u64, [p("/q/r")]);
    assert_eq!(index.live_nodes(), 4);
    assert_eq!(sorted(index.affected_by([&p("/")])), [1, 3]);
    index.unregister(&1);
    index.unregister(&3);
    assert!(index.is_empty());
    assert_eq!(index.live_nodes(), 1);
    assert!(index.affected_by([&p("/")]).is_empty());
    // No dependencies: registered, never affected.
    index.register(4u64, Vec::<JsonPointer>::new());
    assert!(index.contains_key(&4) && index.affected_by([&p("/")]).is_empty());
}

#[test]
fn the_same_path_twice_counts_twice() {
    let mut index = PathIndex::new();
    index.register("k", [p("/a"), p("/a")]);
    index.register("j", [p("/a")]);
    assert_eq!(sorted(index.affected_by([&p("/a")])), ["j", "k"]);
    index.unregister("k");
    assert_eq!(index.affected_by([&p("/a")]), ["j"]);
    assert_eq!(index.live_nodes(), 2);
}

#[test]
fn deep_paths_and_big_change_sets_do_not_recurse_or_go_quadratic() {
    let deep = |n: usize, leaf: &str| {
        JsonPointer::from_tokens((0..n).map(|i| format!("t{i}")).chain([leaf.to_string()]))
    };
    let mut index = PathIndex::new();
    // 128 tokens deep, and far deeper than any stack would take by recursion.
    index.register("deep", [deep(127, "end")]);
    index.register("very deep", [deep(200_000, "end")]);
    assert_eq!(index.affected_by([&deep(127, "end")]), ["deep"]);
    assert_eq!(index.affected_by([&deep(60, "x")]), Vec::<&str>::new());
    assert_eq!(
        sorted(index.affected_by([&deep(60, "t60")])),
        ["deep", "very deep"]
    );
    assert_eq!(index.affected_by([&deep(150_000, "x")]), Vec::<&str>::new());
    assert_eq!(index.affected_by([&deep(200_000, "end")]), ["very deep"]);
    index.unregister("very deep");
    assert_eq!(index.live_nodes(), 129);

    // 100 000 rows, 100 000 changes, and keys on every ancestor.
    let mut index = PathIndex::new();
    for i in 0..100_000u32 {
        index.register(i, [p(&format!("/rows/{i}/name"))]);
    }
    for k in 0..100u32 {
        index.register(1_000_000 + k, [p("/rows")]);
        index.register(2_000_000 + k, [p("/")]);
    }
    let changes: ChangeSet = (0..100_000)
        .map(|i| p(&format!("/rows/{i}/name")))
        .collect();
    let keys = index.affected(&changes);
    assert_eq!(keys.len(), 100_200);
    let unique: std::collections::HashSet<u32> = keys.into_iter().collect();
    assert_eq!(unique.len(), 100_200);
}

/// A small token alphabet so that random paths share prefixes, with the tricky cases: a
/// token that is a prefix of another, an escaped `/`, the empty token, indexes.
fn token() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["a", "ab", "a/b", "", "0", "1", "10", "b"]).prop_map(String::from)
}

fn pointer() -> impl Strategy<Value = JsonPointer> {
    prop::collection::vec(token(), 0..5).prop_map(JsonPointer::from_tokens)
}

#[derive(Debug, Clone)]
enum Op {
    Register(u8, Vec<JsonPointer>),
    Unregister(u8),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (0u8..24, prop::collection::vec(pointer(), 0..4)).prop_map(|(k, d)| Op::Register(k, d)),
        1 => (0u8..24).prop_map(Op::Unregister),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn affected_matches_a_brute_force_scan(
        ops in prop::collection::vec(op(), 0..60),
        changes in prop::collection::vec(pointer(), 0..6),
    ) {
        let mut index = PathIndex::new();
        let mut model: HashMap<u8, Vec<JsonPointer>> = HashMap::new();
        for op in ops {
            match op {
                Op::Register(k, deps) => {
                    index.register(k, &deps);
                    model.insert(k, deps);
                }
                Op::Unregister(k) => {
                    prop_assert_eq!(index.unregister(&k), model.remove(&k).is_some());
                }
            }
        }
        let keys = index.affected_by(&changes);
        let unique: BTreeSet<u8> = keys.iter().copied().collect();
        prop_assert_eq!(unique.len(), keys.len(), "duplicates in {:?}", keys);
        prop_assert_eq!(unique, brute(&model, &changes));
        // The same through a change set (deduplicated, in order).
        let set: ChangeSet = changes.iter().cloned().collect();
        let via_set: BTreeSet<u8> = index.affected(&set).into_iter().collect();
        prop_assert_eq!(via_set, brute(&model, &changes));
        for (k, deps) in &model {
            prop_assert_eq!(index.dependencies_of(k), Some(deps.clone()));
        }
        // Unregistering everything leaves only the root.
        for k in model.keys() {
            index.unregister(k);
        }
        prop_assert_eq!(index.live_nodes(), 1);
    }
}
