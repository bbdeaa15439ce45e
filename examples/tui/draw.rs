//! Drawing: a resolved surface tree (`surfaces::Tree`) to lines of terminal text at a given
//! width, with the screen region of every input the user can focus. No terminal, no input, no
//! processor: what a node shows depends only on its resolved properties and the view state
//! (selected tab, open modal, picker cursor), so the same code draws the interactive screen and
//! the headless snapshots.
//!
//! The tree is walked without recursion: widths are given top-down in the tree's breadth-first
//! order (a parent comes before its children), blocks are built bottom-up in the reverse order
//! (children before their parent).

use a2ui_catalog_mcp::json::to_js_string;
use a2ui_catalog_mcp::surfaces::{Node, NodeState, Tree};
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// What the user changed of how a surface is shown, keyed by node key (`componentId@dataPath`).
#[derive(Debug, Default, Clone)]
pub struct View {
    /// The selected tab of each `Tabs` (default the first).
    pub tabs: HashMap<String, usize>,
    /// The `Modal`s whose content is shown.
    pub open: HashSet<String>,
    /// The highlighted option of each `ChoicePicker` (default the first).
    pub cursor: HashMap<String, usize>,
}

/// Where an input the user can focus was drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Region {
    /// The node's index in the tree.
    pub node: usize,
    /// Line and column of its first cell, and its width in cells.
    pub line: usize,
    pub col: usize,
    pub width: usize,
}

/// Drawn text: lines no wider than `width` cells, and the inputs' regions.
#[derive(Debug, Clone, Default)]
pub struct Block {
    pub lines: Vec<String>,
    pub width: usize,
    pub regions: Vec<Region>,
}

impl Block {
    fn new(width: usize) -> Block {
        Block {
            lines: Vec::new(),
            width,
            regions: Vec::new(),
        }
    }

    fn push(&mut self, line: String) {
        self.lines.push(fit(&line, self.width));
    }

    /// Appends `other` below between a box's two sides (`side`, then one space each way),
    /// `inner` cells wide, its input regions moved with it.
    fn append_boxed(&mut self, other: Block, inner: usize, side: char) {
        let top = self.lines.len();
        for r in other.regions {
            self.regions.push(Region {
                line: r.line + top,
                col: r.col + 2,
                ..r
            });
        }
        for line in other.lines {
            self.push(format!("{side} {} {side}", pad(&line, inner)));
        }
    }

    /// Appends `other` below, shifted right by `col` cells.
    fn append(&mut self, other: Block, col: usize) {
        let top = self.lines.len();
        for r in other.regions {
            self.regions.push(Region {
                line: r.line + top,
                col: r.col + col,
                ..r
            });
        }
        let indent = " ".repeat(col);
        for line in other.lines {
            self.push(format!("{indent}{line}"));
        }
    }
}

/// Cells a string takes.
pub fn cells(s: &str) -> usize {
    UnicodeWidthStr::width(s)
}

/// `s` cut to `width` cells (an ellipsis marks the cut).
pub fn fit(s: &str, width: usize) -> String {
    if cells(s) <= width {
        return s.to_owned();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in s.chars() {
        let w = c.width().unwrap_or(0);
        if used + w + 1 > width {
            break;
        }
        out.push(c);
        used += w;
    }
    if width > 0 {
        out.push('…');
    }
    out
}

/// `s` padded with spaces to `width` cells.
fn pad(s: &str, width: usize) -> String {
    let w = cells(s);
    if w >= width {
        return s.to_owned();
    }
    format!("{s}{}", " ".repeat(width - w))
}

/// Words wrapped to `width` cells; a word longer than a line is cut across lines.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let space = usize::from(!line.is_empty());
        if cells(&line) + space + cells(word) <= width {
            if space == 1 {
                line.push(' ');
            }
            line.push_str(word);
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        for c in word.chars() {
            if cells(&line) + c.width().unwrap_or(0) > width {
                lines.push(std::mem::take(&mut line));
            }
            line.push(c);
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// A resolved value as text: strings as they are, numbers as JavaScript prints them, `null` empty.
pub fn show(value: Option<&Value>) -> String {
    match value {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(v) => to_js_string(v).into_owned(),
    }
}

/// The text of a Text: the markdown a Text may hold reduced to what a terminal shows (heading
/// marks give the heading level, emphasis marks are dropped, `[label](url)` keeps both), one
/// entry per paragraph line, with the heading level the text asks for.
fn markdown(text: &str) -> Vec<(Option<usize>, String)> {
    text.lines()
        .map(|line| {
            let trimmed = line.trim_start();
            let hashes = trimmed.chars().take_while(|c| *c == '#').count();
            let (level, rest) = if (1..=5).contains(&hashes) && trimmed[hashes..].starts_with(' ') {
                (Some(hashes), trimmed[hashes + 1..].to_owned())
            } else if let Some(item) = trimmed
                .strip_prefix("- ")
                .or_else(|| trimmed.strip_prefix("* "))
            {
                (None, format!("• {item}"))
            } else {
                (None, line.to_owned())
            };
            (level, inline_markdown(&rest))
        })
        .collect()
}

fn inline_markdown(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        // `[label](url)` → `label (url)`.
        if c == '['
            && let Some(close) = rest.find("](")
            && let Some(end) = rest[close..].find(')')
        {
            let label = &rest[1..close];
            let url = &rest[close + 2..close + end];
            out.push_str(&format!("{label} ({url})"));
            rest = &rest[close + end + 1..];
            continue;
        }
        if matches!(c, '*' | '`') || rest.starts_with("__") {
            rest = &rest[c.len_utf8()..];
            continue;
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// The heading level of a Text's `variant`.
fn heading(variant: &str) -> Option<usize> {
    match variant {
        "h1" => Some(1),
        "h2" => Some(2),
        "h3" => Some(3),
        "h4" => Some(4),
        "h5" => Some(5),
        _ => None,
    }
}

/// The children of each node, each with its slot, in slot order.
pub fn children(tree: &Tree) -> Vec<Vec<(String, usize)>> {
    let mut kids: Vec<Vec<(String, usize)>> = vec![Vec::new(); tree.nodes.len()];
    // A component shared under two parents is two instances with the same key: a child goes to
    // the first instance of its parent's key that has no child in that slot yet.
    let mut by_key: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, node) in tree.nodes.iter().enumerate() {
        if let (Some(parent), Some(slot)) = (&node.parent, &node.slot)
            && let Some(candidates) = by_key.get(parent)
            && let Some(&p) = candidates
                .iter()
                .find(|&&p| kids[p].iter().all(|(s, _)| s != slot))
        {
            kids[p].push((slot.clone(), i));
        }
        by_key.entry(node.key()).or_default().push(i);
    }
    kids
}

fn prop<'n>(node: &'n Node, name: &str) -> Option<&'n Value> {
    node.props.get(name)
}

fn prop_str(node: &Node, name: &str) -> String {
    show(prop(node, name))
}

fn kind(node: &Node) -> &str {
    node.component_type.as_deref().unwrap_or("")
}

/// Whether a node lays its children out side by side.
fn horizontal(node: &Node) -> bool {
    match kind(node) {
        "Row" => true,
        "List" => prop_str(node, "direction") == "horizontal",
        _ => false,
    }
}

/// A Button's brackets by variant, and the cells they and the `(disabled)` mark take.
fn button_frame(node: &Node) -> (&'static str, &'static str, usize) {
    let (open, close) = match prop_str(node, "variant").as_str() {
        "primary" => ("[▸ ", " ]"),
        "borderless" => ("  ", "  "),
        _ => ("[ ", " ]"),
    };
    let suffix = if disabled(node) { 11 } else { 0 };
    (open, close, cells(open) + cells(close) + suffix)
}

/// `label: `, or `label ` when the label ends with its own colon.
fn label_head(label: &str) -> String {
    match label {
        "" => String::new(),
        l if l.ends_with(':') => format!("{l} "),
        l => format!("{l}: "),
    }
}

/// Whether a Button's checks fail (it cannot be pressed).
pub fn disabled(node: &Node) -> bool {
    node.checks.as_ref().is_some_and(|(valid, _)| !valid)
}

/// The options of a ChoicePicker: (label, value).
pub fn options(node: &Node) -> Vec<(String, Value)> {
    prop(node, "options")
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .map(|o| {
                    (
                        show(o.get("label")),
                        o.get("value").cloned().unwrap_or(Value::Null),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The selected values of a ChoicePicker (a list; a single value is read as a list of one).
pub fn selected(node: &Node) -> Vec<Value> {
    match prop(node, "value") {
        Some(Value::Array(items)) => items.clone(),
        None | Some(Value::Null) => Vec::new(),
        Some(v) => vec![v.clone()],
    }
}

/// The children drawn: a Tabs shows its selected tab, a Modal its content when it is open.
fn visible_kids<'k>(
    node: &Node,
    kids: &'k [(String, usize)],
    view: &View,
) -> Vec<&'k (String, usize)> {
    match kind(node) {
        "Tabs" => {
            let selected = view.tabs.get(&node.key()).copied().unwrap_or(0);
            let slot = format!("tabs[{selected}].child");
            kids.iter().filter(|(s, _)| *s == slot).collect()
        }
        "Modal" => {
            let open = view.open.contains(&node.key());
            kids.iter()
                .filter(|(s, _)| s == "trigger" || (open && s == "content"))
                .collect()
        }
        _ => kids.iter().collect(),
    }
}

/// The most levels of layout drawn: a deeper subtree is a line saying so (a stream may nest
/// components as deep as it likes, and each level copies the lines of the one below).
pub const MAX_DRAW_DEPTH: usize = 64;

/// Draws a tree `width` cells wide.
pub fn draw(tree: &Tree, view: &View, width: usize) -> Block {
    let n = tree.nodes.len();
    if n == 0 {
        let mut block = Block::new(width);
        block.push("(nothing to draw: no component 'root')".into());
        return block;
    }
    let kids = children(tree);
    // Natural widths, bottom-up.
    let mut natural = vec![0usize; n];
    for i in (0..n).rev() {
        natural[i] = natural_width(&tree.nodes[i], &kids[i], &natural, view);
    }
    // Widths and visibility, top-down.
    let mut given = vec![0usize; n];
    let mut visible = vec![false; n];
    let mut depth = vec![0usize; n];
    let mut cut = vec![false; n];
    given[0] = width;
    visible[0] = true;
    for i in 0..n {
        if !visible[i] {
            continue;
        }
        let node = &tree.nodes[i];
        let shown = visible_kids(node, &kids[i], view);
        // Too deep, or a card too narrow for its child to show anything: a mark instead.
        if (depth[i] >= MAX_DRAW_DEPTH || (kind(node) == "Card" && given[i] < 10))
            && !shown.is_empty()
        {
            cut[i] = true;
            continue;
        }
        let widths = child_widths(node, &shown, &natural, given[i], &tree.nodes);
        for ((_, k), w) in shown.iter().zip(widths) {
            given[*k] = w;
            visible[*k] = true;
            depth[*k] = depth[i] + 1;
        }
    }
    // Blocks, bottom-up.
    let mut blocks: Vec<Option<Block>> = vec![None; n];
    for i in (0..n).rev() {
        if !visible[i] {
            continue;
        }
        let node = &tree.nodes[i];
        let kids_shown = visible_kids(node, &kids[i], view);
        let shown: Vec<(String, Block)> = if cut[i] {
            // The mark takes the place of the children.
            let inner = child_widths(node, &kids_shown[..1], &natural, given[i], &tree.nodes)[0];
            let mut mark = Block::new(inner);
            if depth[i] >= MAX_DRAW_DEPTH {
                mark.push(format!(
                    "… nested deeper than {MAX_DRAW_DEPTH} levels: not drawn"
                ));
            } else {
                mark.push("…".into());
            }
            vec![(kids_shown[0].0.clone(), mark)]
        } else {
            kids_shown
                .into_iter()
                .filter_map(|(slot, k)| Some((slot.clone(), blocks[*k].take()?)))
                .collect()
        };
        let block = block_of(i, node, shown, given[i], view);
        blocks[i] = Some(block);
    }
    blocks[0].take().unwrap_or_default()
}

/// The width a node would take with room to spare (its text unwrapped).
fn natural_width(node: &Node, kids: &[(String, usize)], natural: &[usize], view: &View) -> usize {
    let kid = |slot: &str| {
        kids.iter()
            .find(|(s, _)| s == slot)
            .map_or(0, |(_, k)| natural[*k])
    };
    let all: Vec<usize> = kids.iter().map(|(_, k)| natural[*k]).collect();
    let label = cells(&prop_str(node, "label"));
    let head = cells(&label_head(&prop_str(node, "label")));
    let own = match node.state {
        Some(NodeState::Pending) if node.component_type.is_none() => {
            return cells(&pending_text(node));
        }
        Some(NodeState::Failed(ref why)) => cells(why) + cells(&node.component_id) + 4,
        _ => 0,
    };
    let drawn = match kind(node) {
        "Text" => markdown(&prop_str(node, "text"))
            .iter()
            .map(|(_, l)| cells(l))
            .max()
            .unwrap_or(0),
        "Row" | "List" if horizontal(node) => {
            all.iter().sum::<usize>() + all.len().saturating_sub(1)
        }
        "Column" | "List" => all.iter().copied().max().unwrap_or(0),
        "Card" => kid("child") + 4,
        "Button" => kid("child") + button_frame(node).2,
        "TextField" => head + (cells(&prop_str(node, "value")) + 2).max(14),
        "DateTimeInput" => head + (cells(&prop_str(node, "value")) + 2).max(18),
        "CheckBox" => label + 4,
        "ChoicePicker" => {
            let opts = options(node);
            if prop_str(node, "displayStyle") == "chips" {
                label.max(opts.iter().map(|(l, _)| cells(l) + 5).sum())
            } else {
                label.max(opts.iter().map(|(l, _)| cells(l) + 4).max().unwrap_or(0))
            }
        }
        "Slider" => head + 22 + 8,
        "Tabs" => {
            let titles = tab_titles(node);
            let bar = titles.iter().map(|t| cells(t) + 3).sum::<usize>();
            bar.max(all.iter().copied().max().unwrap_or(0))
        }
        "Modal" => {
            let content = if view.open.contains(&node.key()) {
                kid("content") + 4
            } else {
                0
            };
            kid("trigger").max(content)
        }
        "Divider" => 1,
        "Icon" => cells(&prop_str(node, "name")) + 2,
        "Image" | "Video" | "AudioPlayer" => cells(&media(node, usize::MAX)),
        _ => (cells(kind(node)) + cells(&node.component_id) + 3)
            .max(all.iter().copied().max().unwrap_or(0)),
    };
    drawn.max(own)
}

/// How the width of a node is shared among the children it draws.
fn child_widths(
    node: &Node,
    shown: &[&(String, usize)],
    natural: &[usize],
    width: usize,
    nodes: &[Node],
) -> Vec<usize> {
    let inner = |less: usize| width.saturating_sub(less).max(1);
    match kind(node) {
        _ if horizontal(node) => row_widths(shown, natural, width, nodes),
        "Card" => vec![inner(4); shown.len()],
        "Button" => vec![inner(button_frame(node).2); shown.len()],
        "Modal" => shown
            .iter()
            .map(|(s, _)| if s == "content" { inner(4) } else { width })
            .collect(),
        // Centred or right-aligned children take their natural width; a divider spans.
        "Column" | "List" if matches!(prop_str(node, "align").as_str(), "center" | "end") => shown
            .iter()
            .map(|(_, k)| {
                if kind(&nodes[*k]) == "Divider" {
                    width
                } else {
                    natural[*k].clamp(1, width.max(1))
                }
            })
            .collect(),
        _ => vec![width; shown.len()],
    }
}

/// Side by side: children without `weight` take their natural width (shrunk in proportion
/// when they do not fit), weighted ones share what is left.
fn row_widths(
    shown: &[&(String, usize)],
    natural: &[usize],
    width: usize,
    nodes: &[Node],
) -> Vec<usize> {
    if shown.is_empty() {
        return Vec::new();
    }
    let avail = width.saturating_sub(shown.len() - 1).max(shown.len());
    let weight = |k: usize| {
        nodes[k]
            .props
            .get("weight")
            .and_then(Value::as_f64)
            .filter(|w| *w > 0.0)
    };
    let weights: Vec<Option<f64>> = shown.iter().map(|(_, k)| weight(*k)).collect();
    let fixed: usize = shown
        .iter()
        .zip(&weights)
        .filter(|(_, w)| w.is_none())
        .map(|((_, k), _)| natural[*k].max(1))
        .sum();
    let total_weight: f64 = weights.iter().flatten().sum();
    // The unweighted children may take everything when none is weighted, half otherwise.
    let room = if total_weight > 0.0 { avail / 2 } else { avail };
    let shrink = |nat: usize| {
        if fixed <= room {
            nat
        } else {
            (nat * room / fixed.max(1)).max(1)
        }
    };
    let fixed_given: usize = shown
        .iter()
        .zip(&weights)
        .filter(|(_, w)| w.is_none())
        .map(|((_, k), _)| shrink(natural[*k].max(1)))
        .sum();
    let left = avail.saturating_sub(fixed_given);
    let mut out: Vec<usize> = shown
        .iter()
        .zip(&weights)
        .map(|((_, k), w)| match w {
            None => shrink(natural[*k].max(1)),
            Some(w) => ((left as f64 * w / total_weight) as usize).max(1),
        })
        .collect();
    // Rounding leftovers go to the last weighted child.
    if let Some(last) = weights.iter().rposition(Option::is_some) {
        let used: usize = out.iter().sum();
        out[last] += avail.saturating_sub(used);
    }
    out
}

fn tab_titles(node: &Node) -> Vec<String> {
    prop(node, "tabs")
        .and_then(Value::as_array)
        .map(|tabs| tabs.iter().map(|t| show(t.get("title"))).collect())
        .unwrap_or_default()
}

fn media(node: &Node, width: usize) -> String {
    let url = prop_str(node, "url");
    let name = url
        .split(['?', '#'])
        .next()
        .unwrap_or("")
        .rsplit('/')
        .next()
        .unwrap_or("")
        .to_owned();
    match kind(node) {
        "Image" => format!("[image {}]", fit(&name, width.saturating_sub(8).min(30))),
        "Video" => format!("[video {}]", fit(&name, width.saturating_sub(8).min(30))),
        _ => {
            let about = prop_str(node, "description");
            let about = if about.is_empty() { &name } else { &about };
            format!("[audio ▶ {}]", fit(about, width.saturating_sub(10).min(40)))
        }
    }
}

fn pending_text(node: &Node) -> String {
    format!("… {} (not defined yet)", node.component_id)
}

/// One node's block, its children's blocks already drawn.
fn block_of(
    index: usize,
    node: &Node,
    shown: Vec<(String, Block)>,
    width: usize,
    view: &View,
) -> Block {
    let mut block = Block::new(width);
    if node.component_type.is_none() {
        block.push(pending_text(node));
        return block;
    }
    let focus = |block: &mut Block, line: usize, col: usize, w: usize| {
        block.regions.push(Region {
            node: index,
            line,
            col,
            width: w,
        });
    };
    let label = prop_str(node, "label");
    match kind(node) {
        "Text" => {
            let variant = prop_str(node, "variant");
            for (level, line) in markdown(&prop_str(node, "text")) {
                let level = level.or_else(|| heading(&variant));
                let wrapped = wrap(&line, width);
                let under = wrapped.iter().map(|l| cells(l)).max().unwrap_or(0);
                for l in wrapped {
                    block.push(l);
                }
                match level {
                    Some(1) => block.push("═".repeat(under)),
                    Some(2) => block.push("─".repeat(under)),
                    _ => {}
                }
            }
        }
        _ if horizontal(node) => {
            let justify = prop_str(node, "justify");
            let align = prop_str(node, "align");
            let used: usize =
                shown.iter().map(|(_, b)| b.width).sum::<usize>() + shown.len().saturating_sub(1);
            let extra = width.saturating_sub(used);
            let gaps = shown.len().saturating_sub(1);
            let (lead, per_gap) = match justify.as_str() {
                "end" => (extra, 0),
                "center" => (extra / 2, 0),
                "spaceBetween" if gaps > 0 => (0, extra / gaps),
                "spaceAround" | "spaceEvenly" => {
                    let slots = shown.len() + 1;
                    (extra / slots, extra / slots)
                }
                _ => (0, 0),
            };
            let height = shown.iter().map(|(_, b)| b.lines.len()).max().unwrap_or(0);
            let mut rows = vec![" ".repeat(lead); height];
            let mut col = lead;
            let last = shown.len().saturating_sub(1);
            for (j, (_, kid)) in shown.into_iter().enumerate() {
                let top = match align.as_str() {
                    "center" => (height - kid.lines.len()) / 2,
                    "end" => height - kid.lines.len(),
                    _ => 0,
                };
                for r in &kid.regions {
                    block.regions.push(Region {
                        line: r.line + top,
                        col: r.col + col,
                        ..r.clone()
                    });
                }
                for (line, row) in rows.iter_mut().enumerate() {
                    let text = line
                        .checked_sub(top)
                        .and_then(|l| kid.lines.get(l))
                        .map_or("", String::as_str);
                    row.push_str(&pad(text, kid.width));
                    if j < last {
                        row.push_str(&" ".repeat(1 + per_gap));
                    }
                }
                col += kid.width + 1 + per_gap;
            }
            for row in rows {
                block.push(row);
            }
        }
        "Column" | "List" => {
            let align = prop_str(node, "align");
            for (_, kid) in shown {
                let col = match align.as_str() {
                    "center" => width.saturating_sub(kid.width) / 2,
                    "end" => width.saturating_sub(kid.width),
                    _ => 0,
                };
                block.append(kid, col);
            }
        }
        "Card" => {
            let inner = width.saturating_sub(4).max(1);
            block.push(format!("┌{}┐", "─".repeat(inner + 2)));
            for (_, kid) in shown {
                block.append_boxed(kid, inner, '│');
            }
            block.push(format!("└{}┘", "─".repeat(inner + 2)));
        }
        "Button" => {
            let inner: Vec<String> = shown
                .into_iter()
                .flat_map(|(_, kid)| kid.lines)
                .map(|l| l.trim_end().to_owned())
                .collect();
            let text_w = inner.iter().map(|l| cells(l)).max().unwrap_or(0);
            let suffix = if disabled(node) { " (disabled)" } else { "" };
            let (open, close, frame) = button_frame(node);
            for (i, line) in inner.iter().enumerate() {
                let end = if i == 0 { suffix } else { "" };
                block.push(format!("{open}{}{close}{end}", pad(line, text_w)));
            }
            if inner.is_empty() {
                block.push(format!("{open}{close}{suffix}"));
            }
            focus(
                &mut block,
                0,
                0,
                (text_w + frame - cells(suffix)).min(width),
            );
        }
        "TextField" | "DateTimeInput" => {
            let mut value = prop_str(node, "value");
            if prop_str(node, "variant") == "obscured" {
                value = "•".repeat(value.chars().count());
            }
            if kind(node) == "DateTimeInput" && value.is_empty() {
                value = match (prop(node, "enableDate"), prop(node, "enableTime")) {
                    (_, Some(Value::Bool(true))) => "YYYY-MM-DDThh:mm".into(),
                    _ => "YYYY-MM-DD".into(),
                };
            }
            let head = label_head(&label);
            let min_field = 10;
            let (line, col) = if cells(&head) + min_field + 2 <= width {
                (0, cells(&head))
            } else {
                block.push(label.clone());
                (1, 0)
            };
            let field = width.saturating_sub(col + 2).max(1);
            // The end of a text shows, as a field scrolled to its cursor does; a date shows
            // its start.
            let tail: String = if kind(node) == "DateTimeInput" {
                fit(&value, field)
            } else {
                let mut shown: Vec<char> = Vec::new();
                let mut used = 0;
                for c in value.chars().rev() {
                    let w = c.width().unwrap_or(0);
                    if used + w > field {
                        break;
                    }
                    shown.push(c);
                    used += w;
                }
                shown.into_iter().rev().collect()
            };
            let head = if line == 0 { head } else { String::new() };
            block.push(format!("{head}[{}]", pad(&tail, field)));
            focus(&mut block, line, col, field + 2);
            if let Some((false, messages)) = &node.checks {
                for m in messages {
                    for l in wrap(&format!("! {m}"), width.saturating_sub(2)) {
                        block.push(format!("  {l}"));
                    }
                }
            }
        }
        "CheckBox" => {
            let on = matches!(prop(node, "value"), Some(Value::Bool(true)));
            let mark = if on { "[x]" } else { "[ ]" };
            block.push(format!("{mark} {label}"));
            focus(&mut block, 0, 0, 3);
        }
        "ChoicePicker" => {
            let single = prop_str(node, "variant") != "multipleSelection";
            let chosen = selected(node);
            let cursor = view.cursor.get(&node.key()).copied().unwrap_or(0);
            if !label.is_empty() {
                block.push(label.clone());
            }
            let marks: Vec<String> = options(node)
                .iter()
                .enumerate()
                .map(|(i, (text, value))| {
                    let on = chosen.contains(value);
                    let mark = match (single, on) {
                        (true, true) => "(•)",
                        (true, false) => "( )",
                        (false, true) => "[x]",
                        (false, false) => "[ ]",
                    };
                    let pointer = if i == cursor { "›" } else { " " };
                    format!("{pointer}{mark} {text}")
                })
                .collect();
            let top = block.lines.len();
            if prop_str(node, "displayStyle") == "chips" {
                let mut line = String::new();
                for m in marks {
                    if !line.is_empty() && cells(&line) + 1 + cells(&m) > width {
                        block.push(std::mem::take(&mut line));
                    }
                    if !line.is_empty() {
                        line.push(' ');
                    }
                    line.push_str(&m);
                }
                block.push(line);
            } else {
                for m in marks {
                    block.push(m);
                }
            }
            let rows = block.lines.len() - top;
            for r in 0..rows {
                focus(&mut block, top + r, 0, width);
            }
        }
        "Slider" => {
            let min = prop(node, "min").and_then(Value::as_f64).unwrap_or(0.0);
            let max = prop(node, "max").and_then(Value::as_f64).unwrap_or(100.0);
            let value = prop(node, "value").and_then(Value::as_f64).unwrap_or(min);
            let head = label_head(&label);
            let number = show(prop(node, "value"));
            let track = width
                .saturating_sub(cells(&head) + cells(&number) + 3)
                .clamp(3, 20);
            let at = if max > min {
                (((value - min) / (max - min)).clamp(0.0, 1.0) * (track - 1) as f64).round()
                    as usize
            } else {
                0
            };
            let bar: String = (0..track)
                .map(|i| if i == at { '●' } else { '─' })
                .collect();
            block.push(format!("{head}├{bar}┤ {number}"));
            focus(&mut block, 0, cells(&head), track + 2);
        }
        "Tabs" => {
            let selected = view.tabs.get(&node.key()).copied().unwrap_or(0);
            let bar: Vec<String> = tab_titles(node)
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    if i == selected {
                        format!("[{t}]")
                    } else {
                        format!(" {t} ")
                    }
                })
                .collect();
            block.push(bar.join("│"));
            focus(&mut block, 0, 0, cells(&bar.join("│")).min(width));
            block.push("─".repeat(width));
            for (_, kid) in shown {
                block.append(kid, 0);
            }
        }
        "Modal" => {
            for (slot, kid) in shown {
                if slot == "content" {
                    let inner = width.saturating_sub(4).max(1);
                    let title = fit(" modal (Esc closes) ", inner + 2);
                    block.push(format!(
                        "╔{title}{}╗",
                        "═".repeat(inner + 2 - cells(&title))
                    ));
                    block.append_boxed(kid, inner, '║');
                    block.push(format!("╚{}╝", "═".repeat(inner + 2)));
                } else {
                    block.append(kid, 0);
                }
            }
        }
        "Divider" => {
            if prop_str(node, "axis") == "vertical" {
                block.push("│".into());
            } else {
                block.push("─".repeat(width));
            }
        }
        "Icon" => block.push(format!(":{}:", prop_str(node, "name"))),
        "Image" | "Video" | "AudioPlayer" => block.push(media(node, width)),
        other => {
            // A type this renderer does not know: its name, then its children.
            block.push(format!("‹{other} {}›", node.component_id));
            for (_, kid) in shown {
                block.append(kid, 2);
            }
        }
    }
    if let Some(NodeState::Failed(why)) = &node.state {
        for l in wrap(&format!("⚠ {}: {why}", node.component_id), width) {
            block.push(l);
        }
    }
    if let Some(NodeState::Pending) = &node.state {
        block.push(format!("… {} (waiting for a tool)", node.component_id));
    }
    block
}
