//! `rpc_functions.yaml` (`handle_rpc`): the agent's `callRendererFunction` processed by
//! [`Processor::process`], answered with its `rendererFunctionResponse`; the renderer's
//! `callAgentFunction` ([`Processor::call_agent_function`]) matched to the agent's answer.
//!
//! The suite names the renderer's functions and their `functionMetadata` but leaves their
//! bodies to each harness; the ones here are the host functions a media renderer would have
//! (`playMedia` plays what it is given, `openExternalUrl` hands the URL to the host, and so
//! on), each declared with the case's access through [`Catalog::set_access`].

use crate::suite::Outcome;
use a2ui_catalog_mcp::functions::{Access, AllowedCallers, ArgSchema};
use a2ui_catalog_mcp::surfaces::{Applied, Processor, ProcessorOptions};
use a2ui_catalog_mcp::{Args, Catalog, Environment, Error, ErrorCode};
use serde_json::{Value, json};

const AGENT_ACTIVATION: &str = "declares a function callable by the agent that requires user activation, and gives the agent's call a user gesture: the v1.0 catalog schema (catalog_definition.json: requiresUserActivation true needs allowedCallers rendererOnly) forbids the declaration, and the crate gives an agent's call no user activation (its user_activation_denied twin runs)";

type HostFn = fn(&Args<'_>) -> Result<Value, Error>;

/// The renderer's functions: name, catalog, arguments, body.
fn renderer_functions() -> [(&'static str, &'static str, ArgSchema, HostFn); 5] {
    [
        (
            "playMedia",
            "media_catalog",
            ArgSchema::new().required("mediaId").optional("autoplay"),
            |args| {
                // A player that starts at the beginning when asked to play.
                let playing = args.value_or_null("autoplay") == &json!(true);
                Ok(json!({"playing": playing, "timestamp": 0}))
            },
        ),
        (
            "internalStateReset",
            "system_catalog",
            ArgSchema::new(),
            |_| Ok(Value::Null),
        ),
        (
            "openExternalUrl",
            "basic",
            ArgSchema::new().required("url"),
            |args| Ok(json!({"opened": args.value_or_null("url").is_string()})),
        ),
        ("failingFunction", "basic", ArgSchema::new(), |_| {
            Err(Error::new(ErrorCode::ExpressionError, "the device is busy"))
        }),
        // A state change with nothing to return.
        ("syncState", "basic", ArgSchema::new(), |_| Ok(Value::Null)),
    ]
}

/// A processor on the renderer's catalogs, each function declared with the case's
/// `functionMetadata` (a function the metadata does not list is not registered).
fn processor(args: &Value) -> Result<Processor, Outcome> {
    let metadata = args["functionMetadata"].as_object();
    let mut catalogs: Vec<Catalog> = Vec::new();
    for (_, catalog_id, _, _) in renderer_functions() {
        if !catalogs.iter().any(|c| c.id() == catalog_id) {
            catalogs.push(Catalog::new(catalog_id));
        }
    }
    for (name, catalog_id, schema, f) in renderer_functions() {
        let Some(meta) = metadata.and_then(|m| m.get(name)) else {
            continue;
        };
        let callers = meta["allowedCallers"].as_str().unwrap_or("rendererOnly");
        let callers = AllowedCallers::parse(callers)
            .ok_or_else(|| Outcome::Failed(format!("allowedCallers {callers}")))?;
        let activation = meta["requiresUserActivation"].as_bool().unwrap_or(false);
        let at = catalogs.iter().position(|c| c.id() == catalog_id).unwrap();
        let catalog = std::mem::replace(&mut catalogs[at], Catalog::new(catalog_id));
        catalogs[at] = catalog.with_function(name, schema, f);
        catalogs[at]
            .set_access(name, Access::new(callers, activation))
            .unwrap();
    }
    for name in metadata.into_iter().flat_map(|m| m.keys()) {
        if !renderer_functions().iter().any(|f| f.0 == name) {
            return Err(Outcome::Failed(format!("no renderer function {name}")));
        }
    }
    let mut env = Environment::new();
    for catalog in catalogs {
        env.add_catalog(catalog);
    }
    Ok(Processor::with_environment(
        env,
        ProcessorOptions::default()
            .with_require_version(true)
            .with_accept_unregistered_catalogs(true),
    ))
}

pub fn run(case: &Value) -> Outcome {
    let args = &case["args"];
    let expect = &case["expect"];
    if args["userActivationPresent"] == json!(true) {
        return Outcome::Skipped(AGENT_ACTIVATION);
    }
    let mut processor = match processor(args) {
        Ok(p) => p,
        Err(outcome) => return outcome,
    };
    if let Some(outbound) = args.get("outboundCall") {
        let surface = outbound["surfaceId"].as_str().unwrap();
        let id = outbound["functionCallId"].as_str().unwrap();
        if let Err(e) = processor.process(&json!({"version": "v1.0",
            "createSurface": {"surfaceId": surface, "catalogId": outbound["callFunction"]["catalogId"]}}))
        {
            return Outcome::Failed(format!("surface not created: {e}"));
        }
        let sent = match processor.call_agent_function(surface, id, &outbound["callFunction"]) {
            Ok(sent) => sent,
            Err(e) => return Outcome::Failed(format!("callAgentFunction refused: {e}")),
        };
        if sent["callAgentFunction"] != *outbound {
            return Outcome::Failed(format!("sent {sent}, the call was {outbound}"));
        }
        return match processor.process(&args["inboundResponse"]) {
            Ok(Applied::AgentFunctionResponse(r)) => {
                let got = (
                    r.function_call_id.as_str(),
                    r.surface_id.as_deref(),
                    r.outcome,
                );
                let want = (
                    expect["correlatedCallId"].as_str().unwrap(),
                    Some(surface),
                    Ok(expect["result"].clone()),
                );
                if got == want {
                    Outcome::Passed
                } else {
                    Outcome::Failed(format!("answer {got:?} != {want:?}"))
                }
            }
            other => Outcome::Failed(format!("the response came back as {other:?}")),
        };
    }
    let processed = processor.process(&args["message"]);
    match (processed, expect.get("error")) {
        (Err(e), Some(want)) => {
            let said = want["message"].as_str().unwrap_or("");
            if e.message().contains(said) {
                Outcome::Passed
            } else {
                Outcome::Failed(format!("error {e}, expected one saying {said}"))
            }
        }
        (Err(e), None) => Outcome::Failed(format!("refused: {e}")),
        (Ok(applied), Some(_)) => Outcome::Failed(format!("accepted as {applied:?}")),
        (Ok(Applied::RendererFunction(done)), None) => {
            let same = crate::suite::same_version_keys;
            if same(&done.response()) == same(&expect["response"]) {
                Outcome::Passed
            } else {
                Outcome::Failed(format!("responded {}", done.response()))
            }
        }
        // Nothing to send back (an agentFunctionResponse no call waits for).
        (Ok(Applied::AgentFunctionResponse(_)), None) if expect["response"].is_null() => {
            Outcome::Passed
        }
        (Ok(other), None) => Outcome::Failed(format!("processed as {other:?}")),
    }
}
