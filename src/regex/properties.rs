//! `\p{…}` names: which ones the dialect accepts, and their code point sets.
//!
//! JavaScript matches property names exactly (no loose matching, case-sensitive); the names kept
//! here are those that Node.js 20 accepts and that `regex-syntax` defines with the same meaning.
//! Sets come from `regex-syntax`'s Unicode tables (Unicode 16.0); Node.js 20 may use a newer
//! Unicode version, so the two can differ on code points assigned after Unicode 16.0.

use super::ast::PropertyKind;
use regex_syntax::hir::{ClassUnicode, HirKind};

/// General_Category values and aliases (ECMA-262 table "Value aliases and canonical values for the
/// Unicode property General_Category"), mapped to the canonical name; sorted by name.
///
/// `Cs`/`Surrogate` is left out on purpose: it matches only lone surrogates, which well-formed
/// text never holds.
const GENERAL_CATEGORIES: &[(&str, &str)] = &[
    ("C", "Other"),
    ("Cased_Letter", "Cased_Letter"),
    ("Cc", "Control"),
    ("Cf", "Format"),
    ("Close_Punctuation", "Close_Punctuation"),
    ("Cn", "Unassigned"),
    ("Co", "Private_Use"),
    ("Combining_Mark", "Mark"),
    ("Connector_Punctuation", "Connector_Punctuation"),
    ("Control", "Control"),
    ("Currency_Symbol", "Currency_Symbol"),
    ("Dash_Punctuation", "Dash_Punctuation"),
    ("Decimal_Number", "Decimal_Number"),
    ("Enclosing_Mark", "Enclosing_Mark"),
    ("Final_Punctuation", "Final_Punctuation"),
    ("Format", "Format"),
    ("Initial_Punctuation", "Initial_Punctuation"),
    ("L", "Letter"),
    ("LC", "Cased_Letter"),
    ("Letter", "Letter"),
    ("Letter_Number", "Letter_Number"),
    ("Line_Separator", "Line_Separator"),
    ("Ll", "Lowercase_Letter"),
    ("Lm", "Modifier_Letter"),
    ("Lo", "Other_Letter"),
    ("Lowercase_Letter", "Lowercase_Letter"),
    ("Lt", "Titlecase_Letter"),
    ("Lu", "Uppercase_Letter"),
    ("M", "Mark"),
    ("Mark", "Mark"),
    ("Math_Symbol", "Math_Symbol"),
    ("Mc", "Spacing_Mark"),
    ("Me", "Enclosing_Mark"),
    ("Mn", "Nonspacing_Mark"),
    ("Modifier_Letter", "Modifier_Letter"),
    ("Modifier_Symbol", "Modifier_Symbol"),
    ("N", "Number"),
    ("Nd", "Decimal_Number"),
    ("Nl", "Letter_Number"),
    ("No", "Other_Number"),
    ("Nonspacing_Mark", "Nonspacing_Mark"),
    ("Number", "Number"),
    ("Open_Punctuation", "Open_Punctuation"),
    ("Other", "Other"),
    ("Other_Letter", "Other_Letter"),
    ("Other_Number", "Other_Number"),
    ("Other_Punctuation", "Other_Punctuation"),
    ("Other_Symbol", "Other_Symbol"),
    ("P", "Punctuation"),
    ("Paragraph_Separator", "Paragraph_Separator"),
    ("Pc", "Connector_Punctuation"),
    ("Pd", "Dash_Punctuation"),
    ("Pe", "Close_Punctuation"),
    ("Pf", "Final_Punctuation"),
    ("Pi", "Initial_Punctuation"),
    ("Po", "Other_Punctuation"),
    ("Private_Use", "Private_Use"),
    ("Ps", "Open_Punctuation"),
    ("Punctuation", "Punctuation"),
    ("S", "Symbol"),
    ("Sc", "Currency_Symbol"),
    ("Separator", "Separator"),
    ("Sk", "Modifier_Symbol"),
    ("Sm", "Math_Symbol"),
    ("So", "Other_Symbol"),
    ("Space_Separator", "Space_Separator"),
    ("Spacing_Mark", "Spacing_Mark"),
    ("Symbol", "Symbol"),
    ("Titlecase_Letter", "Titlecase_Letter"),
    ("Unassigned", "Unassigned"),
    ("Uppercase_Letter", "Uppercase_Letter"),
    ("Z", "Separator"),
    ("Zl", "Line_Separator"),
    ("Zp", "Paragraph_Separator"),
    ("Zs", "Space_Separator"),
    ("cntrl", "Control"),
    ("digit", "Decimal_Number"),
    ("punct", "Punctuation"),
];

/// The binary properties of the dialect (a subset of ECMA-262's table of binary Unicode
/// properties, each checked code point by code point against Node.js in `tests/regex_vs_v8.rs`),
/// with their aliases; sorted by name.
///
/// `Extended_Pictographic` is left out: Unicode 17.0 moved hundreds of code points out of it, so
/// engines on Unicode 16.0 and 17.0 disagree on it.
const BINARY: &[(&str, &str)] = &[
    ("AHex", "ASCII_Hex_Digit"),
    ("ASCII", "ASCII"),
    ("ASCII_Hex_Digit", "ASCII_Hex_Digit"),
    ("Alpha", "Alphabetic"),
    ("Alphabetic", "Alphabetic"),
    ("Any", "Any"),
    ("Assigned", "Assigned"),
    ("Dash", "Dash"),
    ("EBase", "Emoji_Modifier_Base"),
    ("EComp", "Emoji_Component"),
    ("EMod", "Emoji_Modifier"),
    ("EPres", "Emoji_Presentation"),
    ("Emoji", "Emoji"),
    ("Emoji_Component", "Emoji_Component"),
    ("Emoji_Modifier", "Emoji_Modifier"),
    ("Emoji_Modifier_Base", "Emoji_Modifier_Base"),
    ("Emoji_Presentation", "Emoji_Presentation"),
    ("Hex", "Hex_Digit"),
    ("Hex_Digit", "Hex_Digit"),
    ("IDC", "ID_Continue"),
    ("IDS", "ID_Start"),
    ("ID_Continue", "ID_Continue"),
    ("ID_Start", "ID_Start"),
    ("Ideo", "Ideographic"),
    ("Ideographic", "Ideographic"),
    ("Lower", "Lowercase"),
    ("Lowercase", "Lowercase"),
    ("Math", "Math"),
    ("NChar", "Noncharacter_Code_Point"),
    ("Noncharacter_Code_Point", "Noncharacter_Code_Point"),
    ("Pat_Syn", "Pattern_Syntax"),
    ("Pat_WS", "Pattern_White_Space"),
    ("Pattern_Syntax", "Pattern_Syntax"),
    ("Pattern_White_Space", "Pattern_White_Space"),
    ("QMark", "Quotation_Mark"),
    ("Quotation_Mark", "Quotation_Mark"),
    ("RI", "Regional_Indicator"),
    ("Regional_Indicator", "Regional_Indicator"),
    ("Upper", "Uppercase"),
    ("Uppercase", "Uppercase"),
    ("White_Space", "White_Space"),
    ("XIDC", "XID_Continue"),
    ("XIDS", "XID_Start"),
    ("XID_Continue", "XID_Continue"),
    ("XID_Start", "XID_Start"),
    ("space", "White_Space"),
];

use super::scripts::SCRIPTS;

fn lookup(table: &'static [(&'static str, &'static str)], name: &str) -> Option<&'static str> {
    table
        .binary_search_by(|(n, _)| (*n).cmp(name))
        .ok()
        .map(|i| table[i].1)
}

/// Resolves the text between the braces of `\p{…}` (`Lu`, `Script=Greek`, `scx=Latn`).
pub(super) fn resolve(text: &str) -> Option<PropertyKind> {
    match text.split_once('=') {
        None => lookup(GENERAL_CATEGORIES, text)
            .map(PropertyKind::GeneralCategory)
            .or_else(|| lookup(BINARY, text).map(PropertyKind::Binary)),
        Some((name, value)) => match name {
            "General_Category" | "gc" => {
                lookup(GENERAL_CATEGORIES, value).map(PropertyKind::GeneralCategory)
            }
            "Script" | "sc" => lookup(SCRIPTS, value).map(PropertyKind::Script),
            "Script_Extensions" | "scx" => {
                lookup(SCRIPTS, value).map(PropertyKind::ScriptExtensions)
            }
            _ => None,
        },
    }
}

/// Every property name the dialect accepts without `=`, and every script value (as
/// `Script=…` and `Script_Extensions=…`).
#[cfg(feature = "internals")]
pub fn accepted_names() -> impl Iterator<Item = String> {
    GENERAL_CATEGORIES
        .iter()
        .chain(BINARY)
        .map(|(n, _)| (*n).to_string())
        .chain(
            SCRIPTS
                .iter()
                .flat_map(|(n, _)| [format!("Script={n}"), format!("Script_Extensions={n}")]),
        )
}

/// The code points of a property (not negated), from `regex-syntax`'s tables.
///
/// The `regex-syntax` pattern is built here from the canonical name, never from user text.
pub(super) fn class(kind: PropertyKind) -> Option<ClassUnicode> {
    let text = match kind {
        PropertyKind::GeneralCategory(v) => format!(r"\p{{gc={v}}}"),
        PropertyKind::Script(v) => format!(r"\p{{sc={v}}}"),
        PropertyKind::ScriptExtensions(v) => format!(r"\p{{scx={v}}}"),
        PropertyKind::Binary(v) => format!(r"\p{{{v}}}"),
    };
    let hir = regex_syntax::Parser::new().parse(&text).ok()?;
    match hir.into_kind() {
        HirKind::Class(regex_syntax::hir::Class::Unicode(c)) => Some(c),
        // A class that regex-syntax folds to one code point comes back as a literal.
        HirKind::Literal(lit) => {
            let s = std::str::from_utf8(&lit.0).ok()?;
            let mut chars = s.chars();
            let c = chars.next()?;
            if chars.next().is_some() {
                return None;
            }
            Some(ClassUnicode::new([
                regex_syntax::hir::ClassUnicodeRange::new(c, c),
            ]))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(table: &[(&str, &str)]) -> bool {
        table.windows(2).all(|w| w[0].0 < w[1].0)
    }

    #[test]
    fn tables_are_sorted_for_binary_search() {
        assert!(sorted(GENERAL_CATEGORIES));
        assert!(sorted(BINARY));
        assert!(sorted(SCRIPTS));
    }

    #[test]
    fn every_accepted_name_has_a_class_in_regex_syntax() {
        for (_, canon) in GENERAL_CATEGORIES {
            let c = class(PropertyKind::GeneralCategory(canon)).expect(canon);
            assert!(!c.ranges().is_empty() || *canon == "Unassigned", "{canon}");
        }
        for (_, canon) in BINARY {
            let c = class(PropertyKind::Binary(canon)).expect(canon);
            assert!(!c.ranges().is_empty(), "{canon}");
        }
        for (_, canon) in SCRIPTS {
            assert!(class(PropertyKind::Script(canon)).is_some(), "{canon}");
            assert!(
                class(PropertyKind::ScriptExtensions(canon)).is_some(),
                "{canon}"
            );
        }
    }

    #[test]
    fn resolution_is_exact_like_javascript() {
        assert_eq!(
            resolve("Lu"),
            Some(PropertyKind::GeneralCategory("Uppercase_Letter"))
        );
        assert_eq!(
            resolve("gc=Lu"),
            Some(PropertyKind::GeneralCategory("Uppercase_Letter"))
        );
        assert_eq!(resolve("Script=Grek"), Some(PropertyKind::Script("Greek")));
        assert_eq!(
            resolve("scx=Greek"),
            Some(PropertyKind::ScriptExtensions("Greek"))
        );
        assert_eq!(resolve("Alpha"), Some(PropertyKind::Binary("Alphabetic")));
        // Loose matching is a regex-syntax feature, not JavaScript's.
        assert_eq!(resolve("lu"), None);
        assert_eq!(resolve("Upper_Case"), None);
        assert_eq!(resolve("Greek"), None);
        assert_eq!(resolve("Script=greek"), None);
        assert_eq!(resolve("ASCII=Yes"), None);
        assert_eq!(resolve("Cs"), None);
        assert_eq!(resolve("Script=Katakana_Or_Hiragana"), None);
    }
}
