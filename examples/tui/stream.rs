//! The renderer of real A2UI streams: a `surfaces::Processor` (the basic catalog registered)
//! builds the surfaces, each surface's resolved tree is drawn by `draw`, and the keys act on the
//! focused input: typing and toggling write the model at the input's bound path, a button sends
//! its action (the `action` message `Processor::activate` builds, printed in the log).
//!
//! The tree is resolved again after each key or message: a renderer that keeps a live tree
//! would take the processor's change report here instead (see `StreamApp::refresh`).

use crate::draw::{self, View};
use a2ui_catalog_mcp::basic::{BASIC_CATALOG_JSON, BasicCatalog, UrlRequests};
use a2ui_catalog_mcp::surfaces::{Node, Processor, ProcessorOptions, ResolveLimits, Tree};
use a2ui_catalog_mcp::{Environment, Error, ErrorCode};
use serde_json::{Value, json};
use std::collections::HashMap;

/// The keys the renderer handles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    /// A character: typed into a text field; a space also presses or toggles.
    Char(char),
    Backspace,
    /// Presses a button, toggles a check box or the picker's highlighted option.
    Enter,
    /// The next input.
    Tab,
    /// The previous input.
    BackTab,
    /// Moves a slider, a picker's highlight or the selected tab.
    Left,
    Right,
    /// Previous / next input, as BackTab / Tab.
    Up,
    Down,
    /// Closes the open modals.
    Esc,
}

/// Reads keys written as characters and `<Enter>`, `<Tab>`, `<BackTab>`, `<Backspace>`,
/// `<Left>`, `<Right>`, `<Up>`, `<Down>`, `<Esc>`, `<Space>`.
pub fn parse_script(script: &str) -> Result<Vec<Key>, String> {
    let mut keys = Vec::new();
    let mut rest = script;
    while let Some(c) = rest.chars().next() {
        if c == '<' {
            let end = rest
                .find('>')
                .ok_or_else(|| format!("unclosed '<' in {rest:?}"))?;
            keys.push(match &rest[1..end] {
                "Enter" => Key::Enter,
                "Tab" => Key::Tab,
                "BackTab" => Key::BackTab,
                "Backspace" => Key::Backspace,
                "Left" => Key::Left,
                "Right" => Key::Right,
                "Up" => Key::Up,
                "Down" => Key::Down,
                "Esc" => Key::Esc,
                "Space" => Key::Char(' '),
                other => return Err(format!("unknown key <{other}>")),
            });
            rest = &rest[end + 1..];
        } else {
            keys.push(Key::Char(c));
            rest = &rest[c.len_utf8()..];
        }
    }
    Ok(keys)
}

/// An input on the screen: its surface, its node key, where it was drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Focusable {
    pub surface: String,
    pub key: String,
    /// Its regions (line, column, width) on the screen.
    pub regions: Vec<(usize, usize, usize)>,
}

/// One screen: its lines and its inputs, in drawing order.
#[derive(Debug, Clone, Default)]
pub struct Frame {
    pub lines: Vec<String>,
    pub inputs: Vec<Focusable>,
}

/// The renderer's state: the processor, what the user changed of the view, the focus, the log.
pub struct StreamApp {
    processor: Processor,
    errors: Vec<Error>,
    views: HashMap<String, View>,
    /// The focused input: (surface, node key).
    focus: Option<(String, String)>,
    log: Vec<String>,
    urls: UrlRequests,
    clock: Box<dyn Fn() -> String>,
    /// The width of the last frame, which the focus order is read from.
    width: usize,
    /// The host's thread that makes the tool calls (none: values that call a tool stay
    /// pending).
    tools: Option<crate::tools::ToolWorker>,
}

/// The processor a renderer of the gallery needs: the MCP and basic catalogs (the basic one in
/// `locale` and `time_zone`), the basic catalog's component schemas, permissive validation.
pub fn processor(locale: &str, time_zone: &str) -> Result<(Processor, UrlRequests), Error> {
    let basic = BasicCatalog::new()
        .with_locale_or_default(locale)
        .with_time_zone(time_zone)?;
    let urls = basic.url_requests();
    let mut env = Environment::new();
    env.add_catalog(basic.build());
    // Live: each surface's tree is kept between messages and writes, so a frame reads it
    // instead of resolving every property again.
    let options = ProcessorOptions::default().with_live(ResolveLimits::default());
    let mut processor = Processor::with_environment(env, options);
    let document: Value = serde_json::from_str(BASIC_CATALOG_JSON)
        .map_err(|e| Error::new(ErrorCode::ValidationFailed, e.to_string()))?;
    processor.register_catalog(&document)?;
    Ok((processor, urls))
}

impl StreamApp {
    /// Processes a stream (a JSON array of messages, `{"messages"}`, the gallery's
    /// `{name, description, messages}`); refused messages are kept and shown.
    pub fn new(stream: &Value, locale: &str, time_zone: &str) -> Result<StreamApp, Error> {
        let (mut processor, urls) = processor(locale, time_zone)?;
        let errors = processor.process_all(stream);
        // This renderer redraws whole frames, so the change report is not needed; taking it
        // keeps the journal from growing.
        processor.take_changes();
        Ok(StreamApp {
            processor,
            errors,
            views: HashMap::new(),
            focus: None,
            log: Vec::new(),
            urls,
            clock: Box::new(|| "1970-01-01T00:00:00Z".into()),
            width: 80,
            tools: None,
        })
    }

    /// Makes the tool calls the surfaces need with `worker`, starting with those the stream
    /// already asked for.
    pub fn with_tools(mut self, worker: crate::tools::ToolWorker) -> StreamApp {
        self.tools = Some(worker);
        self.pump();
        self
    }

    /// Hands the tool runs the processor queued to the host's thread.
    fn pump(&mut self) {
        let Some(tools) = &mut self.tools else {
            return;
        };
        for run in self.processor.take_tool_runs() {
            tools.run(run);
        }
    }

    /// A tool call the user asked for (`--call`): the messages its result carries are
    /// processed when it answers.
    pub fn call(&mut self, tool: &str, arguments: Value) {
        match &mut self.tools {
            Some(tools) => tools.call(tool.to_owned(), arguments),
            None => self.log.push(format!("--call {tool}: no MCP server")),
        }
    }

    /// Takes in the answers that came back, waiting up to `wait` for the first; returns
    /// whether any did.
    pub fn poll_tools(&mut self, wait: Option<std::time::Duration>) -> bool {
        let mut any = false;
        let mut wait = wait;
        loop {
            let Some(tools) = &mut self.tools else {
                return any;
            };
            let Some(answer) = tools.next(wait.take()) else {
                return any;
            };
            any = true;
            match answer {
                crate::tools::Answer::Run(done) => {
                    if let a2ui_catalog_mcp::surfaces::RunOutcome::Failed {
                        component_id,
                        error,
                        ..
                    } = self.processor.finish_tool_run(done)
                    {
                        self.log.push(format!("{component_id}: {error}"));
                    }
                }
                crate::tools::Answer::Call(tool, Ok((messages, source))) => {
                    let source = source.unwrap_or_else(|| {
                        a2ui_catalog_mcp::mcp::Provenance::new(tool.clone(), None)
                    });
                    for message in &messages {
                        match self.processor.process(message) {
                            Ok(a2ui_catalog_mcp::surfaces::Applied::SurfaceCreated(id)) => {
                                if let Some(surface) = self.processor.surface_mut(&id) {
                                    surface.set_source(source.clone());
                                }
                            }
                            Ok(_) => {}
                            Err(e) => self.errors.push(e),
                        }
                    }
                    self.log.push(format!("{tool} answered"));
                }
                crate::tools::Answer::Call(tool, Err(e)) => self.log.push(format!("{tool}: {e}")),
            }
            self.errors.extend(self.processor.take_forwarded_errors());
            self.processor.take_changes();
            self.pump();
        }
    }

    /// Waits until every tool call started has answered (and those their answers started).
    pub fn settle(&mut self) {
        while self
            .tools
            .as_ref()
            .is_some_and(crate::tools::ToolWorker::busy)
        {
            if !self.poll_tools(Some(std::time::Duration::from_secs(60))) {
                self.log
                    .push("a tool call did not answer within 60 s".into());
                break;
            }
        }
    }

    /// The clock whose time stamps actions (ISO 8601; the engine reads none).
    pub fn with_clock(mut self, clock: impl Fn() -> String + 'static) -> StreamApp {
        self.clock = Box::new(clock);
        self
    }

    /// The processor.
    pub fn processor(&self) -> &Processor {
        &self.processor
    }

    /// The messages refused.
    pub fn errors(&self) -> &[Error] {
        &self.errors
    }

    /// What the renderer printed: the action messages it sent, what went wrong.
    pub fn log(&self) -> &[String] {
        &self.log
    }

    /// Whether a modal is open (Esc closes it).
    pub fn modal_open(&self) -> bool {
        self.views.values().any(|v| !v.open.is_empty())
    }

    /// The focused input, as (surface, node key).
    pub fn focus(&self) -> Option<&(String, String)> {
        self.focus.as_ref()
    }

    /// The trees, by surface, read from the processor's live trees (a renderer that redraws
    /// only what changed would read `Processor::take_changes` here instead).
    fn refresh(&self) -> Vec<(String, Tree)> {
        self.processor
            .surfaces()
            .map(|s| {
                let tree = match s.live() {
                    Some(live) => live.to_tree(),
                    None => s.resolve(ResolveLimits::default()),
                };
                (s.id().to_owned(), tree)
            })
            .collect()
    }

    /// Draws every surface `width` cells wide, then the refused messages and the log.
    pub fn frame(&self, width: usize) -> Frame {
        let mut frame = Frame::default();
        let empty = View::default();
        for (id, tree) in self.refresh() {
            let header = format!("── {id} ");
            let rest = width.saturating_sub(draw::cells(&header));
            frame
                .lines
                .push(draw::fit(&format!("{header}{}", "─".repeat(rest)), width));
            let view = self.views.get(&id).unwrap_or(&empty);
            let block = draw::draw(&tree, view, width);
            let top = frame.lines.len();
            for region in &block.regions {
                let key = tree.nodes[region.node].key();
                let at = (region.line + top, region.col, region.width);
                match frame
                    .inputs
                    .iter_mut()
                    .find(|f| f.surface == id && f.key == key)
                {
                    Some(input) => input.regions.push(at),
                    None => frame.inputs.push(Focusable {
                        surface: id.clone(),
                        key,
                        regions: vec![at],
                    }),
                }
            }
            frame.lines.extend(block.lines);
        }
        frame
            .inputs
            .sort_by_key(|f| f.regions.first().map(|&(l, c, _)| (l, c)));
        for e in &self.errors {
            for line in draw::wrap(&format!("! {e}"), width) {
                frame.lines.push(line);
            }
        }
        for entry in &self.log {
            for line in draw::wrap(&format!("» {entry}"), width) {
                frame.lines.push(line);
            }
        }
        frame
    }

    /// The screen as text (trailing spaces removed), `width` cells wide.
    pub fn screen(&self, width: usize) -> String {
        let mut out = String::new();
        for line in self.frame(width).lines {
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }

    /// Sets the width the focus order is read from (the terminal's).
    pub fn set_width(&mut self, width: usize) {
        self.width = width;
    }

    /// One key.
    pub fn key(&mut self, key: Key) {
        match key {
            Key::Tab | Key::Down => return self.move_focus(1),
            Key::BackTab | Key::Up => return self.move_focus(-1),
            Key::Esc => {
                for view in self.views.values_mut() {
                    view.open.clear();
                }
                return;
            }
            _ => {}
        }
        let Some((surface, key_of)) = self.focus.clone() else {
            // Nothing focused yet: the first key focuses the first input.
            if matches!(key, Key::Enter | Key::Char(_)) {
                self.move_focus(1);
            }
            return;
        };
        let trees = self.refresh();
        let Some(tree) = trees.iter().find(|(id, _)| *id == surface).map(|(_, t)| t) else {
            self.focus = None;
            return;
        };
        let Some(index) = tree.nodes.iter().position(|n| n.key() == key_of) else {
            self.focus = None;
            return;
        };
        let node = &tree.nodes[index];
        if let Err(e) = self.act(&surface, tree, node, key) {
            self.log.push(format!("{}: {e}", node.component_id));
        }
    }

    fn move_focus(&mut self, step: isize) {
        let inputs = self.frame(self.width).inputs;
        if inputs.is_empty() {
            self.focus = None;
            return;
        }
        let at = self
            .focus
            .as_ref()
            .and_then(|(s, k)| inputs.iter().position(|f| &f.surface == s && &f.key == k));
        let n = inputs.len() as isize;
        let next = match at {
            None if step > 0 => 0,
            None => n - 1,
            Some(i) => (i as isize + step).rem_euclid(n),
        } as usize;
        self.focus = Some((inputs[next].surface.clone(), inputs[next].key.clone()));
    }

    /// What a key does to the focused node.
    fn act(&mut self, surface: &str, tree: &Tree, node: &Node, key: Key) -> Result<(), Error> {
        let press = matches!(key, Key::Enter | Key::Char(' '));
        let view = self.views.entry(surface.to_owned()).or_default();
        match node.component_type.as_deref().unwrap_or("") {
            "Button" if press => {
                if let Some((false, messages)) = &node.checks {
                    self.log.push(format!(
                        "{} is disabled: {}",
                        node.component_id,
                        messages.join("; ")
                    ));
                    return Ok(());
                }
                // A button that is a Modal's trigger opens it (the same button may also be
                // drawn elsewhere: every instance of its key counts).
                let key = node.key();
                for trigger in tree.nodes.iter().filter(|n| n.key() == key) {
                    if let (Some(parent), Some("trigger")) =
                        (&trigger.parent, trigger.slot.as_deref())
                        && tree.nodes.iter().any(|p| {
                            &p.key() == parent && p.component_type.as_deref() == Some("Modal")
                        })
                    {
                        view.open.insert(parent.clone());
                    }
                }
                self.activate(surface, node)
            }
            "TextField" | "DateTimeInput" => {
                let mut text = draw::show(node.props.get("value"));
                match key {
                    Key::Char(c) => text.push(c),
                    Key::Backspace => {
                        text.pop();
                    }
                    _ => return Ok(()),
                }
                self.write(surface, node, "value", Value::String(text))
            }
            "CheckBox" if press => {
                let on = matches!(node.props.get("value"), Some(Value::Bool(true)));
                self.write(surface, node, "value", Value::Bool(!on))
            }
            "ChoicePicker" => {
                let options = draw::options(node);
                let cursor = view.cursor.entry(node.key()).or_insert(0);
                match key {
                    Key::Left => *cursor = cursor.saturating_sub(1),
                    Key::Right => *cursor = (*cursor + 1).min(options.len().saturating_sub(1)),
                    _ if press => {
                        let Some((_, value)) = options.get(*cursor).cloned() else {
                            return Ok(());
                        };
                        let single = draw::show(node.props.get("variant")) != "multipleSelection";
                        let mut chosen = draw::selected(node);
                        if single {
                            chosen = vec![value];
                        } else if let Some(i) = chosen.iter().position(|v| *v == value) {
                            chosen.remove(i);
                        } else {
                            chosen.push(value);
                        }
                        return self.write(surface, node, "value", Value::Array(chosen));
                    }
                    _ => {}
                }
                Ok(())
            }
            "Slider" => {
                let number = |name: &str, default: f64| {
                    node.props
                        .get(name)
                        .and_then(Value::as_f64)
                        .unwrap_or(default)
                };
                let (min, max) = (number("min", 0.0), number("max", 100.0));
                let value = number("value", min);
                let step = match key {
                    Key::Left => -1.0,
                    Key::Right => 1.0,
                    _ => return Ok(()),
                };
                let next = (value + step).clamp(min, max.max(min));
                let next = if next.fract() == 0.0 && next.abs() < 9e15 {
                    json!(next as i64)
                } else {
                    json!(next)
                };
                self.write(surface, node, "value", next)
            }
            "Tabs" => {
                let count = node
                    .props
                    .get("tabs")
                    .and_then(Value::as_array)
                    .map_or(0, Vec::len);
                let selected = view.tabs.entry(node.key()).or_insert(0);
                match key {
                    Key::Left => *selected = selected.saturating_sub(1),
                    Key::Right => *selected = (*selected + 1).min(count.saturating_sub(1)),
                    _ => {}
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// The user activates a node: `Processor::activate` builds the action message now, which
    /// the log shows as sent (or a `functionCall`'s result, and the URLs `openUrl` asked for).
    fn activate(&mut self, surface: &str, node: &Node) -> Result<(), Error> {
        let component = self
            .processor
            .surface(surface)
            .and_then(|s| s.component(&node.component_id));
        if component.is_none_or(|c| !c.props.contains_key("action")) {
            return Ok(());
        }
        let done = self.processor.activate(
            surface,
            &node.component_id,
            &node.data_path,
            &(self.clock)(),
        )?;
        // An action of a surface a server's tool returned goes back to that server's
        // `a2ui_action` when the host knows the server (A2UI over MCP); others are printed as
        // sent to the agent.
        let server = self
            .processor
            .surface(surface)
            .and_then(|s| s.source())
            .and_then(|source| source.server.clone());
        if let (Some(message), Some(server), Some(tools)) = (&done.message, server, &mut self.tools)
        {
            tools.action(server.clone(), message["action"].clone());
            self.log.push(format!(
                "{} sends its action to {server}",
                node.component_id
            ));
        } else if let Some(message) = done.message {
            self.log.push(format!("sent {message}"));
        }
        if let Some(model) = done.data_model {
            self.log.push(format!("with data model {model}"));
        }
        if let Some(value) = done.value {
            self.log.push(format!("{} ran: {value}", node.component_id));
        }
        for url in self.urls.take() {
            self.log.push(format!("open {url}"));
        }
        for e in done.errors {
            self.log.push(format!("{}: {e}", node.component_id));
        }
        if done.run.is_some() {
            self.log.push(format!("{} calls a tool", node.component_id));
        }
        self.processor.take_changes();
        self.pump();
        Ok(())
    }

    /// Writes an input's value at the path its property is bound to (`{"path"}` or
    /// `{"@path"}`, relative ones in the node's data context), through the processor
    /// (`Processor::write_path`). A property that is not bound cannot be written: the input is read-only.
    fn write(&mut self, surface: &str, node: &Node, prop: &str, value: Value) -> Result<(), Error> {
        let bound = self
            .processor
            .surface(surface)
            .and_then(|s| s.component(&node.component_id))
            .and_then(|c| c.props.get(prop))
            .and_then(|v| v.get("path").or(v.get("@path")))
            .and_then(Value::as_str)
            .map(str::to_owned);
        let Some(path) = bound else {
            return Err(Error::new(
                ErrorCode::ValidationFailed,
                format!("'{prop}' is not bound to the data model: the input is read-only"),
            ));
        };
        // Through the processor, so the live tree re-evaluates what the write reaches.
        self.processor
            .write_path(surface, &node.data_path, &path, value)?;
        self.processor.take_changes();
        self.pump();
        Ok(())
    }
}
