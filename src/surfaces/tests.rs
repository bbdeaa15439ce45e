use super::graph::slot_pointer;
use super::schema::{Kind, check_prop, children_of, read_components};
use super::*;

#[test]
fn slots_become_pointers() {
    assert_eq!(slot_pointer("children[2]"), "children/2");
    assert_eq!(slot_pointer("tabs[0].child"), "tabs/0/child");
    assert_eq!(slot_pointer("child"), "child");
}

#[test]
fn schemas_are_read_from_the_forms_catalogs_use() {
    let types = read_components(
        json!({
            "Tabs": {"allOf": [{"$ref": "common_types.json#/$defs/Checkable"}, {"properties": {
                "component": {"const": "Tabs"},
                "tabs": {"type": "array", "items": {"type": "object", "properties": {"child": {"$ref": "common_types.json#/$defs/Child"}}}},
                "size": {"type": "integer"},
                "mode": {"enum": ["a", "b"]},
                "when": {"allOf": [{"$ref": "common_types.json#/$defs/DynamicString"}, {"if": {}}]}
            }, "required": ["component", "tabs"]}]}
        })
        .as_object()
        .unwrap(),
    )
    .unwrap();
    let tabs = &types["Tabs"];
    assert!(tabs.checkable);
    assert_eq!(tabs.required, ["tabs"]);
    assert_eq!(tabs.props["tabs"], Kind::ChildArray("child".into()));
    assert_eq!(tabs.props["when"], Kind::DynString);
    assert!(check_prop("/x", "Tabs", "size", &tabs.props["size"], &json!(1.5)).is_err());
    assert!(check_prop("/x", "Tabs", "size", &tabs.props["size"], &json!(2)).is_ok());
    assert!(check_prop("/x", "Tabs", "mode", &tabs.props["mode"], &json!("c")).is_err());
    assert!(
        check_prop(
            "/x",
            "Tabs",
            "when",
            &tabs.props["when"],
            &json!({"path": "/w"})
        )
        .is_ok()
    );
    let props = json!({"tabs": [{"child": "a"}, {"child": "b"}]});
    let children = children_of(props.as_object().unwrap(), Some(tabs));
    assert_eq!(
        children[1],
        ("b".to_owned(), "tabs[1].child".to_owned(), false)
    );
}

#[test]
fn catalogs_by_version_and_capabilities() {
    let mut p = Processor::new(ProcessorOptions::default());
    p.register_catalog(&json!({"catalogId": "ten", "protocolVersion": "v1.0", "components": {}}))
        .unwrap();
    p.register_catalog(&json!({"catalogId": "nine", "protocolVersion": "v0.9", "components": {}}))
        .unwrap();
    let v1 = p.supported_catalog_ids(Version::V1_0);
    assert!(v1.contains(&"ten") && !v1.contains(&"nine") && v1.contains(&crate::MCP_CATALOG_ID));
    p.process(&json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "ten", "sendDataModel": true, "dataModel": {"a": 1}}}))
        .unwrap();
    assert_eq!(
        p.data_models(Version::V1_0),
        Some(json!({"version": "v1.0", "surfaces": {"s": {"a": 1}}}))
    );
    assert_eq!(p.data_models(Version::V0_9), None);
    // A component naming a catalog of another protocol version.
    let err = p
        .process(
            &json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [
            {"id": "root", "component": "X", "catalogId": "nine"}]}}),
        )
        .unwrap_err();
    assert_eq!(err.error.category, Category::Catalog);
    assert_eq!(
        err.error.pointer,
        "/updateComponents/components/0/catalogId"
    );
}
