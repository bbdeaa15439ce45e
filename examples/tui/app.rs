//! The renderer: a surface's components, their properties bound through
//! `a2ui_catalog_mcp::reactive::Bindings`, the data model behind a `TrackedModel`, and a
//! ratatui view drawn from a cache of display strings that only changed keys update.
//!
//! Keys are strings: `{component}.{property}` for a component's property and
//! `{list}[{row}].{field}` for a field of a list template's row.

use a2ui_catalog_mcp::reactive::ValueState;
use a2ui_catalog_mcp::reactive::{BindingDone, Bindings, Change, ChangeSet, Runs, TrackedModel};
use a2ui_catalog_mcp::{
    Environment, Error, ErrorCode, JsonPointer, Payload, SharedModel, mcp::McpHost,
};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, List, ListItem, Paragraph};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Arc;
use tokio::task::JoinSet;

/// The model the renderer and its running evaluations share.
pub type Model = SharedModel<TrackedModel>;

/// The keys the renderer handles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    /// A character typed into the focused text field.
    Char(char),
    /// Deletes the text field's last character.
    Backspace,
    /// Presses the button (runs its action).
    Enter,
}

/// Reads keys written as in `--script`: characters, and `<Enter>`, `<Backspace>` (`<Wait>` is
/// the script's own: it waits for every run in flight).
pub fn parse_script(script: &str) -> Result<Vec<Option<Key>>, String> {
    let mut keys = Vec::new();
    let mut rest = script;
    while let Some(c) = rest.chars().next() {
        if c == '<' {
            let end = rest
                .find('>')
                .ok_or_else(|| format!("unclosed '<' in {rest:?}"))?;
            keys.push(match &rest[1..end] {
                "Enter" => Some(Key::Enter),
                "Backspace" => Some(Key::Backspace),
                "Wait" => None,
                other => return Err(format!("unknown key <{other}>")),
            });
            rest = &rest[end + 1..];
        } else {
            keys.push(Some(Key::Char(c)));
            rest = &rest[c.len_utf8()..];
        }
    }
    Ok(keys)
}

enum Kind {
    Text,
    TextField {
        path: JsonPointer,
    },
    Button {
        action: Arc<Payload>,
    },
    List {
        /// Where the items are: a template row's data context is this path and its index.
        path: JsonPointer,
        template: Vec<(String, Arc<Payload>)>,
        rows: usize,
    },
}

struct Component {
    id: String,
    kind: Kind,
}

/// What a finished task hands back.
pub enum Done {
    /// A value that calls a tool.
    Value(BindingDone<String>),
    /// The button's action; `None` when it was superseded.
    Action(Option<Result<Value, Error>>),
}

/// The renderer.
pub struct App {
    model: Arc<Model>,
    host: Arc<McpHost>,
    components: Vec<Component>,
    bindings: Bindings<String>,
    /// What each key shows, updated only for keys whose value changed.
    shown: HashMap<String, String>,
    /// The button's action: typing again supersedes a search in flight.
    runs: Runs<&'static str>,
    /// Whether the action is in flight.
    acting: bool,
    tasks: JoinSet<Done>,
    /// Whether something changed since the last draw.
    dirty: bool,
    /// The last action's error, if any.
    status: String,
}

fn invalid(message: String) -> Error {
    Error::new(ErrorCode::ValidationFailed, message)
}

/// The absolute path of a property that must be a plain binding (`{"@path": "/…"}`).
fn bound_path(
    component: &str,
    property: &str,
    value: Option<&Value>,
) -> Result<JsonPointer, Error> {
    match value.and_then(|v| v.get("@path")).and_then(Value::as_str) {
        Some(path) if path.starts_with('/') => JsonPointer::parse(path),
        _ => Err(invalid(format!(
            "{component}.{property} must be a binding to an absolute path, {{\"@path\": \"/…\"}}"
        ))),
    }
}

/// How a value reads on screen.
fn text_of(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn display(state: Option<&ValueState>, value: Option<&Value>) -> String {
    match state {
        None => String::new(),
        Some(ValueState::Ready(v)) => text_of(v),
        // A bare binding: its value is the model's, lent in place.
        Some(ValueState::Bound) => value.map(text_of).unwrap_or_default(),
        Some(ValueState::Pending { previous: None }) => "loading…".into(),
        Some(ValueState::Pending { previous: Some(v) }) => format!("{} …", text_of(v)),
        Some(ValueState::Failed { error, .. }) => format!("error: {}", error.message()),
    }
}

impl App {
    /// Compiles every property of `surface` once, binds it, and evaluates everything once. The
    /// surface's `dataModel` replaces what `model` holds.
    pub fn new(surface: &Value, model: Arc<Model>, host: Arc<McpHost>) -> Result<App, Error> {
        let env = Environment::new();
        let mut app = App {
            model,
            host,
            components: Vec::new(),
            bindings: Bindings::new(),
            shown: HashMap::new(),
            runs: Runs::new(),
            acting: false,
            tasks: JoinSet::new(),
            dirty: true,
            status: String::new(),
        };
        if let Some(data) = surface.get("dataModel") {
            app.model.lock().set(&JsonPointer::root(), data.clone())?;
        }
        let components = surface
            .get("components")
            .and_then(Value::as_array)
            .ok_or_else(|| invalid("the surface has no 'components' array".into()))?;
        for component in components {
            let id = component
                .get("id")
                .and_then(Value::as_str)
                .ok_or_else(|| invalid(format!("a component has no 'id': {component}")))?
                .to_owned();
            let kind = component
                .get("component")
                .and_then(Value::as_str)
                .unwrap_or("");
            let (kind, properties): (Kind, &[&str]) = match kind {
                "Text" => (Kind::Text, &["text"]),
                "TextField" => (
                    Kind::TextField {
                        path: bound_path(&id, "value", component.get("value"))?,
                    },
                    &["label", "value"],
                ),
                "Button" => {
                    let action = component
                        .get("action")
                        .ok_or_else(|| invalid(format!("{id} has no 'action'")))?;
                    (
                        Kind::Button {
                            action: Arc::new(env.compile(action)?),
                        },
                        &["label"],
                    )
                }
                "List" => {
                    let mut template = Vec::new();
                    if let Some(Value::Object(fields)) = component.get("template") {
                        for (field, payload) in fields {
                            template.push((field.clone(), Arc::new(env.compile(payload)?)));
                        }
                    }
                    (
                        Kind::List {
                            path: bound_path(&id, "items", component.get("items"))?,
                            template,
                            rows: 0,
                        },
                        &["title", "pending", "items"],
                    )
                }
                other => return Err(invalid(format!("{id}: unknown component '{other}'"))),
            };
            for property in properties {
                if let Some(value) = component.get(*property) {
                    let payload = Arc::new(env.compile(value)?);
                    app.bindings.register(
                        format!("{id}.{property}"),
                        payload,
                        JsonPointer::root(),
                    )?;
                }
            }
            app.components.push(Component { id, kind });
        }
        app.refresh();
        Ok(app)
    }

    /// Values recomputed so far: each bound property evaluated, each tool run started, each
    /// bare binding a change reached (which costs no evaluation).
    pub fn evaluations(&self) -> u64 {
        self.bindings.recomputed()
    }

    /// The keys that read `path` or a path under or above it.
    pub fn keys_reading(&self, path: &JsonPointer) -> Vec<String> {
        let mut keys: Vec<String> = self
            .shown
            .keys()
            .filter(|k| {
                self.bindings.dependencies(k.as_str()).is_some_and(|deps| {
                    deps.iter()
                        .any(|d| a2ui_catalog_mcp::reactive::affects(d, path))
                })
            })
            .cloned()
            .collect();
        keys.sort();
        keys
    }

    /// Whether something changed since the last call (then the screen needs a redraw).
    pub fn take_dirty(&mut self) -> bool {
        std::mem::take(&mut self.dirty)
    }

    /// Whether a task (the action, a value's tool run) is in flight.
    pub fn busy(&self) -> bool {
        !self.tasks.is_empty()
    }

    /// The model, to read it.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// Handles a key.
    pub fn key(&mut self, key: Key) -> Result<(), Error> {
        match key {
            Key::Char(_) | Key::Backspace => {
                let Some(path) = self.components.iter().find_map(|c| match &c.kind {
                    Kind::TextField { path } => Some(path.clone()),
                    _ => None,
                }) else {
                    return Ok(());
                };
                // Typing again supersedes a search in flight: its result is never written.
                if std::mem::take(&mut self.acting) {
                    self.runs.cancel("action");
                    self.model.lock().set(&searching(), Value::Bool(false))?;
                }
                let mut model = self.model.lock();
                let mut text = model
                    .get()
                    .pointer(&path.to_string())
                    .map(text_of)
                    .unwrap_or_default();
                match key {
                    Key::Char(c) => text.push(c),
                    _ => {
                        text.pop();
                    }
                }
                // The field's two-way binding: the host writes, the change is recorded.
                model.set(&path, Value::String(text))?;
            }
            Key::Enter => {
                let Some(action) = self.components.iter().find_map(|c| match &c.kind {
                    Kind::Button { action } => Some(action.clone()),
                    _ => None,
                }) else {
                    return Ok(());
                };
                let ticket = self.runs.start("action");
                self.acting = true;
                self.model.lock().set(&searching(), Value::Bool(true))?;
                self.status.clear();
                let (model, host) = (self.model.clone(), self.host.clone());
                let run = ticket.run(async move {
                    action.eval_async(&model, &JsonPointer::root(), &host).await
                });
                self.tasks.spawn(async move { Done::Action(run.await) });
            }
        }
        self.refresh();
        Ok(())
    }

    /// Waits for the next task to finish and applies its result; `false` when none is in
    /// flight.
    pub async fn next(&mut self) -> bool {
        match self.tasks.join_next().await {
            None => false,
            Some(Ok(done)) => {
                self.done(done);
                true
            }
            Some(Err(e)) => {
                self.status = format!("a task failed: {e}");
                self.dirty = true;
                true
            }
        }
    }

    /// Waits until no task is in flight.
    pub async fn settle(&mut self) {
        while self.next().await {}
    }

    /// Applies a finished task's result.
    pub fn done(&mut self, done: Done) {
        match done {
            Done::Value(done) => {
                for change in self.bindings.finish(done) {
                    self.show(change);
                }
            }
            // Superseded: whoever superseded it has reset the state.
            Done::Action(None) => {}
            Done::Action(Some(result)) => {
                self.acting = false;
                if let Err(e) = result {
                    self.status = format!("search failed: {e}");
                    self.dirty = true;
                }
                if let Err(e) = self.model.lock().set(&searching(), Value::Bool(false)) {
                    self.status = e.to_string();
                }
                self.refresh();
            }
        }
    }

    /// Recomputes what the recorded changes affect, grows or shrinks list templates, and
    /// starts the tool runs of values that need one.
    fn refresh(&mut self) {
        let mut changes = {
            let mut model = self.model.lock();
            let recorded = model.take_changes();
            self.bindings.recompute(model.get(), &recorded)
        };
        loop {
            let mut resized = false;
            for change in changes {
                resized |= self.show(change);
            }
            if !resized {
                break;
            }
            // Rows registered just now: evaluated without any change.
            let model = self.model.lock();
            changes = self.bindings.recompute(model.get(), &ChangeSet::new());
        }
        for run in self.bindings.take_tool_runs() {
            let (model, host) = (self.model.clone(), self.host.clone());
            self.tasks
                .spawn(async move { Done::Value(run.eval(&model, &host).await) });
        }
    }

    /// Updates what a changed key shows; returns whether a list template gained or lost rows.
    fn show(&mut self, change: Change<String>) -> bool {
        self.dirty = true;
        let key = change.key;
        let (shown, len) = {
            let model = self.model.lock();
            let value = self.bindings.value(key.as_str(), model.get());
            let len = value
                .as_deref()
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            let shown = display(self.bindings.state(key.as_str()), value.as_deref());
            (shown, len)
        };
        self.shown.insert(key.clone(), shown);
        // A list's items replaced as a whole: rows may come or go. An edit under them (a row's
        // field) reaches the row's own keys.
        let Some(id) = key.strip_suffix(".items") else {
            return false;
        };
        if !change.under.is_empty() {
            return false;
        }
        let Some(Component {
            kind:
                Kind::List {
                    path,
                    template,
                    rows,
                },
            ..
        }) = self.components.iter_mut().find(|c| c.id == id)
        else {
            return false;
        };
        let old = std::mem::replace(rows, len);
        for row in len..old {
            for (field, _) in template.iter() {
                let key = format!("{id}[{row}].{field}");
                self.bindings.unregister(key.as_str());
                self.shown.remove(&key);
            }
        }
        for row in old..len {
            let mut context = path.clone();
            context.push(row.to_string());
            for (field, payload) in template.iter() {
                // Template payloads only read: registering cannot fail.
                let _ = self.bindings.register(
                    format!("{id}[{row}].{field}"),
                    payload.clone(),
                    context.clone(),
                );
            }
        }
        len > old
    }

    fn shown(&self, key: &str) -> &str {
        self.shown.get(key).map_or("", String::as_str)
    }

    /// Draws the surface from what the keys show (nothing is evaluated here).
    pub fn draw(&self, frame: &mut Frame<'_>) {
        let heights: Vec<Constraint> = self
            .components
            .iter()
            .map(|c| match c.kind {
                Kind::Text | Kind::Button { .. } => Constraint::Length(1),
                Kind::TextField { .. } => Constraint::Length(3),
                Kind::List { .. } => Constraint::Min(3),
            })
            .chain([Constraint::Length(1)])
            .collect();
        let areas = Layout::vertical(heights).split(frame.area());
        for (component, area) in self.components.iter().zip(areas.iter()) {
            let id = &component.id;
            match &component.kind {
                Kind::Text => {
                    frame.render_widget(Paragraph::new(self.shown(&format!("{id}.text"))), *area)
                }
                Kind::TextField { .. } => {
                    let field = Paragraph::new(format!("{}▏", self.shown(&format!("{id}.value"))))
                        .block(
                            Block::bordered().title(self.shown(&format!("{id}.label")).to_owned()),
                        );
                    frame.render_widget(field, *area);
                }
                Kind::Button { .. } => {
                    let label = format!("[ {} ]  (Enter)", self.shown(&format!("{id}.label")));
                    frame.render_widget(
                        Paragraph::new(label).style(Style::new().add_modifier(Modifier::BOLD)),
                        *area,
                    );
                }
                Kind::List { template, rows, .. } => {
                    let mut title = self.shown(&format!("{id}.title")).to_owned();
                    if self.shown(&format!("{id}.pending")) == "true" {
                        title.push_str(" (searching…)");
                    }
                    let items: Vec<ListItem<'_>> = (0..*rows)
                        .map(|row| {
                            let fields: Vec<&str> = template
                                .iter()
                                .map(|(field, _)| self.shown(&format!("{id}[{row}].{field}")))
                                .collect();
                            ListItem::new(Line::from(fields.join("  ")))
                        })
                        .collect();
                    frame.render_widget(
                        List::new(items).block(Block::bordered().title(title)),
                        *area,
                    );
                }
            }
        }
        if let Some(area) = areas.last() {
            frame.render_widget(Paragraph::new(self.status.as_str()), *area);
        }
    }

    /// The screen as text, drawn on ratatui's test backend (`width` × `height` cells).
    pub fn screen(&self, width: u16, height: u16) -> String {
        let backend = ratatui::backend::TestBackend::new(width, height);
        let mut terminal = ratatui::Terminal::new(backend).expect("the test backend never fails");
        terminal
            .draw(|frame| self.draw(frame))
            .expect("the test backend never fails");
        let buffer = terminal.backend().buffer();
        let mut out = String::new();
        for y in 0..buffer.area.height {
            let mut line = String::new();
            for x in 0..buffer.area.width {
                line.push_str(buffer.cell((x, y)).map_or(" ", |c| c.symbol()));
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }
}

/// Where the renderer says a search is in flight (the list's `pending` property reads it).
fn searching() -> JsonPointer {
    JsonPointer::parse("/searching").expect("a valid pointer")
}
