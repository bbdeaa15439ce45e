//! The protocol versions a message may say it is written in.

use std::fmt;

/// A protocol version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Version {
    /// `"v0.9"` (or no `version`).
    V0_9,
    /// `"v0.9.1"`.
    V0_9_1,
    /// `"v0.10"`.
    V0_10,
    /// `"v1.0"` or `"1.0"`.
    V1_0,
}

impl Version {
    /// Reads a version string: `"v1.0"` and `"1.0"` are both v1.0.
    ///
    /// ```
    /// use a2ui_catalog_mcp::stream::Version;
    /// assert_eq!(Version::parse("1.0"), Some(Version::V1_0));
    /// assert_eq!(Version::parse("v99.0"), None);
    /// ```
    pub fn parse(text: &str) -> Option<Version> {
        Some(match text {
            "v0.9" | "0.9" => Version::V0_9,
            "v0.9.1" | "0.9.1" => Version::V0_9_1,
            "v0.10" | "0.10" => Version::V0_10,
            "v1.0" | "1.0" => Version::V1_0,
            _ => return None,
        })
    }

    /// The version as written on the wire: `"1.0"` for v1.0 (the published v1.0 schemas'
    /// `{"const": "1.0"}`; `"v1.0"` is still read), `"v0.9"`, `"v0.9.1"`, `"v0.10"` for the
    /// older lines, whose schemas spell them so.
    ///
    /// ```
    /// use a2ui_catalog_mcp::stream::Version;
    /// assert_eq!(Version::parse("v1.0").unwrap().as_str(), "1.0");
    /// assert_eq!(Version::V0_9.as_str(), "v0.9");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Version::V0_9 => "v0.9",
            Version::V0_9_1 => "v0.9.1",
            Version::V0_10 => "v0.10",
            Version::V1_0 => "1.0",
        }
    }

    /// Whether this is the v1.0 line (inline components, `value: null` deletes, optional
    /// default catalog).
    pub fn is_v1(self) -> bool {
        self == Version::V1_0
    }

    /// Whether two versions belong to the same line for catalog purposes (v0.9 and v0.9.1 are
    /// one line).
    pub fn same_line(self, other: Version) -> bool {
        self.line() == other.line()
    }

    fn line(self) -> u8 {
        match self {
            Version::V0_9 | Version::V0_9_1 => 0,
            Version::V0_10 => 1,
            Version::V1_0 => 2,
        }
    }
}

impl fmt::Display for Version {
    /// The version's name in prose, as messages say it: `v0.9`, `v0.9.1`, `v0.10`, `v1.0`
    /// (the wire form is [`as_str`](Version::as_str)).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Version::V1_0 => "v1.0",
            other => other.as_str(),
        })
    }
}
