//! How the processor judges the components of a message against their catalogs and compiles
//! their dynamic values.

use super::processor::*;
use super::schema::ComponentSchema;
use super::spelled::*;
use super::surface::*;
use super::*;
use crate::env::CompileScope;
use crate::error::{Error, MissingCatalog, Warning};
use crate::origin::Origin;
use crate::path::JsonPointer;
use crate::payload::{Payload, SiteCatalog, Walk};
use crate::stream::{Body, Category, ComponentDef, ParseOptions, parse_message_with};
use crate::syntax::Spelling;
use serde_json::Value;
use std::collections::{HashMap, HashSet};

/// Installs prepared components: each replaces the one of its id whole.
/// How the values of a components message are read on `surface`
/// ([`Surface::spelling`](crate::surfaces::Surface::spelling)): the spelling to compile them in, the surface's spelling once the
/// message applies (`None`: still undecided), and where values of the other spelling show on a
/// surface that reads the plain one (its once-per-surface warning). Before v1.0 everything is
/// plain.
pub(super) fn message_spelling(
    surface: &Surface,
    defs: &[ComponentDef],
    earlier: Spelling,
) -> (Spelling, Option<Spelling>, Option<String>) {
    if !surface.version.is_v1() {
        return (earlier, Some(earlier), None);
    }
    let mut evidence = crate::syntax::Evidence::default();
    for def in defs {
        for (key, value) in &def.props {
            let at = format!("{}/{}", def.pointer, crate::path::escape_token(key));
            evidence.add(at, value);
        }
        for (key, value) in [
            ("checks", &def.checks),
            ("accessibility", &def.accessibility),
        ] {
            if let Some(value) = value {
                evidence.add(def.envelope_pointer(key), value);
            }
        }
    }
    let decided = evidence.decide(surface.spelling);
    let mixed_at = match decided {
        Some(Spelling::Plain) => evidence.other_than(Spelling::Plain).map(str::to_owned),
        _ => None,
    };
    (decided.unwrap_or(Spelling::Plain), decided, mixed_at)
}

/// A property the component's schema does not name.
pub(super) fn unknown_property(
    pointer: String,
    prop: &str,
    component: &str,
    schema: &ComponentSchema,
) -> Error {
    let mut known: Vec<&str> = schema.props.keys().map(String::as_str).collect();
    known.sort_unstable();
    Error::in_message(
        Category::Validation,
        pointer,
        format!(
            "unknown property '{prop}' of {component} (its properties: {})",
            known.join(", ")
        ),
    )
}

/// One value of a component as the compiler's one walk saw it: where it is, what it compiled
/// to (`Ok(None)`: a literal, drawn as it is written), its warnings, and what the walk saw
/// ([`Walk`]: its depth, its calls).
pub(super) struct WalkedValue<'d> {
    /// The property (`checks` and `accessibility` for those).
    prop: &'d str,
    /// A JSON Pointer to the value in the message.
    at: String,
    /// The value itself (the `formatString` check of `root` reads a call's template in it).
    #[cfg_attr(not(feature = "basic-catalog"), allow(dead_code))]
    value: &'d Value,
    result: Result<Option<Payload>, Error>,
    warnings: Vec<crate::error::Warning>,
    walk: Walk,
}

/// The depth of a value when it is deeper than `limit` (explicit stack, stops at the first
/// level past the limit).
pub(super) fn deeper_than(value: &Value, limit: usize) -> Option<usize> {
    let mut stack = vec![(value, 1usize)];
    while let Some((v, depth)) = stack.pop() {
        if depth > limit {
            return Some(depth);
        }
        match v {
            Value::Object(map) => stack.extend(map.values().map(|c| (c, depth + 1))),
            Value::Array(items) => stack.extend(items.iter().map(|c| (c, depth + 1))),
            _ => {}
        }
    }
    None
}

/// Whether a value holds a binding or a call anywhere, or a key with the reserved `@` (which
/// the compiler reads: `@@` escapes, a bare or unknown `@` key is an error); explicit stack.
pub(super) fn has_dynamic(value: &Value) -> bool {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(map) => {
                if schema::is_dynamic(v) || map.keys().any(|k| k.starts_with('@')) {
                    return true;
                }
                stack.extend(map.values());
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    false
}

impl Processor {
    /// Every component problem of a `createSurface` or `updateComponents` message, judged
    /// against its surface as it stands and applying nothing (what [`process`](Processor::process)
    /// stops at is the first): each duplicate id, each component's problems (a property that is
    /// refused is set aside and the rest of the component judged again, so an unknown property
    /// does not hide a bad `variant`), then the graph of the components that passed. A message
    /// that does not parse gives its one parse error; other messages give none. The message is
    /// not counted.
    ///
    /// ```
    /// use a2ui_catalog_mcp::surfaces::{Processor, ProcessorOptions};
    /// use serde_json::json;
    /// let mut p = Processor::new(ProcessorOptions::default());
    /// p.register_catalog(&json!({"catalogId": "my", "components": {
    ///     "Text": {"properties": {"component": {"const": "Text"}, "text": {"type": "string"},
    ///         "variant": {"enum": ["h1", "body"]}}, "required": ["component", "text"]}}}))?;
    /// let message = json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "my", "components": [
    ///     {"id": "root", "component": "Text", "text": "x", "colour": "red", "variant": "huge"},
    ///     {"id": "b", "component": "Txt"}]}});
    /// let found: Vec<String> = p.component_problems(&message).iter().map(|e| e.location().to_owned()).collect();
    /// assert_eq!(found, ["/createSurface/components/0/colour", "/createSurface/components/0/variant",
    ///     "/createSurface/components/1/component"]);
    /// assert!(p.surface("s").is_none());
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    pub fn component_problems(&mut self, message: &Value) -> Vec<Error> {
        let mut options = ParseOptions::default();
        options.require_version = self.options.require_version;
        options.max_depth = self.env.limits().max_depth;
        let parsed = match parse_message_with(message, options) {
            Ok(parsed) => parsed,
            Err(e) => return vec![e],
        };
        let version = parsed.version_or_default();
        let (surface, defs, existing) = match parsed.body {
            Body::UpdateComponents(update) => match self.surfaces.remove(&update.surface_id) {
                Some(surface) => (surface, update.components, true),
                None => return Vec::new(),
            },
            Body::CreateSurface(create) => {
                let Some(components) = create.components else {
                    return Vec::new();
                };
                let mut surface = Surface::empty(
                    create.surface_id,
                    version,
                    create.catalog_id,
                    create.send_data_model,
                );
                if let Some(model) = create.data_model {
                    // A model that cannot be written is process()'s problem, not a component's.
                    let _ = surface.data.set(&JsonPointer::root(), model);
                }
                (surface, components, false)
            }
            _ => return Vec::new(),
        };
        let problems = self.every_component_problem(&surface, defs, true, &mut Vec::new());
        if existing {
            self.surfaces.insert(surface.id.clone(), surface);
        }
        problems
    }

    /// Every problem of the components `defs` of one message on `surface` as it stands (see
    /// [`component_problems`](Processor::component_problems)); nothing is changed.
    pub(super) fn every_component_problem(
        &mut self,
        surface: &Surface,
        defs: Vec<ComponentDef>,
        graph: bool,
        warnings: &mut Vec<crate::error::Warning>,
    ) -> Vec<Error> {
        let mut problems = Vec::new();
        let collecting = self.collecting.replace(Vec::new());
        let mut seen = HashSet::with_capacity(defs.len());
        let mut passed = Vec::with_capacity(defs.len());
        let (spelling, _, _) = message_spelling(surface, &defs, self.options.earlier_spelling);
        for def in defs {
            if !seen.insert(def.id.clone()) {
                problems.push(Error::in_message(
                    Category::Integrity,
                    format!("{}/id", def.pointer),
                    format!("duplicate component id '{}' in one message", def.id),
                ));
                continue;
            }
            let mut def = def;
            let first = problems.len();
            self.set_aside.clear();
            // The properties the schema does not name are set aside in one pass (judging the
            // component again per unknown property would be quadratic in its properties).
            // The property a problem is at, when it is at one.
            let prop_of = |pointer: &str, at: &str| {
                pointer
                    .strip_prefix(&format!("{at}/"))
                    .map(|rest| rest.split('/').next().unwrap_or(rest))
                    .map(|token| token.replace("~1", "/").replace("~0", "~"))
            };
            let mut unknown = Vec::new();
            let mut positions: HashMap<String, usize> = HashMap::new();
            if let Some(schema) = self.schema_of(surface, &def)
                && def.props.keys().any(|p| !schema.props.contains_key(p))
            {
                for (i, prop) in def.props.keys().enumerate() {
                    positions.insert(prop.clone(), i + 1);
                    if !schema.props.contains_key(prop) {
                        let pointer =
                            format!("{}/{}", def.pointer, crate::path::escape_token(prop));
                        unknown.push((
                            i + 1,
                            unknown_property(pointer, prop, &def.component, schema),
                        ));
                    }
                }
                def.props.retain(|p, _| schema.props.contains_key(p));
            }
            // Bounded: each round sets one property the schema names aside.
            loop {
                // The warnings of the last round only: a round judges the component again.
                let mut round = Vec::new();
                match self.component(surface, def.clone(), spelling, &mut round) {
                    Ok(component) => {
                        warnings.append(&mut round);
                        // What its values' compilation found (they compile on past a problem).
                        problems.extend(self.collecting.iter_mut().flat_map(std::mem::take));
                        passed.push(component);
                        break;
                    }
                    Err(e) => {
                        let prop = prop_of(e.location(), &def.pointer)
                            .filter(|p| def.props.contains_key(p.as_str()));
                        problems.push(e);
                        match prop {
                            Some(prop) => {
                                def.props.shift_remove(&prop);
                                self.set_aside.insert(prop);
                                // The next round compiles the other values again: what this
                                // one collected before its problem would be said twice.
                                self.collecting.iter_mut().for_each(Vec::clear);
                            }
                            None => {
                                // A problem of the whole component (a required property
                                // missing, no catalog) does not hide its values' problems (a
                                // call relying on a default catalog that is not there stops
                                // the compilation, and is what the whole problem says).
                                let _ = self.compile(surface, &def, spelling, warnings);
                                // What the call check already said there (an unknown function
                                // in `checks`) is not said again by the compiler.
                                let said: HashSet<String> = problems[first..]
                                    .iter()
                                    .map(|p| p.location().to_owned())
                                    .collect();
                                let compiled = self.collecting.iter_mut().flat_map(std::mem::take);
                                problems.extend(
                                    compiled.filter(|p| !said.iter().any(|s| s == p.location())),
                                );
                                break;
                            }
                        }
                    }
                }
            }
            if !unknown.is_empty() {
                // In the order of the component's properties, as judging one at a time found
                // them (a problem of the whole component first).
                let mut found: Vec<(usize, Error)> = problems
                    .drain(first..)
                    .map(|e| {
                        let at = prop_of(e.location(), &def.pointer)
                            .and_then(|p| positions.get(&p).copied())
                            .unwrap_or(0);
                        (at, e)
                    })
                    .collect();
                found.extend(unknown);
                found.sort_by_key(|(at, _)| *at);
                problems.extend(found.into_iter().map(|(_, e)| e));
            }
        }
        self.set_aside.clear();
        if !graph {
            self.collecting = collecting;
            return problems;
        }
        if let Err(e) = graph::check(surface, &passed, self.options.strict) {
            problems.push(e);
        }
        // The graph check stops at its first problem: in strict mode every dangling child.
        if self.options.strict {
            let ids: HashSet<&str> = passed.iter().map(|c| c.def.id.as_str()).collect();
            // Looked up, not scanned: a message of many dangling children stays linear.
            let mut reported: HashSet<String> =
                problems.iter().map(|p| p.location().to_owned()).collect();
            for component in &passed {
                for (child, slot, _) in &component.children {
                    let pointer = format!("{}/{}", component.def.pointer, slot_pointer(slot));
                    if ids.contains(child.as_str())
                        || surface.components.contains_key(child)
                        || !reported.insert(pointer.clone())
                    {
                        continue;
                    }
                    problems.push(Error::in_message(
                        Category::Integrity,
                        pointer,
                        format!(
                            "Dangling reference: component '{}' names the child '{child}' ({slot}), which is not defined",
                            component.def.id
                        ),
                    ));
                }
            }
        }
        self.collecting = collecting;
        problems
    }

    /// Checks the components of one message against their catalogs and the surface's graph as
    /// it would be, and compiles them; nothing is changed.
    pub(super) fn prepare(
        &mut self,
        surface: &Surface,
        defs: Vec<ComponentDef>,
    ) -> Result<(Vec<Component>, Spelled), Error> {
        let mut seen = HashSet::with_capacity(defs.len());
        for def in &defs {
            if !seen.insert(def.id.as_str()) {
                return Err(Error::in_message(
                    Category::Integrity,
                    format!("{}/id", def.pointer),
                    format!("duplicate component id '{}' in one message", def.id),
                ));
            }
        }
        let new_count = defs
            .iter()
            .filter(|d| !surface.components.contains_key(&d.id))
            .count();
        // The surface being judged is out of `self.surfaces` (or not in it yet).
        let others: usize = self.surfaces.values().map(|s| s.components.len()).sum();
        let held = others + surface.components.len() + new_count;
        if held > self.options.max_components {
            return Err(Error::in_message(
                Category::Recursion,
                "",
                format!(
                    "surface '{}' would hold {} components ({held} with the other surfaces), more than the limit of {}",
                    surface.id,
                    surface.components.len() + new_count,
                    self.options.max_components
                ),
            ));
        }
        let (spelling, decided, mixed_at) =
            message_spelling(surface, &defs, self.options.earlier_spelling);
        let mut spelled = Spelled {
            spelling: decided,
            warnings: Vec::new(),
            mixed_at,
        };
        let mut out = Vec::with_capacity(defs.len());
        for def in defs {
            out.push(self.component(surface, def, spelling, &mut spelled.warnings)?);
        }
        let replaced: usize = out
            .iter()
            .filter_map(|c| surface.components.get(&c.def.id))
            .map(|c| c.bytes)
            .sum();
        let added: usize = out.iter().map(|c| c.bytes).sum();
        self.check_held(surface, added, replaced, "")?;
        graph::check(surface, &out, self.options.strict)?;
        Ok((out, spelled))
    }

    /// Applies what [`prepare`](Processor::prepare) found of a message's spelling to the surface
    /// the message changed, and keeps its warnings.
    pub(super) fn note_spelling(&mut self, surface: &mut Surface, spelled: Spelled) {
        // A host that never takes the warnings keeps a bounded number of them.
        let room = MAX_WARNINGS.saturating_sub(self.warnings.len());
        let spelled = Spelled {
            warnings: spelled.warnings.into_iter().take(room).collect(),
            ..spelled
        };
        let index = self.messages.saturating_sub(1);
        if surface.spelling.is_none() {
            surface.spelling = spelled.spelling;
        }
        let warn = |warning: Warning| {
            warning
                .with_message_index(index)
                .with_surface_id(surface.id.clone())
        };
        self.warnings.extend(spelled.warnings.into_iter().map(warn));
        if let Some(at) = spelled.mixed_at
            && !surface.spelling_warned
        {
            surface.spelling_warned = true;
            if self.warnings.len() >= MAX_WARNINGS {
                return;
            }
            let message = format!(
                "surface '{}' reads its values in the plain spelling (its first bindings and calls were plain), and this one is written with '@': both are read, but write one",
                surface.id
            );
            self.warnings.push(warn(
                crate::error::Warning::new(crate::error::WarningCode::OtherSpelling, message)
                    .with_location(at),
            ));
        }
    }

    /// The schema of a component type in the catalog a component resolves to.
    pub(super) fn schema_of<'a>(
        &'a self,
        surface: &Surface,
        def: &ComponentDef,
    ) -> Option<&'a ComponentSchema> {
        let catalog = self.component_catalog(surface, def)?;
        self.catalogs
            .get(&catalog)?
            .components
            .as_ref()?
            .get(&def.component)
    }

    /// The registered catalog a component is checked against, when there is one.
    pub(super) fn component_catalog(
        &self,
        surface: &Surface,
        def: &ComponentDef,
    ) -> Option<String> {
        let named = def.catalog_id.as_ref().or(surface.catalog_id.as_ref())?;
        if self.catalogs.contains_key(named) {
            return Some(named.clone());
        }
        self.options
            .fallback_catalog
            .clone()
            .filter(|f| def.catalog_id.is_none() && self.catalogs.contains_key(f))
    }

    /// Checks one component against its catalog and compiles its dynamic values in `spelling`
    /// (their warnings go to `warnings`, located in the message).
    pub(super) fn component(
        &mut self,
        surface: &Surface,
        def: ComponentDef,
        spelling: Spelling,
        warnings: &mut Vec<crate::error::Warning>,
    ) -> Result<Component, Error> {
        let at = def.pointer.clone();
        let limit = self.env.limits().max_depth;
        // One walk of each value, the compiler's, when the processor compiles them: it measures
        // the depth, says whether the value is a literal, and lists its calls. Without
        // compiling (`check_calls` off), the depth alone is measured.
        let walked = self
            .options
            .check_calls
            .then(|| self.walk_values(surface, &def, spelling));
        let deepest = match &walked {
            Some(values) => values.iter().map(|v| v.walk.deepest).max().unwrap_or(0),
            None => def
                .props
                .values()
                .chain(def.checks.iter())
                .chain(def.accessibility.iter())
                .find_map(|value| deeper_than(value, limit))
                .unwrap_or(0),
        };
        if deepest > limit {
            return Err(Error::in_message(
                Category::Recursion,
                at,
                format!(
                    "Global recursion limit exceeded: component '{}' nests {deepest} levels, deeper than the limit of {limit}",
                    def.id
                ),
            ));
        }
        // Catalog resolution: the component's own catalogId, else the surface's default.
        match (&def.catalog_id, &surface.catalog_id) {
            (Some(c), _) => self.known_catalog(surface, c, &at, "catalogId")?,
            (None, None) => {
                return Err(Error::in_message(
                    Category::Catalog,
                    at,
                    format!(
                        "component '{}' names no catalogId and surface '{}' has no default catalogId",
                        def.id, surface.id
                    ),
                ));
            }
            (None, Some(_)) => {}
        }
        let catalog = self.component_catalog(surface, &def);
        if let Some(catalog) = &catalog
            && let Some(types) = &self.catalogs[catalog].components
        {
            let Some(schema) = types.get(&def.component) else {
                let mut names: Vec<&str> = types.keys().map(String::as_str).collect();
                names.sort_unstable();
                return Err(Error::in_message(
                    Category::Validation,
                    format!("{at}/component"),
                    format!(
                        "unknown component type '{}' in catalog '{catalog}' (its types: {})",
                        def.component,
                        names.join(", ")
                    ),
                ));
            };
            for required in &schema.required {
                // A property set aside for its own problem (judging every problem) is there.
                if !def.props.contains_key(required) && !self.set_aside.contains(required) {
                    return Err(Error::in_message(
                        Category::Validation,
                        at.clone(),
                        format!(
                            "{} '{}' needs the property '{required}'",
                            def.component, def.id
                        ),
                    ));
                }
            }
            if def.checks.is_some() && !schema.checkable {
                return Err(Error::in_message(
                    Category::Validation,
                    def.envelope_pointer("checks"),
                    format!("{} takes no checks", def.component),
                ));
            }
            for (prop, value) in &def.props {
                let pointer = format!("{at}/{}", crate::path::escape_token(prop));
                let Some(kind) = schema.props.get(prop) else {
                    return Err(unknown_property(pointer, prop, &def.component, schema));
                };
                schema::check_prop(&pointer, &def.component, prop, kind, value)?;
            }
        }
        if let Some(accessibility) = &def.accessibility {
            schema::check_accessibility(
                &def.envelope_pointer("accessibility"),
                accessibility,
                spelling,
            )?;
        }
        let compiled = match walked {
            Some(values) => {
                self.check_calls_of(surface, &def, &values)?;
                self.keep_compiled(surface, values, warnings)?
            }
            None => Vec::new(),
        };
        let schema = catalog.as_ref().and_then(|c| {
            self.catalogs[c]
                .components
                .as_ref()
                .and_then(|t| t.get(&def.component))
        });
        let children = schema::children_of(&def.props, schema);
        let bytes = component_bytes(&def, &compiled, &children);
        Ok(Component {
            def,
            catalog,
            compiled,
            children,
            action_call: std::sync::OnceLock::new(),
            bytes,
            message: self.messages.saturating_sub(1),
        })
    }

    /// The registered catalog ids, sorted, comma-separated.
    pub(super) fn catalog_list(&self) -> String {
        let mut ids: Vec<&str> = self.catalogs.keys().map(String::as_str).collect();
        ids.sort_unstable();
        ids.join(", ")
    }

    /// `Catalog not found` for a catalog id that is not registered, at `pointer`: matchable by
    /// [`Error::missing_catalog`](crate::Error::missing_catalog).
    pub(super) fn catalog_not_found(&self, id: &str, pointer: impl Into<String>) -> Error {
        let error = crate::error::Error::new(
            crate::error::ErrorCode::CatalogError,
            format!(
                "Catalog not found: {id} (registered: {})",
                self.catalog_list()
            ),
        )
        .with_missing_catalog(MissingCatalog::NotRegistered(id.to_owned()))
        .with_phase(crate::error::Phase::Compile);
        error.with_location(pointer)
    }

    /// A catalog a component or call names: non-empty, registered, built for the surface's
    /// protocol version.
    pub(super) fn known_catalog(
        &self,
        surface: &Surface,
        id: &str,
        at: &str,
        key: &str,
    ) -> Result<(), Error> {
        let pointer = format!("{at}/{key}");
        if id.is_empty() {
            return Err(Error::in_message(
                Category::Catalog,
                pointer,
                "Catalog not found: the catalogId is empty",
            ));
        }
        match self.catalogs.get(id) {
            None => Err(self.catalog_not_found(id, pointer)),
            Some(info) => match info.version {
                Some(v) if !v.same_line(surface.version) => Err(Error::in_message(
                    Category::Catalog,
                    pointer,
                    format!(
                        "Catalog not found for surface '{}': catalog '{id}' is built for {v}, and a {} surface uses the catalogs of its protocol version",
                        surface.id, surface.version
                    ),
                )),
                _ => Ok(()),
            },
        }
    }

    /// Compiles each of the component's values (its properties, `checks`, `accessibility`) in
    /// the surface's scope: the one walk of each value ([`WalkedValue`]).
    fn walk_values<'d>(
        &self,
        surface: &Surface,
        def: &'d ComponentDef,
        spelling: Spelling,
    ) -> Vec<WalkedValue<'d>> {
        let scope = CompileScope {
            default_catalog: surface.catalog_id.as_deref(),
            spelling,
            caller: Some(Origin::Binding),
        };
        let mut parts: Vec<(&str, String, &Value)> = def
            .props
            .iter()
            .map(|(k, v)| {
                let at = format!("{}/{}", def.pointer, crate::path::escape_token(k));
                (k.as_str(), at, v)
            })
            .collect();
        // `accessibility` holds dynamic values (`label`, `description`, and `hidden` since
        // November 2026): they are compiled so that their problems are the message's, and
        // left to the renderer to resolve (the resolved tree carries the component's props).
        for (key, value) in [
            ("checks", &def.checks),
            ("accessibility", &def.accessibility),
        ] {
            if let Some(value) = value {
                parts.push((key, def.envelope_pointer(key), value));
            }
        }
        parts
            .into_iter()
            .map(|(prop, at, value)| {
                let (result, warnings, walk) = self.env.compile_walked_in(value, scope);
                WalkedValue {
                    prop,
                    at,
                    value,
                    result,
                    warnings,
                    walk,
                }
            })
            .collect()
    }

    /// Every call of the component's values (as the compiler's walk listed them) names a
    /// usable catalog, or none (then the surface's default, which must exist), and a function
    /// its catalog has; `@index` belongs to no catalog, and is never in `root`.
    pub(super) fn check_calls_of(
        &self,
        surface: &Surface,
        def: &ComponentDef,
        values: &[WalkedValue<'_>],
    ) -> Result<(), Error> {
        for value in values {
            for site in &value.walk.calls {
                let at = format!("{}{}", value.at, site.location);
                let name = site.name.as_str();
                // `root` starts the tree and is never a template item (a template of it
                // would be a cycle), so `@index` in it can never be evaluated.
                if name == crate::builtins::index::NAME {
                    if def.id == "root" {
                        return Err(Error::in_message(
                            Category::Validation,
                            at,
                            "@index can only be evaluated inside a template item, and the component 'root' is drawn once, at the top of the tree",
                        ));
                    }
                    continue;
                }
                // The same holds for `${@index()}` in a formatString template written
                // in the component (a template from data is read when evaluated).
                #[cfg(feature = "basic-catalog")]
                if name == "formatString"
                    && def.id == "root"
                    && let Some(Value::String(text)) = value
                        .value
                        .pointer(&site.location)
                        .and_then(|call| call.get("args"))
                        .and_then(|args| args.get("value"))
                    && crate::basic::Template::parse(text)
                        .is_ok_and(|t| t.calls().contains(&crate::builtins::index::NAME))
                {
                    return Err(Error::in_message(
                        Category::Validation,
                        format!("{at}/args/value"),
                        "@index can only be evaluated inside a template item, and the component 'root' is drawn once, at the top of the tree (its formatString calls ${@index()})",
                    ));
                }
                let catalog = match &site.catalog {
                    SiteCatalog::Default => match &surface.catalog_id {
                        Some(id) => id.as_str(),
                        None => {
                            return Err(Error::in_message(
                                Category::Catalog,
                                at,
                                format!(
                                    "the call of '{name}' names no catalogId and surface '{}' has no default catalogId",
                                    surface.id
                                ),
                            ));
                        }
                    },
                    SiteCatalog::Named(id) => {
                        self.known_catalog(surface, id, &at, "catalogId")?;
                        id.as_str()
                    }
                    SiteCatalog::NotAString(kind) => {
                        return Err(Error::in_message(
                            Category::Validation,
                            format!("{at}/catalogId"),
                            format!("a call's catalogId must be a string, got {kind}"),
                        ));
                    }
                };
                if let Some(catalog) = self.env.catalog(catalog)
                    && !catalog.function_names().contains(&name)
                {
                    // The compiler's code and function, the suite's words.
                    return Err(Error::new(
                        crate::error::ErrorCode::ExpressionError,
                        format!(
                            "Unrecognized function '{name}' in catalog '{}' (its functions: {})",
                            catalog.id(),
                            catalog.function_names().join(", ")
                        ),
                    )
                    .with_function(name)
                    .with_phase(crate::error::Phase::Compile)
                    .with_location(at));
                }
            }
        }
        Ok(())
    }

    /// Compiles each of the component's values (see [`keep_compiled`](Processor::keep_compiled)).
    pub(super) fn compile(
        &mut self,
        surface: &Surface,
        def: &ComponentDef,
        spelling: Spelling,
        warnings: &mut Vec<crate::error::Warning>,
    ) -> Result<Vec<(String, std::sync::Arc<Payload>)>, Error> {
        let values = self.walk_values(surface, def, spelling);
        self.keep_compiled(surface, values, warnings)
    }

    /// The compiled values to keep (each property that holds a binding or a call), their
    /// warnings located in the message, and what their compilation found wrong: a call
    /// relying on a surface's default catalog the host did not register is the host's
    /// business, not a problem.
    pub(super) fn keep_compiled(
        &mut self,
        surface: &Surface,
        values: Vec<WalkedValue<'_>>,
        warnings: &mut Vec<crate::error::Warning>,
    ) -> Result<Vec<(String, std::sync::Arc<Payload>)>, Error> {
        let known_default = surface
            .catalog_id
            .as_deref()
            .is_some_and(|id| self.catalogs.contains_key(id));
        let mut out = Vec::new();
        for WalkedValue {
            prop,
            at,
            result,
            warnings: found,
            ..
        } in values
        {
            if result.is_ok() {
                warnings.extend(found.into_iter().map(|w| {
                    let location = format!("{at}{}", w.location());
                    w.with_location(location)
                }));
            }
            match result {
                // A literal compiles to itself: the component's value is what it draws.
                Ok(None) => {}
                Ok(Some(_)) if prop == "accessibility" => {}
                Ok(Some(payload)) => out.push((prop.to_owned(), std::sync::Arc::new(payload))),
                Err(err) => {
                    let unregistered_default = |e: &Error| {
                        !known_default
                            && matches!(e.missing_catalog(), Some(MissingCatalog::NotRegistered(id))
                                if surface.catalog_id.as_deref() == Some(id.as_str()))
                    };
                    let mut problems = err.into_problems().into_iter();
                    let e = problems.next().expect("an error has a problem");
                    if e.missing_catalog() == Some(&MissingCatalog::NoDefault) {
                        return Err(Error::in_message(
                            Category::Catalog,
                            format!("{at}{}", e.location()),
                            format!(
                                "surface '{}' has no default catalogId for this call",
                                surface.id
                            ),
                        ));
                    }
                    if unregistered_default(&e) {
                        continue;
                    }
                    let located = |e: Error| {
                        let pointer = format!("{at}{}", e.location());
                        e.with_location(pointer)
                    };
                    // Judging every problem (`check`), each of the value's problems is kept and
                    // the other values are compiled on; else the first refuses the message.
                    let Some(collected) = &mut self.collecting else {
                        return Err(located(e));
                    };
                    collected.push(located(e));
                    collected.extend(problems.filter(|e| !unregistered_default(e)).map(located));
                }
            }
        }
        Ok(out)
    }
}
