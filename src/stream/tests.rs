use super::*;
use crate::error::Error;
use serde_json::{Value, json};

fn err(message: Value) -> Error {
    parse_message(&message).unwrap_err()
}

#[test]
fn both_version_strings_are_v1() {
    for v in ["v1.0", "1.0"] {
        let m = parse_message(&json!({"version": v, "deleteSurface": {"surfaceId": "s"}})).unwrap();
        assert_eq!(m.version, Some(Version::V1_0));
    }
    let e = err(json!({"version": "v99.0", "createSurface": {"surfaceId": "s"}}));
    assert_eq!(
        (e.category(), e.location()),
        (Category::Validation, "/version")
    );
    assert!(
        e.message()
            .starts_with("Unsupported protocol version 'v99.0'")
    );
}

#[test]
fn malformed_messages_are_located_errors() {
    let two = err(
        json!({"version": "v1.0", "createSurface": {"surfaceId": "s"}, "deleteSurface": {"surfaceId": "s"}}),
    );
    assert!(
        two.message()
            .starts_with("Message contains multiple conflicting update actions")
    );
    let id = err(json!({"version": "v1.0", "createSurface": {"surfaceId": 12345}}));
    assert_eq!(id.location(), "/createSurface/surfaceId");
    assert!(id.message().starts_with("surfaceId must be a string"));
    assert_eq!(err(json!([1])).location(), "");
    assert_eq!(err(json!({})).category(), Category::Validation);
    let no_id = err(json!({"version": "v1.0", "updateDataModel": {"value": 1}}));
    assert_eq!(no_id.message(), "updateDataModel needs a 'surfaceId'");
    let old = err(json!({"version": "v1.0", "beginRendering": {"surfaceId": "s"}}));
    assert!(
        old.message()
            .starts_with("action 'beginRendering' is not supported in protocol version v1.0")
    );
    let body = err(json!({"updateComponents": "x"}));
    assert_eq!(body.location(), "/updateComponents");
    let component = err(
        json!({"updateComponents": {"surfaceId": "s", "components": [{"id": "a", "component": "Text"}, {"id": 3}]}}),
    );
    assert_eq!(component.location(), "/updateComponents/components/1/id");
    let both = err(
        json!({"updateComponents": {"surfaceId": "s", "components": [{"id": "a", "component": "Text", "catalogId": "x", "@catalogId": "y"}]}}),
    );
    assert!(both.message().contains("not both"), "{both}");
}

#[test]
fn envelope_keys_in_both_spellings() {
    let m = parse_message(&json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [
        {"id": "a", "component": "TextField", "@accessibility": {"label": "l"}, "checks": [], "@metadata": {}, "value": "x"},
        {"id": "b", "component": "Text", "accessibility": {"label": "m"}, "@checks": [], "catalogId": "c"}
    ]}})).unwrap();
    let Body::UpdateComponents(u) = m.body else {
        panic!()
    };
    assert_eq!(u.components[0].accessibility, Some(json!({"label": "l"})));
    assert!(u.components[0].checks.is_some() && u.components[0].metadata.is_some());
    assert_eq!(u.components[0].props.keys().collect::<Vec<_>>(), ["value"]);
    assert_eq!(u.components[1].catalog_id.as_deref(), Some("c"));
    assert!(u.components[1].checks.is_some());
    assert!(u.components[1].props.is_empty());
}

#[test]
fn create_surface_inline_and_metadata() {
    let m = parse_message(
        &json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "sendDataModel": true,
        "components": [{"id": "root", "component": "Text", "text": "x"}], "dataModel": {"a": 1},
        "metadata": {"extensions": {"a2ui_experimental": {}}}}}),
    )
    .unwrap();
    let Body::CreateSurface(c) = m.body else {
        panic!()
    };
    assert!(c.send_data_model && c.catalog_id.is_none());
    assert_eq!(
        c.components.unwrap()[0].pointer,
        "/createSurface/components/0"
    );
    assert_eq!(c.data_model, Some(json!({"a": 1})));
    let key = err(
        json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "metadata": {"extensions": {"a2ui:x": {}}}}}),
    );
    assert_eq!(key.location(), "/createSurface/metadata/extensions/a2ui:x");
    let other = err(
        json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "metadata": {"owner": "me"}}}),
    );
    assert_eq!(other.location(), "/createSurface/metadata/owner");
}

#[test]
fn data_model_updates_by_version() {
    let read = |m: Value| match parse_message(&m).unwrap().body {
        Body::UpdateDataModel(u) => u,
        _ => panic!(),
    };
    // v1.0: null removes, value is required.
    assert_eq!(read(json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "/a", "value": null}})).value, None);
    assert!(
        parse_message(&json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s"}})).is_err()
    );
    // v0.9: no value removes, null is written.
    assert_eq!(
        read(json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "path": "/a"}})).value,
        None
    );
    assert_eq!(
        read(json!({"version": "v0.9", "updateDataModel": {"surfaceId": "s", "value": null}}))
            .value,
        Some(Value::Null)
    );
    assert!(
        read(json!({"updateDataModel": {"surfaceId": "s"}}))
            .path
            .is_root()
    );
    let e = err(json!({"updateDataModel": {"surfaceId": "s", "path": "a"}}));
    assert_eq!(e.location(), "/updateDataModel/path");
}

#[test]
fn function_call_messages_both_ways() {
    for key in ["callRendererFunction", "callFunction"] {
        let m = parse_message(
            &json!({"version": "v1.0", key: {"functionCallId": "f1", "@call": "x", "args": {}}}),
        )
        .unwrap();
        assert_eq!(m.kind(), "callRendererFunction");
        let Body::CallRendererFunction(c) = m.body else {
            panic!()
        };
        assert_eq!(c.function_call_id.as_deref(), Some("f1"));
    }
    let older =
        parse_message(&json!({"functionCallId": "f2", "callFunction": {"call": "x"}})).unwrap();
    let Body::CallRendererFunction(c) = older.body else {
        panic!()
    };
    assert_eq!(c.function_call_id.as_deref(), Some("f2"));
    for key in ["agentFunctionResponse", "actionResponse"] {
        assert_eq!(
            parse_message(&json!({key: {"value": 1}})).unwrap().kind(),
            "agentFunctionResponse"
        );
    }
    for key in RENDERER_TO_AGENT {
        let m = parse_message(&json!({"version": "v1.0", key: {"surfaceId": "s"}})).unwrap();
        assert_eq!((m.kind(), m.surface_id()), (key, Some("s")));
    }
}

#[test]
fn containers() {
    let one = json!({"version": "v1.0", "deleteSurface": {"surfaceId": "s"}});
    assert_eq!(messages_of(&one).len(), 1);
    assert_eq!(messages_of(&json!([one, one])).len(), 2);
    assert_eq!(messages_of(&json!({"messages": [one]}))[0].0, "/messages/0");
    let gallery = json!({"name": "n", "description": "d", "messages": [one, one, one]});
    assert_eq!(messages_of(&gallery).len(), 3);
    // An object with other keys than a container's is a message (a bad one, here).
    assert_eq!(messages_of(&json!({"messages": [], "other": 1})).len(), 1);
}

#[test]
fn a_v1_component_metadata_holds_only_extensions_with_identifier_keys() {
    let create = |c: Value| json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "components": [c]}});
    let ok =
        json!({"id": "c", "component": "Text", "metadata": {"extensions": {"vendor": {"tag": 1}}}});
    assert!(parse_message(&create(ok)).is_ok());
    let e = parse_message(&create(
        json!({"id": "c", "component": "Text", "metadata": {"owner": "me"}}),
    ))
    .unwrap_err();
    assert_eq!(e.location(), "/createSurface/components/0/metadata/owner");
    let e = parse_message(&json!({"version": "v1.0", "updateComponents": {"surfaceId": "s",
        "components": [{"id": "c", "component": "Text", "@metadata": {"extensions": {"bad-key": 1}}}]}}))
    .unwrap_err();
    assert_eq!(
        e.location(),
        "/updateComponents/components/0/@metadata/extensions/bad-key"
    );
    // Before v1.0 a component's metadata is not judged.
    assert!(
        parse_message(&json!({"updateComponents": {"surfaceId": "s",
        "components": [{"id": "c", "component": "Text", "metadata": {"owner": "me"}}]}}))
        .is_ok()
    );
}

/// Issue 34, item 6: v1.0's schema closes each body; a key it does not name was applied
/// without a word. v0.9 bodies are read as before.
#[test]
fn unknown_keys_of_v1_bodies_are_located_errors() {
    for (message, pointer) in [
        (
            json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [], "extra": 1}}),
            "/updateComponents/extra",
        ),
        (
            json!({"version": "1.0", "updateDataModel": {"surfaceId": "s", "value": 1, "datamodel": {}}}),
            "/updateDataModel/datamodel",
        ),
        (
            json!({"version": "v1.0", "deleteSurface": {"surfaceId": "s", "now": true}}),
            "/deleteSurface/now",
        ),
        (
            json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "c", "datamodel": {}}}),
            "/createSurface/datamodel",
        ),
    ] {
        let e = err(message);
        assert_eq!(e.category(), Category::Validation);
        assert_eq!(e.location(), pointer);
        assert!(e.message().contains("has no key"), "{e}");
    }
    assert!(
        parse_message(&json!({"version": "v0.9", "updateComponents": {"surfaceId": "s", "components": [], "extra": 1}}))
            .is_ok()
    );
}
