//! The crate's one error type.
//!
//! Every failure — a malformed payload, a bad path, a function that fails, a limit — comes back as
//! an [`Error`]: a [`ErrorCode`], the catalog function involved (if any), a JSON Pointer into the
//! payload, a message a person can act on, and the underlying source where there is one.
//!
//! `Display` prints one line; the alternate form (`{:#}`) prints every problem the compiler found,
//! each with its location, and the chain of sources.
//!
//! A [`Warning`] is not an error: something a payload compiles with but most likely does not
//! mean (a code, a location, a message, what to write instead).

use std::fmt;

/// Why something failed. The string forms ([`as_str`](ErrorCode::as_str)) are the A2UI error
/// codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorCode {
    /// A function failed, including an argument of the wrong type or an unknown function.
    ///
    /// `{"@call": "regexReplace", "args": {}}` (not in the MCP catalog).
    ExpressionError,
    /// A bad path or a write the data model cannot take.
    ///
    /// Writing `/name/first` when `/name` is a string.
    DataError,
    /// An unknown catalog id: `{"@call": "split", "catalogId": "", "args": {…}}`.
    CatalogError,
    /// A literal object key that starts with a single `@`: `{"@ref": "/x"}`.
    InvalidReservedKey,
    /// A payload of the wrong shape: a binding with extra keys, a missing or undeclared argument.
    ///
    /// `{"@path": "/docs", "recursive": true}`.
    ValidationFailed,
    /// A resource limit: payload depth, expression length, output size.
    ///
    /// A payload nested 200 arrays deep (the default limit is 128).
    LimitExceeded,
}

impl ErrorCode {
    /// The wire form of the code, as fixtures and other renderers spell it.
    ///
    /// ```
    /// use a2ui_catalog_mcp::ErrorCode;
    /// assert_eq!(ErrorCode::DataError.as_str(), "DATA_ERROR");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::ExpressionError => "EXPRESSION_ERROR",
            ErrorCode::DataError => "DATA_ERROR",
            ErrorCode::CatalogError => "CATALOG_ERROR",
            ErrorCode::InvalidReservedKey => "INVALID_RESERVED_KEY",
            ErrorCode::ValidationFailed => "VALIDATION_FAILED",
            ErrorCode::LimitExceeded => "LIMIT_EXCEEDED",
        }
    }

    /// Parses the wire form back (`"DATA_ERROR"` → [`ErrorCode::DataError`]).
    pub fn parse(s: &str) -> Option<ErrorCode> {
        Some(match s {
            "EXPRESSION_ERROR" => ErrorCode::ExpressionError,
            "DATA_ERROR" => ErrorCode::DataError,
            "CATALOG_ERROR" => ErrorCode::CatalogError,
            "INVALID_RESERVED_KEY" => ErrorCode::InvalidReservedKey,
            "VALIDATION_FAILED" => ErrorCode::ValidationFailed,
            "LIMIT_EXCEEDED" => ErrorCode::LimitExceeded,
            _ => return None,
        })
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// When the problem was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    /// While compiling the payload, before anything ran.
    Compile,
    /// While evaluating a compiled payload.
    Eval,
}

type Source = Box<dyn std::error::Error + Send + Sync + 'static>;
/// A source as kept: shared, so that an [`Error`] can be cloned (a renderer keeps the problems
/// it shows, and a host logs them and sends them on). The box is kept as it came, inside the
/// `Arc`: turning it into an `Arc<dyn Error>` would move the value to a new allocation of the
/// size its vtable gives, code a WebAssembly module pays for (docs/performance.md).
type SharedSource = std::sync::Arc<Source>;

/// Why a call was refused rather than failed, for a host to match without reading the message
/// ([`Error::denial`]). A denied call sent nothing and wrote nothing; its message (and
/// `Display`) says why in words, as before.
///
/// ```
/// use a2ui_catalog_mcp::{Denial, Error, ErrorCode};
/// # fn react(err: &Error) -> &'static str {
/// match err.denial() {
///     Some(Denial::UserActivation) => "ask the user to tap",
///     Some(Denial::Policy) => "the host's policy said no",
///     Some(_) => "refused",
///     None => "failed",
/// }
/// # }
/// # assert_eq!(react(&Error::new(ErrorCode::ExpressionError, "x")), "failed");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Denial {
    /// The host's [`ToolPolicy`](crate::mcp::ToolPolicy) denied the tool call (a consent
    /// refused included).
    Policy,
    /// An `McpApp` widget asked for a tool its `allowedTools` does not list.
    AllowedTools,
    /// The tool's MCP Apps visibility (`_meta.ui.visibility`) keeps it from this caller.
    Visibility,
    /// The function needs user activation (`requiresUserActivation`) and the call does not
    /// come from a user's action.
    UserActivation,
    /// The function's `allowedCallers` does not admit the caller (the agent or the renderer).
    AllowedCallers,
    /// The tool's `structuredContent` does not match its `outputSchema`, and the host chose to
    /// fail such calls (nothing was written).
    OutputSchema,
}

impl Denial {
    /// A stable name: `"policy"`, `"allowedTools"`, `"visibility"`, `"userActivation"`,
    /// `"allowedCallers"`, `"outputSchema"` (what fixtures and logs use).
    pub fn as_str(self) -> &'static str {
        match self {
            Denial::Policy => "policy",
            Denial::AllowedTools => "allowedTools",
            Denial::Visibility => "visibility",
            Denial::UserActivation => "userActivation",
            Denial::AllowedCallers => "allowedCallers",
            Denial::OutputSchema => "outputSchema",
        }
    }

    /// The denial of a name ([`as_str`](Denial::as_str)).
    pub fn parse(text: &str) -> Option<Denial> {
        [
            Denial::Policy,
            Denial::AllowedTools,
            Denial::Visibility,
            Denial::UserActivation,
            Denial::AllowedCallers,
            Denial::OutputSchema,
        ]
        .into_iter()
        .find(|d| d.as_str() == text)
    }
}

impl fmt::Display for Denial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The kind of a problem, as the A2UI conformance suite names error categories
/// ([`Error::category`]). [`code`](Category::code) is the one map between categories and
/// codes; a code's category is read from it backwards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Category {
    /// The message or a component is malformed or does not match its schema.
    Validation,
    /// The surfaces' state forbids it: a deleted surface, duplicate ids, a cycle, a dangling
    /// child in strict mode.
    Integrity,
    /// A catalog is unknown, empty, missing or of another protocol version.
    Catalog,
    /// Nesting or size past a limit (depth, component count): `LIMIT_EXCEEDED`.
    Recursion,
}

impl Category {
    /// The suite's name: `ValidationError`, `IntegrityError`, `CatalogError`, `RecursionError`.
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Validation => "ValidationError",
            Category::Integrity => "IntegrityError",
            Category::Catalog => "CatalogError",
            Category::Recursion => "RecursionError",
        }
    }

    /// The category of an error that was given none: the one whose
    /// [`code`](Category::code) is `code` (`VALIDATION_FAILED` is a validation problem).
    ///
    /// ```
    /// use a2ui_catalog_mcp::{ErrorCode, stream::Category};
    /// assert_eq!(Category::of_code(ErrorCode::LimitExceeded), Category::Recursion);
    /// assert_eq!(Category::of_code(ErrorCode::DataError), Category::Validation);
    /// ```
    pub fn of_code(code: ErrorCode) -> Category {
        [Category::Catalog, Category::Recursion]
            .into_iter()
            .find(|c| c.code() == code)
            .unwrap_or(Category::Validation)
    }

    /// The crate's [`ErrorCode`] for this category.
    pub fn code(self) -> ErrorCode {
        match self {
            Category::Validation | Category::Integrity => ErrorCode::ValidationFailed,
            Category::Catalog => ErrorCode::CatalogError,
            Category::Recursion => ErrorCode::LimitExceeded,
        }
    }
}

/// Which catalog a call could not find ([`Error::missing_catalog`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MissingCatalog {
    /// The catalog with this id is not registered.
    NotRegistered(String),
    /// The call names no `catalogId`, and where it was compiled there is no default catalog
    /// (a surface created without one, an agent's call that belongs to no surface).
    NoDefault,
}

/// The crate's error: a code, an optional function, a location, a message and a source.
///
/// Compiling reports every static problem at once: the first is this error's own fields, the
/// others are in [`Error::related`].
///
/// ```
/// use a2ui_catalog_mcp::{Environment, ErrorCode};
/// use serde_json::json;
///
/// let env = Environment::new();
/// let err = env.compile(&json!({"title": "x", "@ref": "/x"})).unwrap_err();
/// assert_eq!(err.code(), ErrorCode::InvalidReservedKey);
/// assert_eq!(err.location(), "/@ref");
/// assert_eq!(err.to_string(), "INVALID_RESERVED_KEY at /@ref: the key '@ref' starts with a reserved '@'; write '@@ref' for a literal key '@ref'");
/// ```
#[derive(Clone)]
pub struct Error {
    inner: Box<Inner>,
}

#[derive(Clone)]
struct Inner {
    code: ErrorCode,
    phase: Phase,
    function: Option<String>,
    location: String,
    message: String,
    source: Option<SharedSource>,
    denial: Option<Denial>,
    missing_catalog: Option<MissingCatalog>,
    category: Option<Category>,
    message_index: Option<usize>,
    surface_id: Option<String>,
    related: Vec<Error>,
}

impl Error {
    /// A new error with a code and a message; location root, no function, evaluation phase.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Error {
        Error {
            inner: Box::new(Inner {
                code,
                phase: Phase::Eval,
                function: None,
                location: String::new(),
                message: message.into(),
                source: None,
                denial: None,
                missing_catalog: None,
                category: None,
                message_index: None,
                surface_id: None,
                related: Vec::new(),
            }),
        }
    }

    /// A problem of a message, of the A2UI suite's `category`, at `pointer` inside the message
    /// (its code is the category's): what a host reports of a message it could not read.
    ///
    /// ```
    /// use a2ui_catalog_mcp::{Error, ErrorCode, stream::Category};
    /// let err = Error::in_message(Category::Integrity, "/updateComponents/components/1", "duplicate id 'a'");
    /// assert_eq!((err.code(), err.category().as_str()), (ErrorCode::ValidationFailed, "IntegrityError"));
    /// ```
    pub fn in_message(
        category: Category,
        pointer: impl Into<String>,
        message: impl Into<String>,
    ) -> Error {
        Error::new(category.code(), message)
            .with_location(pointer)
            .with_category(category)
    }

    /// Sets the function involved.
    pub fn with_function(mut self, function: impl Into<String>) -> Error {
        self.inner.function = Some(function.into());
        self
    }

    /// Sets the location (a JSON Pointer into the payload).
    pub fn with_location(mut self, location: impl Into<String>) -> Error {
        self.inner.location = location.into();
        self
    }

    /// Sets the phase.
    pub fn with_phase(mut self, phase: Phase) -> Error {
        self.inner.phase = phase;
        self
    }

    /// Attaches the underlying error.
    pub fn with_source(mut self, source: impl Into<Source>) -> Error {
        self.inner.source = Some(std::sync::Arc::new(source.into()));
        self
    }

    /// Marks the error as a refusal of this kind (see [`Error::denial`]).
    pub fn with_denial(mut self, denial: Denial) -> Error {
        self.inner.denial = Some(denial);
        self
    }

    /// Why the call was refused, when it was refused (by the host's policy, an app's
    /// `allowedTools`, a tool's visibility, a catalog's `requiresUserActivation` or
    /// `allowedCallers`, a tool's `outputSchema`) rather than failed: match on it instead of
    /// the message.
    pub fn denial(&self) -> Option<Denial> {
        self.inner.denial
    }

    /// Marks the error as a call that found no catalog (see [`Error::missing_catalog`]).
    pub fn with_missing_catalog(mut self, missing: MissingCatalog) -> Error {
        self.inner.missing_catalog = Some(missing);
        self
    }

    /// Which catalog a call could not find, when that is why it failed: a `catalogId` that is
    /// not registered, or a call that names none where there is no default catalog. Match on
    /// it instead of the message.
    ///
    /// ```
    /// use a2ui_catalog_mcp::{Environment, MissingCatalog};
    /// use serde_json::json;
    ///
    /// let err = Environment::new()
    ///     .compile(&json!({"@call": "split", "catalogId": "elsewhere", "args": {"value": "a", "separator": ","}}))
    ///     .unwrap_err();
    /// assert_eq!(err.missing_catalog(), Some(&MissingCatalog::NotRegistered("elsewhere".into())));
    /// ```
    pub fn missing_catalog(&self) -> Option<&MissingCatalog> {
        self.inner.missing_catalog.as_ref()
    }

    /// Sets the A2UI suite's category (see [`Error::category`]).
    pub fn with_category(mut self, category: Category) -> Error {
        self.inner.category = Some(category);
        self
    }

    /// The A2UI conformance suite's category of this problem (`ValidationError`,
    /// `IntegrityError`, `CatalogError`, `RecursionError`): the one it was given where a
    /// message was judged, else its code's ([`Category::of_code`]).
    ///
    /// ```
    /// use a2ui_catalog_mcp::surfaces::{Processor, ProcessorOptions};
    /// use a2ui_catalog_mcp::stream::Category;
    /// use serde_json::json;
    /// let mut p = Processor::new(ProcessorOptions::default());
    /// let err = p.process(&json!({"version": "v1.0", "deleteSurface": {"surfaceId": 5}})).unwrap_err();
    /// assert_eq!((err.category(), err.category().as_str()), (Category::Validation, "ValidationError"));
    /// assert_eq!(err.message_index(), Some(0));
    /// ```
    pub fn category(&self) -> Category {
        self.inner
            .category
            .unwrap_or_else(|| Category::of_code(self.inner.code))
    }

    /// Sets the index of the message the problem is in (see [`Error::message_index`]).
    pub fn with_message_index(mut self, index: usize) -> Error {
        self.inner.message_index = Some(index);
        self
    }

    /// This problem as message `index`'s, about `surface_id` when it is known: what the
    /// processor refuses a message with.
    pub(crate) fn of_message(mut self, index: usize, surface_id: Option<String>) -> Error {
        self.inner.message_index = Some(index);
        self.inner.surface_id = surface_id;
        self
    }

    /// The index (0-based) of the message of a stream the problem is in, when it is a problem
    /// of a message; its [`location`](Error::location) is then a JSON Pointer inside that
    /// message.
    pub fn message_index(&self) -> Option<usize> {
        self.inner.message_index
    }

    /// The underlying error, taken out (to attach it to an error that rephrases this one
    /// with [`with_shared_source`](Error::with_shared_source)).
    pub(crate) fn into_source(self) -> Option<SharedSource> {
        self.inner.source
    }

    /// Attaches an underlying error taken from another ([`into_source`](Error::into_source)).
    pub(crate) fn with_shared_source(mut self, source: SharedSource) -> Error {
        self.inner.source = Some(source);
        self
    }

    /// Sets the surface the problem is about (see [`Error::surface_id`]).
    pub fn with_surface_id(mut self, surface_id: impl Into<String>) -> Error {
        self.inner.surface_id = Some(surface_id.into());
        self
    }

    /// The surface a refused message is about, when it could be read (a problem the
    /// [`Processor`](crate::surfaces::Processor) found).
    pub fn surface_id(&self) -> Option<&str> {
        self.inner.surface_id.as_deref()
    }

    /// Fills in the function and location where they are not set yet (the innermost wins).
    pub(crate) fn at_call(mut self, function: &str, location: &str) -> Error {
        if self.inner.function.is_none() {
            self.inner.function = Some(function.to_owned());
        }
        if self.inner.location.is_empty() {
            location.clone_into(&mut self.inner.location);
        }
        self
    }

    /// Builds one error from several problems found together (the first leads).
    pub(crate) fn from_many(mut errors: Vec<Error>) -> Option<Error> {
        if errors.is_empty() {
            return None;
        }
        let mut first = errors.remove(0);
        first.inner.related = errors;
        Some(first)
    }

    /// The code.
    pub fn code(&self) -> ErrorCode {
        self.inner.code
    }

    /// When it was found.
    pub fn phase(&self) -> Phase {
        self.inner.phase
    }

    /// The catalog function involved, when there is one.
    pub fn function(&self) -> Option<&str> {
        self.inner.function.as_deref()
    }

    /// A JSON Pointer into the payload to the failing node (`""` is the payload itself).
    pub fn location(&self) -> &str {
        &self.inner.location
    }

    /// The message, without code or location.
    pub fn message(&self) -> &str {
        &self.inner.message
    }

    /// The other problems found in the same compilation.
    pub fn related(&self) -> &[Error] {
        &self.inner.related
    }

    /// This problem and the related ones, in the order they were found.
    pub fn problems(&self) -> impl Iterator<Item = &Error> {
        std::iter::once(self).chain(self.inner.related.iter())
    }

    /// `CODE in function at /pointer: message`; a problem of a message of a stream says the
    /// message first: `message 2 at /pointer: CODE in function: message`.
    fn write_line(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = display_location(&self.inner.location);
        match self.inner.message_index {
            Some(index) => write!(f, "message {index} at {at}: {}", self.inner.code)?,
            None => write!(f, "{}", self.inner.code)?,
        }
        if let Some(function) = &self.inner.function {
            write!(f, " in {function}")?;
        }
        match self.inner.message_index {
            Some(_) => write!(f, ": {}", self.inner.message),
            None => write!(f, " at {at}: {}", self.inner.message),
        }
    }

    /// This problem and the related ones, as separate errors (sources kept).
    pub(crate) fn into_problems(self) -> Vec<Error> {
        let mut first = self;
        let related = std::mem::take(&mut first.inner.related);
        let mut all = Vec::with_capacity(1 + related.len());
        all.push(first);
        all.extend(related);
        all
    }
}

fn display_location(location: &str) -> &str {
    if location.is_empty() { "/" } else { location }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !f.alternate() {
            self.write_line(f)?;
            if !self.inner.related.is_empty() {
                write!(f, " (and {} more)", self.inner.related.len())?;
            }
            return Ok(());
        }
        let phase = match self.inner.phase {
            Phase::Compile => "compiling the payload",
            Phase::Eval => "evaluating the payload",
        };
        let n = 1 + self.inner.related.len();
        writeln!(
            f,
            "{n} problem{} found while {phase}:",
            if n == 1 { "" } else { "s" }
        )?;
        for problem in self.problems() {
            write!(f, "  - ")?;
            problem.write_line(f)?;
            let mut source = problem
                .inner
                .source
                .as_deref()
                .map(|s| &**s as &(dyn std::error::Error + 'static));
            // Messages usually quote their source: a cause is shown only when it says more than
            // what is already written (for this crate's errors, more than their message).
            let mut shown = problem.inner.message.clone();
            while let Some(s) = source {
                let said = match s.downcast_ref::<Error>() {
                    Some(inner) => inner.message().to_owned(),
                    None => s.to_string(),
                };
                if !shown.contains(&said) {
                    write!(f, "\n      caused by: {s}")?;
                    shown.push('\n');
                    shown.push_str(&said);
                }
                source = s.source();
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("code", &self.inner.code)
            .field("phase", &self.inner.phase)
            .field("function", &self.inner.function)
            .field("location", &self.inner.location)
            .field("message", &self.inner.message)
            .field("denial", &self.inner.denial)
            .field("missing_catalog", &self.inner.missing_catalog)
            .field("category", &self.inner.category)
            .field("message_index", &self.inner.message_index)
            .field("surface_id", &self.inner.surface_id)
            .field("related", &self.inner.related)
            .finish()
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.inner
            .source
            .as_deref()
            .map(|s| &**s as &(dyn std::error::Error + 'static))
    }
}

/// What a [`Warning`] is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum WarningCode {
    /// A literal object shaped exactly like a binding or a call of the spelling the environment
    /// does not read (`{"path": "/x"}` when it reads `{"@path": "/x"}`): most likely a dynamic
    /// value written for another renderer, which this one shows as the object itself.
    OtherSpelling,
    /// A component of a surface that is not reachable from its `root` when the stream ends
    /// (not an error: an incremental update leaves the placeholders it replaced unreachable).
    UnreachableComponent,
}

impl WarningCode {
    /// The wire form, as fixtures and the CLI's `--json` spell it.
    ///
    /// ```
    /// use a2ui_catalog_mcp::WarningCode;
    /// assert_eq!(WarningCode::OtherSpelling.as_str(), "OTHER_SPELLING");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            WarningCode::OtherSpelling => "OTHER_SPELLING",
            WarningCode::UnreachableComponent => "UNREACHABLE_COMPONENT",
        }
    }
}

impl fmt::Display for WarningCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Something a payload compiles with but most likely does not mean. A warning never changes
/// what the payload does: it compiles, and evaluates as written.
///
/// ```
/// use a2ui_catalog_mcp::{Environment, WarningCode};
/// use serde_json::json;
///
/// let payload = Environment::new().compile(&json!({"title": {"path": "/name"}}))?;
/// let warning = &payload.warnings()[0];
/// assert_eq!(warning.code(), WarningCode::OtherSpelling);
/// assert_eq!(warning.location(), "/title");
/// assert_eq!(warning.suggestion(), Some(r#"{"@path": "/name"}"#));
/// assert_eq!(payload.eval(&mut json!({"name": "Ada"}))?, json!({"title": {"path": "/name"}}));
/// # Ok::<(), a2ui_catalog_mcp::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    code: WarningCode,
    location: String,
    message: String,
    suggestion: Option<String>,
    message_index: Option<usize>,
    surface_id: Option<String>,
}

impl Warning {
    /// A warning with a code and a message, located at the root.
    pub fn new(code: WarningCode, message: impl Into<String>) -> Warning {
        Warning {
            code,
            location: String::new(),
            message: message.into(),
            suggestion: None,
            message_index: None,
            surface_id: None,
        }
    }

    /// Sets the index of the message the warning is about (see [`Warning::message_index`]).
    pub fn with_message_index(mut self, index: usize) -> Warning {
        self.message_index = Some(index);
        self
    }

    /// The index (0-based) of the message of a stream the warning is about, when it is about a
    /// message (a [`Report`](crate::messages::Report)'s, a
    /// [`Processor`](crate::surfaces::Processor)'s); its [`location`](Warning::location) is then
    /// a JSON Pointer inside that message.
    pub fn message_index(&self) -> Option<usize> {
        self.message_index
    }

    /// Sets the surface the warning is about (see [`Warning::surface_id`]).
    pub fn with_surface_id(mut self, surface_id: impl Into<String>) -> Warning {
        self.surface_id = Some(surface_id.into());
        self
    }

    /// The surface the warning is about, when the processor gave it.
    pub fn surface_id(&self) -> Option<&str> {
        self.surface_id.as_deref()
    }

    /// Sets the location (a JSON Pointer into the payload).
    pub fn with_location(mut self, location: impl Into<String>) -> Warning {
        self.location = location.into();
        self
    }

    /// Sets what to write instead.
    pub fn with_suggestion(mut self, suggestion: impl Into<String>) -> Warning {
        self.suggestion = Some(suggestion.into());
        self
    }

    /// The code.
    pub fn code(&self) -> WarningCode {
        self.code
    }

    /// A JSON Pointer into the payload to the node concerned (`""` is the payload itself).
    pub fn location(&self) -> &str {
        &self.location
    }

    /// What looks wrong and what to do, without code or location.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// What to write instead, when there is one thing to write (`{"@path": "/name"}`; a call's
    /// other members are shown as `…`).
    pub fn suggestion(&self) -> Option<&str> {
        self.suggestion.as_deref()
    }
}

impl fmt::Display for Warning {
    /// `OTHER_SPELLING at /title: …`, like an [`Error`]; about a message of a stream,
    /// `message 1 at /updateComponents/components/0/text: warning OTHER_SPELLING: …`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = display_location(&self.location);
        match self.message_index {
            Some(index) => write!(
                f,
                "message {index} at {at}: warning {}: {}",
                self.code, self.message
            ),
            None => write!(f, "{} at {at}: {}", self.code, self.message),
        }
    }
}

/// A shorthand for results of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    /// A source error with its own source.
    #[derive(Debug)]
    struct Cause(&'static str, Option<Box<Cause>>);

    impl fmt::Display for Cause {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(self.0)
        }
    }

    impl std::error::Error for Cause {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            self.1
                .as_deref()
                .map(|c| c as &(dyn std::error::Error + 'static))
        }
    }

    #[test]
    fn alternate_form_shows_only_causes_that_add_something() {
        // The message quotes its source, whose own source says more.
        let err = Error::new(
            ErrorCode::ExpressionError,
            "Invalid regex pattern: unterminated group at offset 0: (a",
        )
        .with_source(Box::new(Cause(
            "unterminated group at offset 0: (a",
            Some(Box::new(Cause("a deeper reason", None))),
        )) as Source);
        assert_eq!(
            format!("{err:#}"),
            "1 problem found while evaluating the payload:\n  - EXPRESSION_ERROR at /: Invalid \
             regex pattern: unterminated group at offset 0: (a\n      caused by: a deeper \
             reason\n"
        );
        // This crate's own error as the source, with the same message: its code and location
        // are not news either.
        let inner = Error::new(ErrorCode::ValidationFailed, "bad").with_location("/text");
        let err = Error::new(ErrorCode::ExpressionError, "bad").with_source(inner);
        assert!(!format!("{err:#}").contains("caused by"), "{err:#}");
        // A source that the message does not quote is shown.
        let err = Error::new(ErrorCode::ExpressionError, "the tool failed")
            .with_source(Box::new(Cause("connection reset", None)) as Source);
        assert_eq!(
            format!("{err:#}"),
            "1 problem found while evaluating the payload:\n  - EXPRESSION_ERROR at /: the tool \
             failed\n      caused by: connection reset\n"
        );
    }
}
