//! The MIME types of A2UI and MCP App content, and the lenient checks readers use on them.

/// The MIME type of A2UI content: `application/a2ui+json`. Writers always use this spelling.
///
/// ```
/// assert_eq!(a2ui_catalog_mcp::mcp::protocol::MIME_TYPE, "application/a2ui+json");
/// ```
pub const MIME_TYPE: &str = "application/a2ui+json";

/// The older spelling of [`MIME_TYPE`], `application/json+a2ui`, still sent by servers written
/// from the first A2UI-over-MCP guide. Readers accept it; nothing here writes it.
///
/// ```
/// use a2ui_catalog_mcp::mcp::protocol::{is_a2ui_mime_type, LEGACY_MIME_TYPE};
/// assert_eq!(LEGACY_MIME_TYPE, "application/json+a2ui");
/// assert!(is_a2ui_mime_type(LEGACY_MIME_TYPE));
/// ```
pub const LEGACY_MIME_TYPE: &str = "application/json+a2ui";

/// The MIME type of an MCP App (an HTML resource for the MCP Apps bridge):
/// `text/html;profile=mcp-app`.
///
/// ```
/// use a2ui_catalog_mcp::mcp::protocol::{is_mcp_app_mime_type, MCP_APP_MIME_TYPE};
/// assert_eq!(MCP_APP_MIME_TYPE, "text/html;profile=mcp-app");
/// assert!(is_mcp_app_mime_type(MCP_APP_MIME_TYPE));
/// ```
pub const MCP_APP_MIME_TYPE: &str = "text/html;profile=mcp-app";

/// Splits a MIME type into its essence and its parameters (`name`, `value`), trimming the ASCII
/// spaces around each part and the quotes around a quoted value.
fn split_mime(mime: &str) -> (&str, impl Iterator<Item = (&str, &str)>) {
    let mut parts = mime.split(';');
    let essence = parts.next().unwrap_or("").trim_ascii();
    let params = parts.filter_map(|part| {
        let (name, value) = part.split_once('=')?;
        let value = value.trim_ascii();
        let value = value
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .unwrap_or(value);
        Some((name.trim_ascii(), value))
    });
    (essence, params)
}

/// Whether `mime` names A2UI content: [`MIME_TYPE`] or [`LEGACY_MIME_TYPE`], compared
/// case-insensitively, with parameters (`; charset=utf-8`) and surrounding spaces ignored.
///
/// ```
/// use a2ui_catalog_mcp::mcp::protocol::is_a2ui_mime_type;
/// assert!(is_a2ui_mime_type("application/a2ui+json"));
/// assert!(is_a2ui_mime_type("Application/A2UI+JSON; charset=utf-8"));
/// assert!(is_a2ui_mime_type("application/json+a2ui"));
/// assert!(!is_a2ui_mime_type("application/json"));
/// assert!(!is_a2ui_mime_type("application/a2ui+jsonx"));
/// ```
pub fn is_a2ui_mime_type(mime: &str) -> bool {
    let (essence, _) = split_mime(mime);
    essence.eq_ignore_ascii_case(MIME_TYPE) || essence.eq_ignore_ascii_case(LEGACY_MIME_TYPE)
}

/// Whether `mime` names an MCP App: `text/html` with the parameter `profile=mcp-app`, compared
/// case-insensitively, with spaces around `;` and `=` ignored and other parameters allowed.
///
/// ```
/// use a2ui_catalog_mcp::mcp::protocol::is_mcp_app_mime_type;
/// assert!(is_mcp_app_mime_type("text/html;profile=mcp-app"));
/// assert!(is_mcp_app_mime_type("TEXT/HTML ; charset=utf-8; Profile=MCP-App"));
/// assert!(is_mcp_app_mime_type("text/html; profile=\"mcp-app\""));
/// assert!(!is_mcp_app_mime_type("text/html"));
/// assert!(!is_mcp_app_mime_type("text/plain;profile=mcp-app"));
/// ```
pub fn is_mcp_app_mime_type(mime: &str) -> bool {
    let (essence, mut params) = split_mime(mime);
    essence.eq_ignore_ascii_case("text/html")
        && params.any(|(name, value)| {
            name.eq_ignore_ascii_case("profile") && value.eq_ignore_ascii_case("mcp-app")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a2ui_mime_ignores_case_parameters_and_spaces() {
        for mime in [
            "application/a2ui+json",
            " application/a2ui+json ",
            "application/a2ui+json;charset=utf-8",
            "APPLICATION/JSON+A2UI ; charset=utf-8",
        ] {
            assert!(is_a2ui_mime_type(mime), "{mime}");
        }
        for mime in [
            "",
            ";",
            "application/json",
            "text/html;profile=mcp-app",
            "application/a2ui",
        ] {
            assert!(!is_a2ui_mime_type(mime), "{mime}");
        }
    }

    #[test]
    fn mcp_app_mime_needs_the_profile_parameter() {
        assert!(is_mcp_app_mime_type("text/html ;profile = mcp-app"));
        assert!(!is_mcp_app_mime_type("text/html;profile=mcp-apps"));
        assert!(!is_mcp_app_mime_type("text/html;profile"));
        assert!(!is_mcp_app_mime_type("text/html;charset=mcp-app"));
        assert!(!is_mcp_app_mime_type(""));
    }
}
