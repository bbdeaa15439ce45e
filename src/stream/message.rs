//! One message, read: what it carries, typed, each part with its pointer in the message.

use super::version::Version;
use crate::path::JsonPointer;
use serde_json::{Map, Value};

/// The message keys of the agent-to-renderer direction, newest names first.
pub const AGENT_TO_RENDERER: [&str; 8] = [
    "createSurface",
    "updateComponents",
    "updateDataModel",
    "deleteSurface",
    "callRendererFunction",
    "agentFunctionResponse",
    "callFunction",
    "actionResponse",
];

/// The message keys of the renderer-to-agent direction.
pub const RENDERER_TO_AGENT: [&str; 4] = [
    "action",
    "error",
    "callAgentFunction",
    "rendererFunctionResponse",
];

/// The v0.8 message keys, named in the error that rejects them.
pub(super) const V0_8_KEYS: [&str; 4] = [
    "beginRendering",
    "surfaceUpdate",
    "dataModelUpdate",
    "userAction",
];

/// One message, read.
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    /// Its `version`, when it has one.
    pub version: Option<Version>,
    /// What it carries.
    pub body: Body,
}

impl Message {
    /// The message's version, v0.9 when it has none.
    pub fn version_or_default(&self) -> Version {
        self.version.unwrap_or(Version::V0_9)
    }

    /// The surface the message is about, when it names one.
    pub fn surface_id(&self) -> Option<&str> {
        match &self.body {
            Body::CreateSurface(m) => Some(&m.surface_id),
            Body::UpdateComponents(m) => Some(&m.surface_id),
            Body::UpdateDataModel(m) => Some(&m.surface_id),
            Body::DeleteSurface { surface_id } => Some(surface_id),
            Body::RendererToAgent { body, .. } => body.get("surfaceId").and_then(Value::as_str),
            Body::CallRendererFunction(_) | Body::AgentFunctionResponse(_) => None,
        }
    }

    /// The message key (`"createSurface"`…, the newest name for the renamed ones).
    pub fn kind(&self) -> &str {
        match &self.body {
            Body::CreateSurface(_) => "createSurface",
            Body::UpdateComponents(_) => "updateComponents",
            Body::UpdateDataModel(_) => "updateDataModel",
            Body::DeleteSurface { .. } => "deleteSurface",
            Body::CallRendererFunction(_) => "callRendererFunction",
            Body::AgentFunctionResponse(_) => "agentFunctionResponse",
            Body::RendererToAgent { kind, .. } => kind,
        }
    }
}

/// What a message carries.
#[derive(Debug, Clone, PartialEq)]
pub enum Body {
    /// `createSurface`.
    CreateSurface(CreateSurface),
    /// `updateComponents`.
    UpdateComponents(UpdateComponents),
    /// `updateDataModel`.
    UpdateDataModel(UpdateDataModel),
    /// `deleteSurface`.
    DeleteSurface {
        /// The surface.
        surface_id: String,
    },
    /// `callRendererFunction` (older name `callFunction`): the agent calls a renderer function.
    CallRendererFunction(FunctionCallMessage),
    /// `agentFunctionResponse` (older name `actionResponse`): the agent answers, kept as sent.
    AgentFunctionResponse(Value),
    /// A renderer-to-agent message (`action`, `error`, `callAgentFunction`,
    /// `rendererFunctionResponse`), its body an object, kept as sent.
    RendererToAgent {
        /// The message key.
        kind: String,
        /// The body.
        body: Map<String, Value>,
    },
}

/// `createSurface`.
#[derive(Debug, Clone, PartialEq)]
pub struct CreateSurface {
    /// The new surface.
    pub surface_id: String,
    /// Its default catalog (required before v1.0; optional in v1.0).
    pub catalog_id: Option<String>,
    /// `theme`, as sent.
    pub theme: Option<Value>,
    /// Whether the renderer attaches the data model to the actions it sends.
    pub send_data_model: bool,
    /// `metadata`, as sent (v1.0: only `extensions`, whose keys are identifiers).
    pub metadata: Option<Value>,
    /// v1.0's inline components.
    pub components: Option<Vec<ComponentDef>>,
    /// v1.0's inline data model.
    pub data_model: Option<Value>,
}

/// `updateComponents`.
#[derive(Debug, Clone, PartialEq)]
pub struct UpdateComponents {
    /// The surface.
    pub surface_id: String,
    /// The components, in message order.
    pub components: Vec<ComponentDef>,
}

/// `updateDataModel`.
#[derive(Debug, Clone, PartialEq)]
pub struct UpdateDataModel {
    /// The surface.
    pub surface_id: String,
    /// Where (the root when the message has no `path`).
    pub path: JsonPointer,
    /// The value to write; `None` removes what is at `path` (v1.0: `value: null`; before
    /// v1.0: no `value`).
    pub value: Option<Value>,
}

/// `callRendererFunction` (or `callFunction`).
#[derive(Debug, Clone, PartialEq)]
pub struct FunctionCallMessage {
    /// The message's key as sent (`callRendererFunction` or `callFunction`).
    pub key: String,
    /// `functionCallId`, from the body or (older form) the message.
    pub function_call_id: Option<String>,
    /// The body, as sent: the call.
    pub call: Map<String, Value>,
}

/// One component of `updateComponents` or of v1.0's inline `createSurface.components`.
#[derive(Debug, Clone, PartialEq)]
pub struct ComponentDef {
    /// The JSON Pointer of the component inside its message.
    pub pointer: String,
    /// `id`.
    pub id: String,
    /// `component`: its type name.
    pub component: String,
    /// `catalogId` / `@catalogId`.
    pub catalog_id: Option<String>,
    /// `accessibility` / `@accessibility`.
    pub accessibility: Option<Value>,
    /// `checks` / `@checks`.
    pub checks: Option<Value>,
    /// `metadata` / `@metadata`.
    pub metadata: Option<Value>,
    /// The other members: the component's properties, in message order.
    pub props: Map<String, Value>,
    /// Which envelope keys were written with `@` (bit `i` for `ENVELOPE[i]`), so that a
    /// problem points at the key as sent.
    pub(super) at_keys: u8,
}

impl ComponentDef {
    /// The JSON Pointer of an envelope member (`"checks"`, `"accessibility"`, `"catalogId"`,
    /// `"metadata"`) as it was written: `/…/components/0/@checks` for a component that sent
    /// `@checks`.
    ///
    /// ```
    /// use a2ui_catalog_mcp::stream::parse_component;
    /// use serde_json::json;
    /// let c = parse_component("/c", &json!({"id": "t", "component": "Text", "@checks": [], "accessibility": {}})).unwrap();
    /// assert_eq!(c.envelope_pointer("checks"), "/c/@checks");
    /// assert_eq!(c.envelope_pointer("accessibility"), "/c/accessibility");
    /// ```
    pub fn envelope_pointer(&self, plain: &str) -> String {
        let at = ENVELOPE
            .iter()
            .position(|(p, _)| *p == plain)
            .is_some_and(|i| self.at_keys & (1 << i) != 0);
        format!("{}/{}{plain}", self.pointer, if at { "@" } else { "" })
    }

    /// The component as a JSON object again, in the v1.0 form the published schemas write: the
    /// envelope keys with `@` (`@catalogId`, `@accessibility`, `@checks`, `@metadata`), whichever
    /// spelling it was read in. [`to_value_for`](ComponentDef::to_value_for) writes the form of
    /// another version.
    ///
    /// ```
    /// use a2ui_catalog_mcp::stream::parse_component;
    /// use serde_json::json;
    /// let c = parse_component("/c", &json!({"id": "t", "component": "Text", "checks": [], "text": "x"})).unwrap();
    /// assert_eq!(c.to_value(), json!({"id": "t", "component": "Text", "@checks": [], "text": "x"}));
    /// ```
    pub fn to_value(&self) -> Value {
        self.to_value_for(Version::V1_0)
    }

    /// The component as a JSON object in the form of `version`: v1.0 writes the envelope keys
    /// with `@`; the older versions, which have no `@` keys, write them plain (`catalogId`,
    /// `accessibility`, `checks`, `metadata`).
    ///
    /// ```
    /// use a2ui_catalog_mcp::stream::{Version, parse_component};
    /// use serde_json::json;
    /// let c = parse_component("/c", &json!({"id": "t", "component": "Text", "@catalogId": "c"})).unwrap();
    /// assert_eq!(c.to_value_for(Version::V0_9), json!({"id": "t", "component": "Text", "catalogId": "c"}));
    /// ```
    pub fn to_value_for(&self, version: Version) -> Value {
        let key =
            |(plain, at): (&'static str, &'static str)| if version.is_v1() { at } else { plain };
        let mut map = Map::new();
        map.insert("id".into(), Value::String(self.id.clone()));
        map.insert("component".into(), Value::String(self.component.clone()));
        if let Some(c) = &self.catalog_id {
            map.insert(key(ENVELOPE[0]).into(), Value::String(c.clone()));
        }
        for (names, v) in [
            (ENVELOPE[1], &self.accessibility),
            (ENVELOPE[2], &self.checks),
            (ENVELOPE[3], &self.metadata),
        ] {
            if let Some(v) = v {
                map.insert(key(names).into(), v.clone());
            }
        }
        for (k, v) in &self.props {
            map.insert(k.clone(), v.clone());
        }
        Value::Object(map)
    }
}

/// The envelope keys of a component, in both spellings, and the field each fills.
pub(super) const ENVELOPE: [(&str, &str); 4] = [
    ("catalogId", "@catalogId"),
    ("accessibility", "@accessibility"),
    ("checks", "@checks"),
    ("metadata", "@metadata"),
];
