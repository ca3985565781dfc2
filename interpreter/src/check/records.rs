//! `records pgn, sgf`: the formats a game's records are kept in, which a tool offers to export. The
//! names are read here, once the rest of the game is known: without the clause the formats are
//! derived from the notation and from whether the game captures chains
//! ([`RecordFormat::derived`]), and a declared `sgf` is held against that same criterion.

use crate::diag::{Diagnostic, Span, codes};
use crate::model::{Notation, RecordFormat};
use crate::syntax::ast;

use super::{Cx, unknown_name};

/// The word that declares no format at all (`records none`).
const NONE: &str = "none";

/// The formats of `game`'s `records` clause, or the derived ones where it has none. Unknown names,
/// `none` beside a format and a format named twice are reported; the list keeps the known formats
/// in the order first named, each once.
pub(super) fn resolve(cx: &mut Cx, game: Option<&ast::Game>, notation: Notation, captures_chains: bool) -> Vec<RecordFormat> {
    let Some(clause) = game.and_then(|g| g.records.as_ref()) else {
        return RecordFormat::derived(notation, captures_chains);
    };
    let mut formats: Vec<RecordFormat> = Vec::new();
    // Each name read so far, with where it was first written (`none` included).
    let mut named: Vec<(&str, Span)> = Vec::new();
    for id in &clause.formats {
        let name = id.name.as_str();
        let format = RecordFormat::ALL.iter().find(|(w, _)| *w == name).map(|(_, f)| *f);
        if format.is_none() && name != NONE {
            let mut d = unknown_name(&mut cx.suggestions_left, name, id.span, "record format", known());
            // The list is short: always show it (as `unknown_name` words it), beside any "did you mean".
            if !d.help.iter().any(|h| h.starts_with("known ")) {
                d = d.help(format!("known record formats: {}", known().join(", ")));
            }
            cx.diags.push(d);
            continue;
        }
        if let Some(&(_, first)) = named.iter().find(|(w, _)| *w == name) {
            cx.diags.push(
                Diagnostic::warning(codes::REDUNDANT, id.span, format!("record format `{name}` is named twice"))
                    .label("named again here")
                    .with(first, "first named here"),
            );
            continue;
        }
        named.push((name, id.span));
        formats.extend(format);
    }
    // `none` says the game is kept in no format: beside a format, one of the two is a mistake.
    if let Some(&(_, none)) = named.iter().find(|(w, _)| *w == NONE)
        && let Some(&(other, span)) = named.iter().find(|(w, _)| *w != NONE)
    {
        cx.diags.push(
            Diagnostic::error(
                codes::CONTRADICTION,
                none,
                format!("`{NONE}` says this game keeps no records, but `{other}` is named too"),
            )
            .label("no format")
            .with(span, "a format")
            .help(format!("write `records {NONE}` alone, or leave `{NONE}` out")),
        );
    }
    // SGF keeps games that place stones and capture chains: the criterion the derived default
    // and `arbiter play --write sgf` use, so a game that captures none is never written as SGF.
    if !captures_chains && let Some(&(_, span)) = named.iter().find(|(w, _)| *w == RecordFormat::Sgf.name()) {
        cx.diags.push(
            Diagnostic::warning(
                codes::REDUNDANT,
                span,
                "SGF keeps the records of games that capture chains, and this game captures none",
            )
            .label("`arbiter play --write sgf` refuses this game")
            .help("SGF is for go-like games (`after each move capture chains without liberties`); keep this game as `pgn`"),
        );
    }
    formats
}

/// Every word the clause takes, sorted as a help line lists them: `none, pgn, sgf`.
fn known() -> Vec<&'static str> {
    let mut w: Vec<&'static str> = RecordFormat::ALL.iter().map(|(w, _)| *w).chain([NONE]).collect();
    w.sort_unstable();
    w
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use crate::check::{check_file, check_source};
    use crate::model::RecordFormat::{self, Pgn, Sgf};

    /// `records none`: compared with a list, an empty array needs its type said.
    const NO_FORMATS: [RecordFormat; 0] = [];

    fn bundled(name: &str) -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../rulesets").join(name)
    }

    /// The formats a bundled ruleset's games are kept in, checked without a diagnostic.
    fn formats_of(name: &str) -> Vec<RecordFormat> {
        let c = check_file(&bundled(name), &[]);
        assert!(c.diagnostics.items.is_empty(), "{name}: {:?}", c.diagnostics.items);
        c.rules.expect("the bundled ruleset checks").record_formats().to_vec()
    }

    #[test]
    fn the_bundled_rulesets_keep_records_as_their_players_do() {
        // Derived: SAN and WXF games as PGN, go as SGF.
        for name in [
            "chess.rules",
            "antichess.rules",
            "crazyhouse.rules",
            "seirawan.rules",
            "xiangqi.rules",
        ] {
            assert_eq!(formats_of(name), [Pgn], "{name}");
        }
        assert_eq!(formats_of("go.rules"), [Sgf]);
        // Written in coordinates and capturing no chains: no format unless declared.
        for name in ["draughts.rules", "hex.rules", "othello.rules", "tic-tac-toe.rules", "tapatan.rules"] {
            assert_eq!(formats_of(name), NO_FORMATS, "{name}");
        }
        // Declared: duck chess is written in coordinates, and its games are kept as PGN.
        assert_eq!(formats_of("duck-chess.rules"), [Pgn]);
    }

    /// A ruleset that extends a bundled one, with `game` replaced by `game_block`.
    fn variant(game_block: &str) -> crate::check::Checked {
        let text = format!("extends \"chess.rules\"\noverride game \"Variant\" {{\n  players white \"w\", black \"b\"\n{game_block}}}\n");
        check_source("variant.rules", &text, Some(&bundled("")), &[])
    }

    #[test]
    fn a_declared_list_replaces_the_derived_one_in_the_order_written() {
        let c = variant("  notation san\n  records none\n");
        assert!(c.diagnostics.items.is_empty(), "{:?}", c.diagnostics.items);
        assert_eq!(c.rules.expect("checks").records, NO_FORMATS, "`records none` overrides SAN's PGN");
        let c = variant("  records pgn\n");
        assert_eq!(c.rules.expect("checks").records, [Pgn], "coordinates, declared PGN");
        let c = variant("  records sgf, pgn\n");
        let said: Vec<&str> = c.diagnostics.items.iter().map(|d| d.code).collect();
        assert_eq!(said, [crate::diag::codes::REDUNDANT], "SGF for a game without chains is a warning");
        assert_eq!(c.rules.expect("a warning does not stop the check").records, [Sgf, Pgn]);
        // Without the clause, a game in coordinates keeps none.
        assert_eq!(variant("").rules.expect("checks").records, NO_FORMATS);
    }

    #[test]
    fn bad_lists_are_errors_or_warnings_where_the_names_stand() {
        use crate::diag::{Severity, codes};
        let c = variant("  records pgn, none\n");
        let d = &c.diagnostics.items;
        assert!(c.rules.is_none(), "`none` beside a format is an error");
        assert_eq!(
            (d.len(), d[0].code, d[0].severity),
            (1, codes::CONTRADICTION, Severity::Error),
            "{d:?}"
        );
        let c = variant("  records pgn, pgn\n");
        let d = &c.diagnostics.items;
        assert_eq!(
            (d.len(), d[0].code, d[0].severity),
            (1, codes::REDUNDANT, Severity::Warning),
            "{d:?}"
        );
        assert_eq!(c.rules.expect("a warning").records, [Pgn], "named once in the list");
        let c = variant("  records pgn, tex\n");
        let d = &c.diagnostics.items;
        assert_eq!((d.len(), d[0].code), (1, codes::UNKNOWN_NAME), "{d:?}");
        assert!(
            d[0].help.iter().any(|h| h == "known record formats: none, pgn, sgf"),
            "{:?}",
            d[0].help
        );
    }

    #[test]
    fn the_default_follows_the_notation_and_the_chains() {
        use crate::model::Notation;
        assert_eq!(RecordFormat::derived(Notation::San, false), [Pgn]);
        assert_eq!(RecordFormat::derived(Notation::Wxf, false), [Pgn]);
        assert_eq!(RecordFormat::derived(Notation::Coordinates, true), [Sgf]);
        assert_eq!(RecordFormat::derived(Notation::San, true), [Pgn, Sgf]);
        assert_eq!(RecordFormat::derived(Notation::Coordinates, false), NO_FORMATS);
    }
}
