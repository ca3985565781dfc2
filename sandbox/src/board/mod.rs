//! Drawing the board, the pieces and the teaching marks, all from the ruleset: squares (checkered
//! when the ruleset says so), lines through points or a rhombus of hexagons, the ruleset's drawings
//! (river, lines, dots), the edges a `connects` end rule asks each player to join (in that player's
//! colour), coordinate names, pieces as discs with their kind's glyph, the pieces in each player's
//! hand with their counts, and the path of a move of several legs with the squares it jumped; targets
//! (a ring where the selected piece takes, a dot where it does not), a ring on the piece the last
//! move placed, and while scoring the dead stones faded and crossed and each point's owner. Neutral
//! pieces (no one's) stand on a disc of their own colour, or, where their glyph is a filled square,
//! as a hole in the board; squares the board leaves out are not drawn. While a turn of several
//! parts is entered, the board shows the position its parts so far leave, those squares marked,
//! and the next part's choices as targets. No game is named here.
//!
//! Two layers, each despawned and drawn anew: the board itself ([`Fixed`]) when the ruleset is replaced
//! (`Session::generation`), the [`View`] turns or the [`Screen`] changes size (the board fills the
//! space beside the panel); the pieces and marks ([`Transient`]) whenever the session, the view or
//! the screen's size changes. Both are drawn before the frame propagates transforms, lays out
//! texts and announces new assets, so what is drawn shows in the same frame (drawn after, every
//! new piece sat at the origin for a frame: an empty board while the computer played itself).

pub mod figure;
pub mod input;
pub mod layout;
pub mod marks;
pub mod scoring;

use arbiter::game::MoveKind;
use arbiter::model::{Board, Condition, Drawing, KindId, Rules, Side, SquareSet};
use bevy::prelude::*;

use crate::board::input::Drag;
use crate::board::layout::{Layout, Screen, View};
use crate::board::marks::{spawn_arrow, spawn_marks};
use crate::session::Session;
use crate::session::marks::Marks;

use crate::{EMBEDDED_FONTS, font_covers};

pub const BACKGROUND: Color = Color::srgb(0.16, 0.17, 0.19);
const LIGHT_SQUARE: Color = Color::srgb(0.93, 0.85, 0.71);
const DARK_SQUARE: Color = Color::srgb(0.70, 0.53, 0.39);
const POINT_BOARD: Color = Color::srgb(0.86, 0.70, 0.44);
const INK: Color = Color::srgb(0.10, 0.08, 0.06);
const LABEL: Color = Color::srgb(0.85, 0.85, 0.85);
/// The badge a stack's count stands on.
const STACK_BADGE: Color = Color::srgb(0.72, 0.16, 0.12);
const HIGHLIGHT: Color = Color::srgba(0.95, 0.85, 0.10, 0.55);
const SELECTED: Color = Color::srgba(0.20, 0.60, 0.95, 0.60);
const LAST_MOVE: Color = Color::srgba(0.55, 0.80, 0.35, 0.45);
const CHECKED: Color = Color::srgba(0.90, 0.15, 0.12, 0.70);
const TARGET: Color = Color::srgba(0.10, 0.45, 0.85, 0.80);
const ARROW: Color = Color::srgba(0.90, 0.20, 0.15, 0.80);
/// The computer's candidate moves while it thinks (alpha by their share of the visits).
const THOUGHT: Color = Color::srgb(0.20, 0.50, 0.95);
/// The legs of the last move when it has several, or jumps.
const PATH: Color = Color::srgba(0.15, 0.55, 0.20, 0.90);
/// How opaque a stone of a chain marked dead is drawn.
const DEAD_ALPHA: f32 = 0.4;
/// Under the pieces in a hand.
const HAND_TRAY: Color = Color::srgb(0.38, 0.36, 0.33);
/// Cells of a hex board.
const HEX_CELL: Color = Color::srgb(0.93, 0.85, 0.71);
/// The band along an edge both players must join.
const SHARED_EDGE: Color = Color::srgb(0.55, 0.62, 0.70);
/// The disc of a neutral piece (no one's).
const NEUTRAL: Color = Color::srgb(0.98, 0.80, 0.22);
/// A neutral piece whose glyph is a filled square: a hole in the board.
const HOLE: Color = Color::srgb(0.16, 0.17, 0.19);
/// The squares of a turn of several parts being entered: its move so far and its parts chosen.
const PENDING: Color = Color::srgba(0.95, 0.50, 0.10, 0.55);

/// The geometry of the board as last drawn (the ruleset's board, the [`View`]); input reads it.
#[derive(Resource, Clone, Copy)]
pub struct BoardLayout(pub Layout);

/// Fonts for piece glyphs: the embedded ones ([`EMBEDDED_FONTS`]), in order; and the pictures of
/// figurines made from them ([`crate::board::figure`]), by figure and colours.
#[derive(Resource)]
struct GlyphFonts {
    embedded: Vec<Handle<Font>>,
    figures: std::collections::HashMap<(char, [u8; 4], [u8; 4]), Handle<Image>>,
}

/// Which embedded font draws `glyph`: the first whose character map has each of its characters
/// (`None` for ASCII, which Bevy's own font draws); the first font when none has them all.
pub fn glyph_font(glyph: &str) -> Option<usize> {
    if glyph.is_ascii() {
        return None;
    }
    let covers = |data: &[u8]| glyph.chars().filter(|c| !c.is_whitespace()).all(|c| font_covers(data, c));
    Some(EMBEDDED_FONTS.iter().position(|(_, data)| covers(data)).unwrap_or(0))
}

impl GlyphFonts {
    /// The picture of `figure` filled with `fill` and outlined in `ink`, made once.
    fn figure(&mut self, images: &mut Assets<Image>, figure: (char, char), fill: Color, ink: Color) -> Option<Handle<Image>> {
        let key = (figure.1, fill.to_srgba().to_u8_array(), ink.to_srgba().to_u8_array());
        if let Some(h) = self.figures.get(&key) {
            return Some(h.clone());
        }
        let data = EMBEDDED_FONTS.get(glyph_font(&figure.1.to_string())?)?.1;
        let handle = images.add(crate::board::figure::image(data, figure, fill, ink)?);
        self.figures.insert(key, handle.clone());
        Some(handle)
    }

    /// `glyph` at `size`, in the font that has it.
    fn text_font(&self, glyph: &str, size: f32) -> TextFont {
        match glyph_font(glyph).and_then(|i| self.embedded.get(i)) {
            Some(handle) => TextFont {
                font: handle.clone().into(),
                font_size: FontSize::Px(size),
                ..default()
            },
            None => TextFont::from_font_size(size),
        }
    }
}

/// The board itself: squares or lines, drawings, coordinate names.
#[derive(Component, Clone, Copy)]
struct Fixed;

/// Pieces, highlights, targets, arrows.
#[derive(Component, Clone, Copy)]
struct Transient;

/// A piece drawn as a figurine's picture, with the figurine its ruleset names (tests find them by it).
#[derive(Component, Clone, Copy, Debug)]
pub struct Figure(pub char);

/// A part of the piece standing on this square (its disc, rim, glyph): it follows the cursor while
/// the piece is dragged.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceOn(pub usize);

/// The count of a stack of pieces on this square (race games; tests read it).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct StackCount(pub usize);

/// What a mark on the board says, beside its [`Transient`] tag (tests read it).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marked {
    /// A target the selected piece reaches by taking: a ring round the square.
    CaptureTarget,
    /// A target reached without taking: a dot.
    QuietTarget,
    /// The piece the last move put on the board (a placement or a drop): a ring on top of it.
    LastPlaced,
    /// A stone of a chain marked dead: drawn faded, with a cross.
    Dead,
    /// A point counted for a player while scoring: a small square in their colour.
    Territory(Side),
    /// A neutral piece (no one's), on a disc of its own colour or as a hole.
    Neutral,
    /// A square of the turn being entered: its move so far, or a part chosen.
    Pending,
    /// A square a later part of the last turn acted on (a neutral piece placed, a drop).
    LastPart,
    /// The square of the side to move's royal piece while it is in check.
    InCheck,
    /// A move the computer is weighing while it thinks (an arrow, or a ring where it places).
    Thought,
}

/// A player's colour, from the player's name when it is a colour word, else light for the first player
/// and dark for the second.
fn side_colour(board_player: &str, side: Side) -> Color {
    match board_player.to_ascii_lowercase().as_str() {
        "white" => Color::srgb(0.96, 0.95, 0.92),
        "black" => Color::srgb(0.12, 0.12, 0.13),
        "red" => Color::srgb(0.80, 0.16, 0.14),
        "blue" => Color::srgb(0.18, 0.35, 0.80),
        "green" => Color::srgb(0.20, 0.60, 0.25),
        "yellow" => Color::srgb(0.95, 0.82, 0.20),
        "orange" => Color::srgb(0.95, 0.52, 0.12),
        "violet" | "purple" => Color::srgb(0.55, 0.30, 0.75),
        _ if side == Side::FIRST => Color::srgb(0.96, 0.95, 0.92),
        _ if side == Side::SECOND => Color::srgb(0.12, 0.12, 0.13),
        // A third side and later, named otherwise: colours apart from each other and the board.
        _ => [
            Color::srgb(0.80, 0.16, 0.14),
            Color::srgb(0.18, 0.35, 0.80),
            Color::srgb(0.20, 0.60, 0.25),
            Color::srgb(0.95, 0.82, 0.20),
        ][(side.index() - 2) % 4],
    }
}

fn contrast(c: Color) -> Color {
    let l = c.to_linear();
    if 0.2126 * l.red + 0.7152 * l.green + 0.0722 * l.blue > 0.3 {
        INK
    } else {
        Color::srgb(0.97, 0.97, 0.97)
    }
}

/// A glyph that is itself a shape (`●`, `○`; the draughts men and kings `⛀ ⛁ ⛂ ⛃`) is drawn by the
/// disc alone (a crowned disc for a king, see [`is_crowned`]).
fn is_shape(glyph: &str) -> bool {
    glyph
        .chars()
        .all(|c| ('\u{25A0}'..='\u{25FF}').contains(&c) || ('\u{26C0}'..='\u{26C3}').contains(&c) || c.is_whitespace())
}

/// A filled square (`■`, `▪`): a neutral piece with this glyph is drawn as a hole in the board.
fn is_square(glyph: &str) -> bool {
    !glyph.is_empty() && glyph.chars().all(|c| ('\u{25A0}'..='\u{25AB}').contains(&c))
}

/// Unicode's draughts kings (`⛁ ⛃`, two men stacked): drawn as two discs stacked, with a crown
/// ([`CROWN`]) on top — a ring inside would look like the mark on the last piece placed.
fn is_crowned(glyph: &str) -> bool {
    glyph.chars().any(|c| c == '\u{26C1}' || c == '\u{26C3}')
}

/// The figurine a glyph names (its one character).
fn figure_named(glyph: &str) -> char {
    glyph.chars().next().unwrap_or_default()
}

/// The crown on a crowned disc (a draughts king): the chess queen's figurine, in the disc's ink.
pub const CROWN: &str = "\u{265B}";

/// Unicode's chess figurines (`♔`…`♟`): a piece whose glyph is one is drawn as the figure itself, no
/// disc — its filled form in the player's colour with its outline over it in the contrasting ink,
/// as chess boards draw their pieces ([`crate::board::figure`]). Returns the (filled, outline) pair.
pub fn figurine(glyph: &str) -> Option<(char, char)> {
    let mut chars = glyph.chars();
    let c = chars.next()?;
    if chars.next().is_some() || !('\u{2654}'..='\u{265F}').contains(&c) {
        return None;
    }
    // The outlined ("white") set runs U+2654..2659, the filled ("black") set six further on.
    let outline = if c >= '\u{265A}' { char::from_u32(c as u32 - 6)? } else { c };
    Some((char::from_u32(outline as u32 + 6)?, outline))
}

/// A straight stroke from `a` to `b`, tagged with `tag`.
fn line(commands: &mut Commands, a: Vec2, b: Vec2, width: f32, color: Color, z: f32, tag: impl Bundle) {
    let d = b - a;
    commands.spawn((
        Sprite {
            color,
            custom_size: Some(Vec2::new(d.length() + width, width)),
            ..default()
        },
        Transform::from_translation(((a + b) / 2.0).extend(z)).with_rotation(Quat::from_rotation_z(d.y.atan2(d.x))),
        tag,
    ));
}

fn rect(commands: &mut Commands, at: Vec2, size: Vec2, color: Color, z: f32, tag: impl Bundle) {
    commands.spawn((
        Sprite {
            color,
            custom_size: Some(size),
            ..default()
        },
        Transform::from_translation(at.extend(z)),
        tag,
    ));
}

fn load_fonts(mut commands: Commands, mut fonts: ResMut<Assets<Font>>) {
    commands.insert_resource(GlyphFonts {
        embedded: EMBEDDED_FONTS
            .iter()
            .map(|(_, data)| fonts.add(Font::from_bytes(data.to_vec())))
            .collect(),
        figures: Default::default(),
    });
}

/// Lines through the points, each file broken at a river if the ruleset draws one (outer files run through).
fn draw_point_lines(commands: &mut Commands, board: &Board, layout: &Layout) {
    let half = layout.half_extent();
    let cell = layout.cell;
    rect(commands, Vec2::ZERO, 2.0 * half + Vec2::splat(cell), POINT_BOARD, 0.0, Fixed);
    let w = (cell / 30.0).max(1.5);
    let river = board.drawings.iter().find_map(|d| match d {
        Drawing::River { below } => Some(*below),
        _ => None,
    });
    let at = |f, r| layout.center(board.square(f, r));
    let top = board.height - 1;
    if !board.holes.is_empty() {
        // Where points are left out: a segment between each two neighbouring points on the board.
        for sq in (0..board.squares()).filter(|&sq| board.has(sq)) {
            for (dx, dy) in [(1, 0), (0, 1)] {
                if let Some(next) = board.offset(sq, dx, dy) {
                    line(commands, layout.center(sq), layout.center(next), w, INK, 1.0, Fixed);
                }
            }
        }
        return;
    }
    for r in 0..board.height {
        line(commands, at(0, r), at(board.width - 1, r), w, INK, 1.0, Fixed);
    }
    for f in 0..board.width {
        let edge = f == 0 || f + 1 == board.width;
        match river {
            Some(below) if !edge && below < top => {
                line(commands, at(f, 0), at(f, below), w, INK, 1.0, Fixed);
                line(commands, at(f, below + 1), at(f, top), w, INK, 1.0, Fixed);
            }
            _ => line(commands, at(f, 0), at(f, top), w, INK, 1.0, Fixed),
        }
    }
}

/// Squares, checkered or outlined.
fn draw_squares(commands: &mut Commands, board: &Board, layout: &Layout) {
    let half = layout.half_extent();
    let cell = layout.cell;
    for sq in (0..board.squares()).filter(|&sq| board.has(sq)) {
        let color = match board.is_dark(sq) {
            Some(true) => DARK_SQUARE,
            _ => LIGHT_SQUARE,
        };
        rect(commands, layout.center(sq), Vec2::splat(cell), color, 0.0, Fixed);
    }
    if board.dark_parity.is_none() && !board.holes.is_empty() {
        // Where squares are left out: each square's own outline.
        let w = (cell / 30.0).max(1.5);
        for sq in (0..board.squares()).filter(|&sq| board.has(sq)) {
            let corners = layout.corners(sq);
            for i in 0..corners.len() {
                line(commands, corners[i], corners[(i + 1) % corners.len()], w, INK, 1.0, Fixed);
            }
        }
    } else if board.dark_parity.is_none() {
        let w = (cell / 30.0).max(1.5);
        for f in 0..=board.width {
            let x = (f as f32 - board.width as f32 / 2.0) * cell;
            line(commands, Vec2::new(x, -half.y), Vec2::new(x, half.y), w, INK, 1.0, Fixed);
        }
        for r in 0..=board.height {
            let y = (r as f32 - board.height as f32 / 2.0) * cell;
            line(commands, Vec2::new(-half.x, y), Vec2::new(half.x, y), w, INK, 1.0, Fixed);
        }
    }
}

/// Hexagons: an ink hexagon a little larger than each cell under a fill a little smaller, so the
/// ink shows as the lines between cells and round the rhombus.
fn draw_hexes(commands: &mut Commands, meshes: &mut Assets<Mesh>, materials: &mut Assets<ColorMaterial>, board: &Board, layout: &Layout) {
    let cell = layout.cell;
    let w = (cell / 20.0).max(2.0);
    let circumradius = |inradius: f32| inradius * 2.0 / 3f32.sqrt();
    let ink = meshes.add(RegularPolygon::new(circumradius((cell + w) / 2.0), 6));
    let fill = meshes.add(RegularPolygon::new(circumradius((cell - w) / 2.0), 6));
    let (ink_colour, fill_colour) = (materials.add(INK), materials.add(HEX_CELL));
    for sq in (0..board.squares()).filter(|&sq| board.has(sq)) {
        let at = layout.center(sq);
        commands.spawn((
            Mesh2d(ink.clone()),
            MeshMaterial2d(ink_colour.clone()),
            Transform::from_translation(at.extend(0.0)),
            Fixed,
        ));
        commands.spawn((
            Mesh2d(fill.clone()),
            MeshMaterial2d(fill_colour.clone()),
            Transform::from_translation(at.extend(0.5)),
            Fixed,
        ));
    }
}

/// The zones each player must join, from the rules' `connects` end conditions: (player, zone).
pub fn connection_zones(rules: &Rules) -> Vec<(Side, SquareSet)> {
    let mut zones = Vec::new();
    for rule in &rules.end_rules {
        for c in &rule.conditions {
            if let Condition::Connects { zones: joined, .. } = c {
                for side in [Side::FIRST, Side::SECOND] {
                    for zone in joined {
                        zones.push((side, zone.0[side.index()].clone()));
                    }
                }
            }
        }
    }
    zones
}

/// The outer sides of the cells of `zone` that make the board's edge the zone lies along: for a zone
/// in one rank, the sides that face off the board across the ranks; in one file, across the files;
/// for any other zone, every side facing off the board. Each side as its cell and its two ends.
pub fn zone_edges(board: &Board, layout: &Layout, zone: &SquareSet) -> Vec<(usize, Vec2, Vec2)> {
    let cells: Vec<usize> = zone.iter().filter(|&sq| sq < board.squares()).collect();
    let Some(&first) = cells.first() else { return Vec::new() };
    let one_rank = cells.iter().all(|&sq| board.rank(sq) == board.rank(first));
    let one_file = cells.iter().all(|&sq| board.file(sq) == board.file(first));
    let (w, h) = (board.width as i32, board.height as i32);
    let mut edges = Vec::new();
    for &sq in &cells {
        let (f, r) = (board.file(sq) as i32, board.rank(sq) as i32);
        for &(dx, dy) in board.neighbour_offsets() {
            if board.offset(sq, dx, dy).is_some() {
                continue;
            }
            let off_rank = !(0..h).contains(&(r + dy));
            let off_file = !(0..w).contains(&(f + dx));
            if (one_rank && off_rank) || (one_file && off_file) || (!one_rank && !one_file) {
                let (a, b) = layout.edge_towards(sq, dx, dy);
                edges.push((sq, a, b));
            }
        }
    }
    edges
}

/// A band in each player's colour just outside the edges that player must join (in
/// [`SHARED_EDGE`] where both must join the same edge).
fn draw_zone_edges(commands: &mut Commands, rules: &Rules, layout: &Layout) {
    let board = &rules.board;
    let band = (layout.cell * 0.16).max(4.0);
    let ink = if rules.board.hexes {
        (layout.cell / 20.0).max(2.0)
    } else {
        (layout.cell / 30.0).max(1.5)
    };
    let zones = connection_zones(rules);
    for (i, (side, zone)) in zones.iter().enumerate() {
        // A zone both players must join is neither's: one band in a colour of its own.
        let shared = zones.iter().any(|(s, z)| s != side && z == zone);
        if shared && *side == Side::SECOND {
            continue;
        }
        if zones[..i].iter().any(|(s, z)| s == side && z == zone) {
            continue;
        }
        let colour = if shared {
            SHARED_EDGE
        } else {
            side_colour(&rules.players[side.index()].name, *side)
        };
        for (sq, a, b) in zone_edges(board, layout, zone) {
            let out = ((a + b) / 2.0 - layout.center(sq)).normalize_or_zero() * (band + ink) / 2.0;
            line(commands, a + out, b + out, band, colour, 0.2, Fixed);
        }
    }
}

/// The board of the current ruleset as the view shows it: squares, lines or hexagons, drawings, the
/// edges to connect, coordinate names. Draws anew only when the ruleset was replaced
/// (`Session::generation`), the view changed or the screen's size did.
#[allow(clippy::too_many_arguments)]
fn draw_board(
    mut commands: Commands,
    session: Res<Session>,
    view: Res<View>,
    screen: Res<Screen>,
    old: Query<Entity, With<Fixed>>,
    mut drawn: Local<Option<(u64, View, Screen)>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    if *drawn == Some((session.generation, *view, *screen)) {
        return;
    }
    *drawn = Some((session.generation, *view, *screen));
    for e in &old {
        commands.entity(e).despawn();
    }
    let rules = session.engine.rules().clone();
    let board = &rules.board;
    let layout = Layout::fit(board, *screen).with_view(*view);
    commands.insert_resource(BoardLayout(layout));
    let cell = layout.cell;
    if board.hexes {
        draw_hexes(&mut commands, &mut meshes, &mut materials, board, &layout);
    } else if board.points {
        draw_point_lines(&mut commands, board, &layout);
    } else {
        draw_squares(&mut commands, board, &layout);
    }
    if !board.points {
        draw_zone_edges(&mut commands, &rules, &layout);
    }
    let dot = meshes.add(Circle::new((cell * 0.11).max(3.0)));
    let ink = materials.add(INK);
    for d in &board.drawings {
        match d {
            Drawing::River { .. } => {}
            Drawing::Line { from, to } => line(
                &mut commands,
                layout.center(*from),
                layout.center(*to),
                (cell / 30.0).max(1.5),
                INK,
                1.0,
                Fixed,
            ),
            Drawing::Mark { at } => {
                commands.spawn((
                    Mesh2d(dot.clone()),
                    MeshMaterial2d(ink.clone()),
                    Transform::from_translation(layout.center(*at).extend(2.0)),
                    Fixed,
                ));
            }
        }
    }
    // Coordinate names below and left of the board on screen, whichever way round it is (none
    // where a turn by sixths runs the rows aslant: hovering names a cell).
    if !layout.labelled() {
        return;
    }
    let size = (cell * 0.4).clamp(12.0, 20.0);
    let names = board.file_names.iter().enumerate().map(|(f, n)| (layout.file_label(f), n));
    let names = names.chain(board.rank_names.iter().enumerate().map(|(r, n)| (layout.rank_label(r), n)));
    for (at, name) in names {
        commands.spawn((
            Text2d::new(name.clone()),
            TextFont::from_font_size(size),
            TextColor(LABEL),
            Transform::from_translation(at.extend(3.0)),
            Fixed,
        ));
    }
}

/// Meshes for pieces of one size, and one material per colour they are drawn in: pieces that
/// share a mesh and a material are drawn in one batch (a 19 × 19 board full of stones took a draw
/// call and a material of its own per stone — tens of megabytes in a software renderer).
struct PieceMeshes {
    radius: f32,
    disc: Handle<Mesh>,
    rim: Handle<Mesh>,
    paints: Vec<([u8; 4], Handle<ColorMaterial>)>,
}

impl PieceMeshes {
    /// Pieces that fit a cell `cell` across.
    fn new(meshes: &mut Assets<Mesh>, cell: f32) -> PieceMeshes {
        PieceMeshes {
            radius: cell * 0.42,
            disc: meshes.add(Circle::new(cell * 0.42)),
            rim: meshes.add(Circle::new(cell * 0.45)),
            paints: Vec::new(),
        }
    }

    /// The material of `colour`, made once.
    fn paint(&mut self, materials: &mut Assets<ColorMaterial>, colour: Color) -> Handle<ColorMaterial> {
        let key = colour.to_srgba().to_u8_array();
        if let Some((_, h)) = self.paints.iter().find(|(k, _)| *k == key) {
            return h.clone();
        }
        let h = materials.add(colour);
        self.paints.push((key, h.clone()));
        h
    }
}

/// One piece at `at`: a disc in its player's colour with a rim, and its kind's glyph (or a ring, for
/// a crowned shape); `alpha` below 1 fades it (a dead stone).
#[allow(clippy::too_many_arguments)]
fn draw_piece(
    commands: &mut Commands,
    materials: &mut Assets<ColorMaterial>,
    (fonts, images): (&mut GlyphFonts, Option<&mut Assets<Image>>),
    rules: &Rules,
    shapes: &mut PieceMeshes,
    at: Vec2,
    kind: arbiter::model::KindId,
    side: Side,
    alpha: f32,
    tag: impl Bundle + Clone,
) {
    let solid = side_colour(&rules.players[side.index()].name, side);
    let ink = contrast(solid).with_alpha(alpha);
    let look = DiscLook {
        rim: contrast(solid).with_alpha(0.8 * alpha),
        fill: solid.with_alpha(alpha),
        ink,
        glyph_size: 1.2,
    };
    let glyph = rules.kind(kind).glyph(side);
    if let Some(figure) = figurine(glyph)
        && let Some(picture) = images.and_then(|images| fonts.figure(images, figure, look.fill, look.ink))
    {
        commands.spawn((
            Sprite {
                image: picture,
                custom_size: Some(Vec2::splat(shapes.radius * 2.05)),
                ..default()
            },
            Transform::from_translation(at.extend(5.0)),
            tag,
            Figure(figure_named(glyph)),
        ));
        return;
    }
    draw_disc(commands, materials, fonts, shapes, at, &look, glyph, is_crowned(glyph), tag, ());
}

/// How a disc is painted: its rim, its fill, the ink of its glyph (and crown), and the glyph's size
/// as a share of the disc's radius.
struct DiscLook {
    rim: Color,
    fill: Color,
    ink: Color,
    glyph_size: f32,
}

/// A disc with a rim at `at` (the disc itself also tagged `on_disc`), a crown where asked, and
/// `glyph` on top unless it is empty or itself a shape.
#[allow(clippy::too_many_arguments)]
fn draw_disc(
    commands: &mut Commands,
    materials: &mut Assets<ColorMaterial>,
    fonts: &GlyphFonts,
    shapes: &mut PieceMeshes,
    at: Vec2,
    look: &DiscLook,
    glyph: &str,
    crowned: bool,
    tag: impl Bundle + Clone,
    on_disc: impl Bundle,
) {
    commands.spawn((
        Mesh2d(shapes.rim.clone()),
        MeshMaterial2d(shapes.paint(materials, look.rim)),
        Transform::from_translation(at.extend(4.0)),
        tag.clone(),
    ));
    commands.spawn((
        Mesh2d(shapes.disc.clone()),
        MeshMaterial2d(shapes.paint(materials, look.fill)),
        Transform::from_translation(at.extend(5.0)),
        tag.clone(),
        on_disc,
    ));
    if crowned {
        // The man underneath shows as a second rim below the top one, and the crown sits on top.
        commands.spawn((
            Mesh2d(shapes.rim.clone()),
            MeshMaterial2d(shapes.paint(materials, look.rim)),
            Transform::from_translation((at - Vec2::new(0.0, shapes.radius * 0.16)).extend(3.9)),
            tag.clone(),
        ));
        commands.spawn((
            Mesh2d(shapes.disc.clone()),
            MeshMaterial2d(shapes.paint(materials, look.fill)),
            Transform::from_translation((at - Vec2::new(0.0, shapes.radius * 0.16)).extend(3.95)),
            tag.clone(),
        ));
        commands.spawn((
            Text2d::new(CROWN),
            fonts.text_font(CROWN, shapes.radius * 1.1),
            TextColor(look.ink),
            Transform::from_translation(at.extend(5.5)),
            tag.clone(),
        ));
    }
    if glyph.is_empty() || is_shape(glyph) {
        return;
    }
    commands.spawn((
        Text2d::new(glyph.to_string()),
        fonts.text_font(glyph, shapes.radius * look.glyph_size),
        TextColor(look.ink),
        Transform::from_translation(at.extend(6.0)),
        tag,
    ));
}

/// A neutral piece (no one's) at `at`: where its glyph is a filled square, a hole in the board (a
/// square of the background's colour over most of the cell); else a disc of its own colour with a
/// rim, and its glyph unless the glyph is itself a shape.
#[allow(clippy::too_many_arguments)]
fn draw_neutral(
    commands: &mut Commands,
    materials: &mut Assets<ColorMaterial>,
    fonts: &GlyphFonts,
    rules: &Rules,
    shapes: &mut PieceMeshes,
    at: Vec2,
    cell: f32,
    kind: KindId,
    tag: impl Bundle + Clone,
) {
    let glyph = &rules.kind(kind).glyphs[0];
    if is_square(glyph) {
        rect(commands, at, Vec2::splat(cell * 0.9), HOLE, 4.0, (tag, Marked::Neutral));
        return;
    }
    let look = DiscLook {
        rim: INK.with_alpha(0.8),
        fill: NEUTRAL,
        ink: INK,
        glyph_size: 1.3,
    };
    draw_disc(commands, materials, fonts, shapes, at, &look, glyph, false, tag, Marked::Neutral);
}

/// Pieces, highlights, the selection, targets, arrows and the trainer's marks, the last move's path,
/// and the hands; while a turn is pending, the position its parts so far leave, those squares
/// marked and the next part's choices as targets.
#[allow(clippy::too_many_arguments)]
fn redraw(
    mut commands: Commands,
    session: Res<Session>,
    view: Res<View>,
    screen: Res<Screen>,
    marks: Res<Marks>,
    mut fonts: ResMut<GlyphFonts>,
    old: Query<Entity, With<Transient>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    mut images: Option<ResMut<Assets<Image>>>,
    thoughts: Option<Res<crate::players::computer::Thoughts>>,
) {
    for e in &old {
        commands.entity(e).despawn();
    }
    let current = session.game.current();
    let shown = session.shown_position();
    let pos: &arbiter::game::Position = &shown;
    let rules = pos.rules().clone();
    let layout = Layout::fit(&rules.board, *screen).with_view(*view);
    let cell = layout.cell;
    // A mark covers the cell: a hexagon on hexes, a square otherwise.
    let hexagon = rules
        .board
        .hexes
        .then(|| meshes.add(RegularPolygon::new(cell * 0.96 / 3f32.sqrt(), 6)));
    let mut mark = |commands: &mut Commands, sq: usize, color: Color, what: Option<Marked>| {
        let mut e = match &hexagon {
            Some(h) => commands.spawn((
                Mesh2d(h.clone()),
                MeshMaterial2d(materials.add(color)),
                Transform::from_translation(layout.center(sq).extend(3.0)),
                Transient,
            )),
            None => commands.spawn((
                Sprite {
                    color,
                    custom_size: Some(Vec2::splat(cell * 0.96)),
                    ..default()
                },
                Transform::from_translation(layout.center(sq).extend(3.0)),
                Transient,
            )),
        };
        if let Some(what) = what {
            e.insert(what);
        }
    };
    if let Some(frame) = session.frame() {
        for &sq in &frame.highlight {
            mark(&mut commands, sq, HIGHLIGHT, None);
        }
    }
    if let Some((a, b)) = session.last_move() {
        mark(&mut commands, a, LAST_MOVE, None);
        mark(&mut commands, b, LAST_MOVE, None);
    }
    for sq in session.last_parts() {
        mark(&mut commands, sq, LAST_MOVE, Some(Marked::LastPart));
    }
    // The royal piece in check, in red under it (as analysis boards show it).
    if current.in_check() {
        for sq in current.royal_squares(current.side_to_move()) {
            mark(&mut commands, sq, CHECKED, Some(Marked::InCheck));
        }
    }
    if let Some(sq) = session.selected {
        mark(&mut commands, sq, SELECTED, None);
    }
    for sq in session.pending_squares() {
        mark(&mut commands, sq, PENDING, Some(Marked::Pending));
    }
    let mut shapes = PieceMeshes::new(&mut meshes, cell);
    let dot = meshes.add(Circle::new(cell * 0.14));
    let head = meshes.add(Circle::new(cell * 0.12));
    let badge = meshes.add(Circle::new(cell * 0.16));
    let dead = scoring::dead_stones(&session.game);
    for sq in 0..rules.board.squares() {
        if let Some(kind) = pos.neutral_at(sq) {
            draw_neutral(
                &mut commands,
                &mut materials,
                &fonts,
                &rules,
                &mut shapes,
                layout.center(sq),
                cell,
                kind,
                Transient,
            );
            continue;
        }
        let Some((kind, side)) = pos.piece_at(sq) else { continue };
        let is_dead = dead.binary_search(&sq).is_ok();
        let alpha = if is_dead { DEAD_ALPHA } else { 1.0 };
        draw_piece(
            &mut commands,
            &mut materials,
            (&mut fonts, images.as_deref_mut()),
            &rules,
            &mut shapes,
            layout.center(sq),
            kind,
            side,
            alpha,
            (Transient, PieceOn(sq)),
        );
        // A stack (race games): its count on a badge at the disc's lower right.
        let n = pos.stack_count(sq);
        if n > 1 {
            let at = layout.center(sq) + Vec2::new(cell * 0.3, -cell * 0.3);
            commands.spawn((
                Mesh2d(badge.clone()),
                MeshMaterial2d(materials.add(STACK_BADGE)),
                Transform::from_translation(at.extend(6.4)),
                Transient,
            ));
            commands.spawn((
                Text2d::new(n.to_string()),
                TextFont::from_font_size(cell * 0.26),
                TextColor(Color::WHITE),
                Transform::from_translation(at.extend(6.5)),
                Transient,
                StackCount(sq),
            ));
        }
        if is_dead {
            let c = layout.center(sq);
            let arm = Vec2::splat(cell * 0.2);
            let ink = contrast(side_colour(&rules.players[side.index()].name, side)).with_alpha(0.7);
            for d in [arm, Vec2::new(arm.x, -arm.y)] {
                line(&mut commands, c - d, c + d, cell * 0.06, ink, 6.2, (Transient, Marked::Dead));
            }
        }
    }
    // While scoring: each empty or dead point's owner, a small square in their colour.
    if let Some(owners) = scoring::territory(&session.game) {
        for (sq, owner) in owners.into_iter().enumerate() {
            let Some(side) = owner else { continue };
            let alive = pos.piece_at(sq).is_some() && dead.binary_search(&sq).is_err();
            if alive {
                continue;
            }
            let colour = side_colour(&rules.players[side.index()].name, side);
            let at = layout.center(sq);
            rect(&mut commands, at, Vec2::splat(cell * 0.34), contrast(colour), 6.4, Transient);
            rect(
                &mut commands,
                at,
                Vec2::splat(cell * 0.28),
                colour,
                6.5,
                (Transient, Marked::Territory(side)),
            );
        }
    }
    // The piece the last move put on the board: a ring on it, in its ink, so the stone does not
    // hide it; round a piece that bears a letter (a drop), so the letter stays readable.
    if let Some((a, b)) = session.last_move()
        && a == b
        && let Some((kind, side)) = current.piece_at(b)
    {
        let glyph = rules.kind(kind).glyph(side);
        let lettered = !glyph.is_empty() && !is_shape(glyph);
        let ring = meshes.add(if lettered {
            Annulus::new(cell * 0.45, cell * 0.49)
        } else {
            Annulus::new(cell * 0.13, cell * 0.2)
        });
        let ink = contrast(side_colour(&rules.players[side.index()].name, side));
        commands.spawn((
            Mesh2d(ring),
            MeshMaterial2d(materials.add(ink)),
            Transform::from_translation(layout.center(b).extend(6.6)),
            Transient,
            Marked::LastPlaced,
        ));
    }
    // The hands, right of the board: each kind held, with its count.
    let kinds = session.hand_kinds();
    if !kinds.is_empty() {
        let pitch = layout.hand_pitch();
        let mut small = PieceMeshes::new(&mut meshes, pitch * 0.95);
        let halo = meshes.add(Circle::new(pitch * 0.5));
        let count_size = (pitch * 0.32).clamp(12.0, 20.0);
        // The kinds the next part of a pending turn may drop: offered in the mover's hand.
        let offered: Vec<KindId> = session.shown_options().iter().filter_map(|o| o.kind).collect();
        for side in pos.rules().sides_in_play() {
            // A tray under each hand's slots, so dark pieces show against the background.
            let (first, last) = (layout.hand_slot(side, 0), layout.hand_slot(side, kinds.len() - 1));
            let tray = Vec2::new(pitch * 1.8, (first.y - last.y).abs() + pitch * 0.9);
            rect(
                &mut commands,
                (first + last) / 2.0 + Vec2::new(pitch * 0.3, 0.0),
                tray,
                HAND_TRAY,
                1.0,
                Transient,
            );
            let held = pos.hand(side);
            for (i, &kind) in kinds.iter().enumerate() {
                let Some(&(_, n)) = held.iter().find(|(k, n)| *k == kind && *n > 0) else {
                    continue;
                };
                let at = layout.hand_slot(side, i);
                if (session.selected_hand == Some(kind) || offered.contains(&kind)) && side == current.side_to_move() {
                    commands.spawn((
                        Mesh2d(halo.clone()),
                        MeshMaterial2d(materials.add(SELECTED)),
                        Transform::from_translation(at.extend(3.5)),
                        Transient,
                    ));
                }
                draw_piece(
                    &mut commands,
                    &mut materials,
                    (&mut fonts, images.as_deref_mut()),
                    &rules,
                    &mut small,
                    at,
                    kind,
                    side,
                    1.0,
                    Transient,
                );
                commands.spawn((
                    Text2d::new(n.to_string()),
                    TextFont::from_font_size(count_size),
                    TextColor(LABEL),
                    Transform::from_translation((at + Vec2::new(pitch * 0.68, -pitch * 0.22)).extend(6.0)),
                    Transient,
                ));
            }
        }
    }
    // Targets: a ring round a square the selected piece takes on, a dot where it moves quietly;
    // for a pending turn's next part, a ring where something stands (to be removed), else a dot.
    let takes: Vec<usize> = match session.selected {
        _ if session.pending.is_some() => session
            .targets
            .iter()
            .copied()
            .filter(|&t| pos.piece_at(t).is_some() || pos.neutral_at(t).is_some())
            .collect(),
        Some(from) if !session.targets.is_empty() => current
            .legal_moves()
            .into_iter()
            .filter(|m| matches!(m.kind, MoveKind::Form(_) | MoveKind::Castle(_)) && m.from as usize == from)
            .filter(|m| current.is_capture(*m))
            .map(|m| m.to as usize)
            .collect(),
        _ => Vec::new(),
    };
    let ring = meshes.add(Annulus::new(cell * 0.38, cell * 0.47));
    for &t in &session.targets {
        let (mesh, what) = if takes.contains(&t) {
            (ring.clone(), Marked::CaptureTarget)
        } else {
            (dot.clone(), Marked::QuietTarget)
        };
        commands.spawn((
            Mesh2d(mesh),
            MeshMaterial2d(materials.add(TARGET)),
            Transform::from_translation(layout.center(t).extend(7.0)),
            Transient,
            what,
        ));
    }
    // A move of several legs, or a jump: a line per leg, and a cross on each square jumped.
    if let Some(path) = session.last_path() {
        for leg in path.squares.windows(2) {
            line(
                &mut commands,
                layout.center(leg[0]),
                layout.center(leg[1]),
                cell * 0.08,
                PATH,
                8.0,
                Transient,
            );
        }
        let stop = meshes.add(Circle::new(cell * 0.08));
        for &sq in &path.squares[1..path.squares.len().saturating_sub(1)] {
            commands.spawn((
                Mesh2d(stop.clone()),
                MeshMaterial2d(materials.add(PATH)),
                Transform::from_translation(layout.center(sq).extend(8.5)),
                Transient,
            ));
        }
        if let Some(&end) = path.squares.last() {
            commands.spawn((
                Mesh2d(head.clone()),
                MeshMaterial2d(materials.add(PATH)),
                Transform::from_translation(layout.center(end).extend(8.5)),
                Transient,
            ));
        }
        let arm = Vec2::splat(cell * 0.18);
        for &j in &path.jumped {
            let c = layout.center(j);
            line(&mut commands, c - arm, c + arm, cell * 0.07, ARROW, 8.2, Transient);
            let other = Vec2::new(arm.x, -arm.y);
            line(&mut commands, c - other, c + other, cell * 0.07, ARROW, 8.2, Transient);
        }
    }
    // A scenario's arrows and the trainer's marks, under the pieces.
    if let Some(frame) = session.frame() {
        for &arrow in &frame.arrows {
            spawn_arrow(&mut commands, &mut meshes, &mut materials, &layout, arrow, ARROW, Transient);
        }
    }
    spawn_marks(&mut commands, &mut meshes, &mut materials, &layout, &marks, Transient);
    // The computer's candidate moves while it thinks: the more visited, the bolder.
    for &(from, to, share) in thoughts.iter().flat_map(|t| t.0.iter()) {
        let colour = THOUGHT.with_alpha(0.25 + 0.6 * share.clamp(0.0, 1.0));
        if from == to {
            commands.spawn((
                Mesh2d(meshes.add(Annulus::new(cell * 0.3, cell * (0.34 + 0.1 * share)))),
                MeshMaterial2d(materials.add(colour)),
                Transform::from_translation(layout.center(to).extend(8.8)),
                Transient,
                Marked::Thought,
            ));
        } else {
            spawn_arrow(
                &mut commands,
                &mut meshes,
                &mut materials,
                &layout,
                (from, to),
                colour,
                (Transient, Marked::Thought),
            );
        }
    }
}

/// While the selected piece is dragged ([`Drag`]), its disc, rim and glyph follow the cursor, above
/// everything else; back home when the drag ends without a move.
fn follow_drag(
    drag: Option<Res<Drag>>,
    session: Res<Session>,
    layout: Option<Res<BoardLayout>>,
    mut pieces: Query<(&PieceOn, &mut Transform)>,
) {
    let (Some(drag), Some(layout)) = (drag, layout) else { return };
    if !drag.is_changed() && !session.is_changed() {
        return;
    }
    for (on, mut t) in &mut pieces {
        let home = layout.0.center(on.0);
        let z = t.translation.z.rem_euclid(DRAG_LIFT);
        t.translation = match drag.0 {
            Some(at) if session.selected == Some(on.0) => at.extend(z + DRAG_LIFT),
            _ => home.extend(z),
        };
    }
}

/// How far above the board a dragged piece is lifted (more than anything drawn on it).
const DRAG_LIFT: f32 = 20.0;

/// Follows the primary window's size (when there is a window): the board is laid out anew for it.
fn follow_window(
    window: Option<Single<&Window, With<bevy::window::PrimaryWindow>>>,
    mut screen: ResMut<Screen>,
    whole: Option<ResMut<crate::board::layout::Whole>>,
) {
    let Some(window) = window else { return };
    let size = Vec2::new(window.width(), window.height());
    // Written only on a change, so the board is not redrawn every frame; a minimised window keeps
    // the last size. With room kept beside the board ([`crate::board::layout::fit_screen`]), the whole
    // size is followed and the screen made from it.
    if size.x <= 0.0 || size.y <= 0.0 {
        return;
    }
    match whole {
        Some(mut whole) if whole.0 != size => whole.0 = size,
        Some(_) => {}
        None if screen.0 != size => screen.0 = size,
        None => {}
    }
}

/// Draws the board when the ruleset, the view or the screen's size changes, and the pieces and
/// marks whenever the session, the view or the size changes. Inits [`View`] (unflipped) and
/// [`Screen`] (the default size) unless they were inserted before.
pub fn plugin(app: &mut App) {
    app.insert_resource(ClearColor(BACKGROUND))
        .init_resource::<View>()
        .init_resource::<Screen>()
        .init_resource::<crate::board::layout::Beside>()
        .init_resource::<crate::board::layout::Below>()
        .init_resource::<Marks>()
        .add_systems(Startup, load_fonts)
        .add_systems(
            PostUpdate,
            (
                follow_window,
                crate::board::layout::fit_screen,
                draw_board,
                redraw.run_if(
                    resource_changed::<Session>
                        .or_eager(resource_changed::<View>)
                        .or_eager(resource_changed::<Screen>)
                        .or_eager(resource_changed::<Marks>)
                        .or_eager(resource_exists_and_changed::<crate::players::computer::Thoughts>),
                ),
                follow_drag,
            )
                .chain()
                .after(crate::board::marks::clear_on_action)
                // Drawn before the frame places entities, lays out texts and tells the renderer
                // of new meshes and materials: what is drawn is shown in this frame, not the next.
                .before(bevy::transform::TransformSystems::Propagate)
                .before(bevy::text::detect_text_needs_rerender)
                .before(bevy::asset::AssetEventSystems),
        );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::layout::BOARD_SPAN;
    use crate::session::source;

    /// The board plugin in a bare app: assets without a renderer.
    fn app(what: &str) -> App {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, AssetPlugin::default()))
            .init_asset::<Mesh>()
            .init_asset::<ColorMaterial>()
            .init_asset::<Font>()
            .init_asset::<Image>()
            .insert_resource(Session::new(source::open(Some(what)).unwrap_or_else(|e| panic!("{what}: {e}"))))
            .add_plugins(plugin);
        app.update();
        app
    }

    /// The texts drawn with `tag` (coordinate names for `Fixed`, glyphs for `Transient`) and where.
    fn texts<T: Component>(app: &mut App) -> Vec<(String, Vec2)> {
        let mut q = app.world_mut().query_filtered::<(&Text2d, &Transform), With<T>>();
        let mut v: Vec<_> = q
            .iter(app.world())
            .map(|(t, at)| (t.0.clone(), at.translation.truncate()))
            .collect();
        v.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.x.total_cmp(&b.1.x)));
        v
    }

    /// What is drawn over the board with its place: the glyphs (texts) and the figurines (pictures,
    /// by the figurine the ruleset names).
    fn pieces(app: &mut App) -> Vec<(String, Vec2)> {
        let mut v = texts::<Transient>(app);
        let mut q = app.world_mut().query::<(&Figure, &Transform)>();
        v.extend(q.iter(app.world()).map(|(f, at)| (f.0.to_string(), at.translation.truncate())));
        v.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.x.total_cmp(&b.1.x)));
        v
    }

    fn count<T: Component>(app: &mut App) -> usize {
        entities::<T>(app).len()
    }

    fn entities<T: Component>(app: &mut App) -> Vec<Entity> {
        app.world_mut().query_filtered::<Entity, With<T>>().iter(app.world()).collect()
    }

    fn at<'a>(texts: &'a [(String, Vec2)], name: &str) -> &'a Vec2 {
        &texts.iter().find(|(n, _)| n == name).unwrap_or_else(|| panic!("no text {name}")).1
    }

    /// A move redraws the pieces within its frame: every piece drawn anew has its place in the
    /// world (transforms propagated) before the frame ends — not a frame later, which drew every
    /// new piece at the origin for a frame: an empty board while the computer played both sides,
    /// and a flash of one at every step.
    #[test]
    fn pieces_drawn_anew_are_placed_and_announced_within_the_frame() {
        let mut app = app("chess");
        app.add_plugins(bevy::transform::TransformPlugin);
        app.update();
        app.world_mut()
            .resource_mut::<Session>()
            .apply(crate::session::Action::Play("e2e4".into()))
            .expect("legal");
        app.update();
        let mut q = app.world_mut().query_filtered::<(&Transform, &GlobalTransform), With<Transient>>();
        let placed: Vec<(Vec3, Vec3)> = q.iter(app.world()).map(|(t, g)| (t.translation, g.translation())).collect();
        assert!(placed.len() > 32, "{} pieces and marks", placed.len());
        for (local, global) in &placed {
            assert_eq!(local, global, "placed in the frame it was drawn");
        }
    }

    /// A stack of checkers shows its count at its cell's corner; a lone checker shows none, and a
    /// move that joins a stack counts it up.
    #[test]
    fn stacks_show_their_counts() {
        let mut app = app("backgammon");
        let counts = |app: &mut App| -> Vec<(usize, String)> {
            let mut q = app.world_mut().query::<(&StackCount, &Text2d)>();
            let mut v: Vec<(usize, String)> = q.iter(app.world()).map(|(s, t)| (s.0, t.0.clone())).collect();
            v.sort();
            v
        };
        let named = |app: &mut App, names: &[(&str, &str)]| -> Vec<(usize, String)> {
            let s = app.world().resource::<Session>();
            let b = &s.game.current().rules().board;
            let mut v: Vec<(usize, String)> = names
                .iter()
                .map(|(sq, n)| (b.parse_square(sq).expect("a square"), n.to_string()))
                .collect();
            v.sort();
            v
        };
        // The start: 2 on each side's 24-point, 5 on its 13, 3 on its 8, 5 on its 6.
        let start = named(
            &mut app,
            &[
                ("l2", "2"),
                ("a2", "5"),
                ("e1", "3"),
                ("g1", "5"),
                ("l1", "2"),
                ("a1", "5"),
                ("e2", "3"),
                ("g2", "5"),
            ],
        );
        assert_eq!(counts(&mut app), start);
        for m in ["roll:6-5", "l2f2", "a2e1"] {
            app.world_mut()
                .resource_mut::<Session>()
                .apply(crate::session::Action::Play(m.into()))
                .expect("legal");
        }
        app.update();
        // One checker left l2 (now alone: no count), a2 went down to 4, e1 up to 4.
        let after = named(
            &mut app,
            &[
                ("a2", "4"),
                ("e1", "4"),
                ("g1", "5"),
                ("l1", "2"),
                ("a1", "5"),
                ("e2", "3"),
                ("g2", "5"),
            ],
        );
        assert_eq!(counts(&mut app), after);
    }

    /// The king in check stands on a red square; out of check, no square is marked so.
    #[test]
    fn the_royal_piece_in_check_is_marked() {
        let mut app = app("chess");
        assert!(marks(&mut app, |m| *m == Marked::InCheck).is_empty());
        for m in ["e2e4", "f7f6", "d1h5"] {
            app.world_mut()
                .resource_mut::<Session>()
                .apply(crate::session::Action::Play(m.into()))
                .expect("legal");
        }
        app.update();
        let layout = Layout::fit(
            &app.world().resource::<Session>().engine.rules().board,
            *app.world().resource::<Screen>(),
        );
        let e8 = square(&app, "e8");
        assert_eq!(marks(&mut app, |m| *m == Marked::InCheck), vec![layout.center(e8)]);
    }

    #[test]
    fn a_board_full_of_stones_shares_one_material_per_colour_so_the_stones_draw_in_batches() {
        let record = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/go/random-300-19x19.sgf");
        let mut app = app(record);
        let empty = app.world().resource::<Assets<ColorMaterial>>().len();
        app.world_mut().resource_mut::<Session>().go_to(300);
        app.update();
        let stones: std::collections::HashSet<usize> = app.world_mut().query::<&PieceOn>().iter(app.world()).map(|p| p.0).collect();
        let stones = stones.len();
        assert!(stones > 200, "a crowded board: {stones} stones");
        let materials = app.world().resource::<Assets<ColorMaterial>>().len();
        // A rim and a disc per side (and the marks of the last move), not two per stone.
        assert!(
            materials <= empty + 8,
            "{materials} materials for {stones} stones ({empty} on the empty board)"
        );
    }

    #[test]
    fn turning_the_view_redraws_board_and_pieces_half_round_without_duplicates() {
        let mut app = app("chess");
        let (fixed, transient) = (count::<Fixed>(&mut app), count::<Transient>(&mut app));
        let names = texts::<Fixed>(&mut app);
        assert_eq!(names.len(), 16, "8 file and 8 rank names");
        assert!(at(&names, "1").y < at(&names, "8").y && at(&names, "a").x < at(&names, "h").x);
        assert!(at(&pieces(&mut app), "♔").y < 0.0, "the white king below");

        app.world_mut().resource_mut::<View>().flipped = true;
        app.update();
        let names = texts::<Fixed>(&mut app);
        assert!(at(&names, "1").y > at(&names, "8").y, "rank 1 at the top");
        assert!(at(&names, "a").x > at(&names, "h").x, "file a at the right");
        assert!(at(&names, "a").y < -BOARD_SPAN / 2.0, "file names still below the board");
        assert!(at(&pieces(&mut app), "♔").y > 0.0, "the white king above");
        assert_eq!((count::<Fixed>(&mut app), count::<Transient>(&mut app)), (fixed, transient));
        assert!(app.world().resource::<BoardLayout>().0.flipped, "clicks use the flipped geometry");
    }

    #[test]
    fn new_rules_redraw_the_board_at_their_size() {
        let mut app = app("go");
        assert_eq!(texts::<Fixed>(&mut app).len(), 38, "19 file and 19 rank names");
        let nine = source::open(Some("scenarios/go/sgf-record.ron")).expect("a 9 × 9 scenario");
        app.world_mut().resource_mut::<Session>().reload_rules(Ok(nine));
        app.update();
        assert_eq!(texts::<Fixed>(&mut app).len(), 18, "9 file and 9 rank names");
        assert_eq!(app.world().resource::<BoardLayout>().0.width, 9);
        // A session change without new rules keeps the board's entities (and redraws the pieces).
        let (board, pieces) = (entities::<Fixed>(&mut app), entities::<Transient>(&mut app));
        app.world_mut().resource_mut::<Session>().note = Some("touched".into());
        app.update();
        assert_eq!(entities::<Fixed>(&mut app), board);
        assert!(entities::<Transient>(&mut app).iter().all(|e| !pieces.contains(e)));
    }

    #[test]
    fn a_hex_board_is_drawn_as_hexagons_with_each_players_edges_in_their_colour() {
        let mut app = app("hex");
        let names = texts::<Fixed>(&mut app);
        assert_eq!(names.len(), 22, "11 file and 11 rank names");
        let meshes = app.world_mut().query_filtered::<&Mesh2d, With<Fixed>>().iter(app.world()).count();
        assert_eq!(meshes, 2 * 121, "an ink hexagon and a fill per cell");
        let session = app.world().resource::<Session>();
        let rules = session.engine.rules().clone();
        let layout = app.world().resource::<BoardLayout>().0;
        assert!(layout.hexes);
        let zones = connection_zones(&rules);
        assert_eq!(zones.len(), 4, "two zones for each player");
        for (side, zone) in &zones {
            let edges = zone_edges(&rules.board, &layout, zone);
            assert_eq!(edges.len(), 22, "two outer sides for each of the 11 cells of an edge");
            let away = |(sq, a, b): &(usize, Vec2, Vec2)| (*a + *b) / 2.0 - layout.center(*sq);
            let first = zone.iter().next().expect("a cell");
            if *side == Side::FIRST {
                // Red: ranks 1 and 11, the sides facing down or up.
                let down = rules.board.rank(first) == 0;
                assert!(
                    edges
                        .iter()
                        .all(|e| (away(e).y < 0.0) == down && away(e).y.abs() > layout.cell * 0.4)
                );
            } else {
                // Blue: files a and k, the sides facing left or right.
                let left = rules.board.file(first) == 0;
                assert!(edges.iter().all(|e| (away(e).x < 0.0) == left));
            }
        }
        // Bands: one sprite per side of each zone, in the players' colours.
        let red = side_colour(&rules.players[0].name, Side::FIRST);
        let blue = side_colour(&rules.players[1].name, Side::SECOND);
        let mut bands = |c: Color| {
            let mut q = app.world_mut().query_filtered::<&Sprite, With<Fixed>>();
            q.iter(app.world()).filter(|s| s.color == c).count()
        };
        assert_eq!((bands(red), bands(blue)), (44, 44));
    }

    #[test]
    fn squares_a_board_leaves_out_are_not_drawn_and_its_cells_fill_the_span() {
        let mut app = app("y");
        let rules = app.world().resource::<Session>().engine.rules().clone();
        let cells = (0..rules.board.squares()).filter(|&sq| rules.board.has(sq)).count();
        assert_eq!(cells, 190, "a triangle of 19 cells a side");
        let meshes = app.world_mut().query_filtered::<&Mesh2d, With<Fixed>>().iter(app.world()).count();
        assert_eq!(
            meshes,
            2 * cells,
            "an ink hexagon and a fill per cell, none for the squares left out"
        );
        let layout = app.world().resource::<BoardLayout>().0;
        // The triangle's box is centred: its bottom corners and its top at the same distance.
        let (a1, s1, a19) = (square(&app, "a1"), square(&app, "s1"), square(&app, "a19"));
        assert!((layout.center(a1).x + layout.center(s1).x).abs() < 1e-3);
        assert!(layout.center(a19).x.abs() < 1e-3);
        assert!((layout.center(a1).y + layout.center(a19).y).abs() < 1e-3);
        assert!((layout.half_extent().x * 2.0 - BOARD_SPAN).abs() < 1e-3, "19 cells fill the span");
    }

    #[test]
    fn a_neutral_piece_stands_on_a_disc_of_its_own_and_a_pending_turn_shows_its_move_and_choices() {
        let mut app = app("duck-chess");
        let (e2, e4, d5) = (square(&app, "e2"), square(&app, "e4"), square(&app, "d5"));
        app.world_mut().resource_mut::<Session>().click(e2);
        app.world_mut().resource_mut::<Session>().click(e4);
        app.update();
        let layout = app.world().resource::<BoardLayout>().0;
        let mut pending = marks(&mut app, |m| *m == Marked::Pending);
        pending.sort_by(|a, b| a.y.total_cmp(&b.y));
        assert_eq!(pending, vec![layout.center(e2), layout.center(e4)], "the move so far");
        assert_eq!(marks(&mut app, |m| *m == Marked::QuietTarget).len(), 32, "every empty square");
        assert!(marks(&mut app, |m| *m == Marked::CaptureTarget).is_empty());
        // The pawn is drawn where the move took it, though the game has not moved.
        let pawns: Vec<Vec2> = pieces(&mut app).into_iter().filter(|(t, _)| t == "♙").map(|(_, at)| at).collect();
        assert!(pawns.contains(&layout.center(e4)) && !pawns.contains(&layout.center(e2)));
        app.world_mut().resource_mut::<Session>().click(d5);
        app.update();
        assert_eq!(marks(&mut app, |m| *m == Marked::Neutral), vec![layout.center(d5)]);
        assert_eq!(marks(&mut app, |m| *m == Marked::LastPart), vec![layout.center(d5)]);
        let duck = texts::<Transient>(&mut app)
            .into_iter()
            .find(|(t, _)| t == "🦆")
            .expect("the glyph");
        assert_eq!(duck.1, layout.center(d5));
        assert!(marks(&mut app, |m| *m == Marked::Pending).is_empty());
    }

    #[test]
    fn a_hole_is_drawn_as_a_square_of_the_background() {
        let mut app = app("isolation");
        app.world_mut()
            .resource_mut::<Session>()
            .apply(crate::session::Action::Play("c1c2,c2a3".into()))
            .expect("a legal turn");
        app.update();
        let a3 = square(&app, "a3");
        let layout = app.world().resource::<BoardLayout>().0;
        assert_eq!(marks(&mut app, |m| *m == Marked::Neutral), vec![layout.center(a3)]);
        let mut q = app.world_mut().query_filtered::<&Sprite, With<Marked>>();
        assert!(q.iter(app.world()).any(|s| s.color == HOLE));
    }

    #[test]
    fn every_glyph_a_bundled_ruleset_draws_as_text_is_in_an_embedded_font() {
        let rulesets = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulesets");
        let mut seen = 0;
        for entry in std::fs::read_dir(&rulesets).expect("the bundled rulesets") {
            let path = entry.expect("a directory entry").path();
            if path.extension().is_none_or(|e| e != "rules") {
                continue;
            }
            let opened = source::open(path.to_str()).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            for kind in &opened.engine.rules().kinds {
                for glyph in kind.glyphs.iter().filter(|g| !g.is_ascii() && !is_shape(g) && !is_square(g)) {
                    // A figurine draws its filled and outlined forms, whichever the ruleset names.
                    let glyph = &match figurine(glyph) {
                        Some((filled, outline)) => format!("{filled}{outline}"),
                        None => glyph.clone(),
                    };
                    let font = glyph_font(glyph).expect("not ASCII");
                    let data = EMBEDDED_FONTS[font].1;
                    assert!(
                        glyph.chars().all(|c| font_covers(data, c)),
                        "{}: {glyph} is in no embedded font",
                        path.display()
                    );
                    seen += 1;
                }
            }
        }
        assert!(seen > 10, "the xiangqi glyphs and the duck at least: {seen}");
        assert!(font_covers(EMBEDDED_FONTS[glyph_font(CROWN).expect("not ASCII")].1, '\u{265B}'));
    }

    /// A chess figurine is drawn as the figure, no disc: one picture of its filled form in the
    /// player's colour under its outline in the contrasting ink — white's king a white figure
    /// outlined dark, black's a dark figure drawn in light lines.
    #[test]
    fn a_figurine_is_drawn_as_one_picture_of_its_fill_under_its_outline_without_a_disc() {
        assert_eq!(figurine("♔"), Some(('♚', '♔')));
        assert_eq!(figurine("♞"), Some(('♞', '♘')));
        assert_eq!(figurine("K"), None);
        assert_eq!(figurine("♔♔"), None);
        let mut app = app("chess");
        let layout = app.world().resource::<BoardLayout>().0;
        let e1 = layout.center(square(&app, "e1"));
        let drawn = pieces(&mut app);
        let on_e1: Vec<&String> = drawn.iter().filter(|(_, at)| at.distance(e1) < 1.0).map(|(g, _)| g).collect();
        assert_eq!(on_e1, ["♔"], "white's king: one picture, no text");
        assert_eq!(drawn.iter().filter(|(g, _)| g == "♚").count(), 1, "black's king");
        assert_eq!(drawn.len(), 32, "every piece a figure: {drawn:?}");
        // The picture: white's fill under the dark ink, as the figure module paints it.
        let handle = {
            let mut q = app.world_mut().query::<(&Figure, &Sprite)>();
            q.iter(app.world()).find(|(f, _)| f.0 == '♔').expect("the king").1.image.clone()
        };
        let images = app.world().resource::<Assets<Image>>();
        let image = images.get(&handle).expect("made");
        let data = image.data.as_ref().expect("bytes");
        let white = side_colour("white", Side::FIRST).to_srgba().to_u8_array();
        let ink = INK.to_srgba().to_u8_array();
        assert!(data.chunks(4).any(|p| p == white), "the fill in white's colour");
        assert!(data.chunks(4).any(|p| p == ink), "the outline in the ink");
        // One picture per figure and colours, shared by the eight white pawns.
        assert_eq!(images.len(), 12, "six figures a side");
        // No disc: no mesh on e1's centre (marks aside, the start has none).
        let mut meshes = app.world_mut().query_filtered::<&Transform, (With<Mesh2d>, With<Transient>)>();
        assert_eq!(
            meshes
                .iter(app.world())
                .filter(|t| t.translation.truncate().distance(e1) < 1.0)
                .count(),
            0
        );
    }

    /// The moves the computer weighs are drawn while it thinks — an arrow each, the most visited
    /// boldest — and go when it stops.
    #[test]
    fn the_computer_s_candidate_moves_are_arrows_the_most_visited_boldest() {
        let mut app = app("chess");
        let (e2, e4, d2, d4) = (square(&app, "e2"), square(&app, "e4"), square(&app, "d2"), square(&app, "d4"));
        app.insert_resource(crate::players::computer::Thoughts(vec![(e2, e4, 0.7), (d2, d4, 0.2)]));
        app.update();
        let mut q = app.world_mut().query::<(&Marked, &Sprite)>();
        let shafts: Vec<f32> = q
            .iter(app.world())
            .filter(|(m, _)| **m == Marked::Thought)
            .map(|(_, s)| s.color.alpha())
            .collect();
        assert_eq!(shafts.len(), 2, "an arrow's shaft for each move: {shafts:?}");
        assert!(shafts.iter().any(|a| *a > 0.6) && shafts.iter().any(|a| *a < 0.5), "{shafts:?}");
        app.world_mut().resource_mut::<crate::players::computer::Thoughts>().0.clear();
        app.update();
        assert!(marks(&mut app, |m| *m == Marked::Thought).is_empty(), "gone when it stops");
    }

    /// A draughts king is two discs stacked with a crown on top — not a ring inside the disc, which
    /// is what marks the last piece placed.
    #[test]
    fn a_draughts_king_wears_a_crown_and_no_ring() {
        let mut app = app("draughts");
        app.world_mut()
            .resource_mut::<Session>()
            .apply(crate::session::Action::Edit(crate::session::Edit::Fen(
                "8/8/8/8/3k4/8/8/K7 b - - 0 1".into(),
            )))
            .expect("a FEN with kings");
        app.update();
        let layout = app.world().resource::<BoardLayout>().0;
        let d4 = layout.center(square(&app, "d4"));
        let glyphs = texts::<Transient>(&mut app);
        assert!(glyphs.iter().any(|(g, at)| g == CROWN && at.distance(d4) < 1.0), "{glyphs:?}");
        assert!(marks(&mut app, |m| *m == Marked::LastPlaced).is_empty());
        // Two rims and two discs: the king and the man under it.
        let mut meshes = app.world_mut().query_filtered::<&Transform, (With<Mesh2d>, With<Transient>)>();
        let near = meshes
            .iter(app.world())
            .filter(|t| t.translation.truncate().distance(d4) < layout.cell * 0.2)
            .count();
        assert_eq!(near, 4, "two rims, two discs");
    }

    #[test]
    fn pieces_in_hand_are_drawn_right_of_the_board_with_their_counts() {
        let mut app = app("crazyhouse");
        app.world_mut()
            .resource_mut::<Session>()
            .apply(crate::session::Action::Edit(crate::session::Edit::Fen(
                "rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R[PPn] w KQkq - 0 5".into(),
            )))
            .expect("a FEN with hands");
        app.update();
        let glyphs = pieces(&mut app);
        let layout = app.world().resource::<BoardLayout>().0;
        let right = layout.half_extent().x;
        let beside: Vec<&(String, Vec2)> = glyphs.iter().filter(|(_, at)| at.x > right).collect();
        let said: Vec<&str> = beside.iter().map(|(t, _)| t.as_str()).collect();
        // Figurines, by the figurine the ruleset names for each side.
        assert!(said.contains(&"♙") && said.contains(&"♞"), "the hands' glyphs: {said:?}");
        assert!(said.contains(&"2") && said.contains(&"1"), "the counts: {said:?}");
        let in_hand = |name: &str| beside.iter().find(|(t, _)| t == name).expect("in a hand").1;
        let (white_pawn, black_knight) = (in_hand("♙"), in_hand("♞"));
        assert!(white_pawn.x > right && white_pawn.y < 0.0, "white's hand below");
        assert!(black_knight.x > right && black_knight.y > 0.0, "black's hand above");
    }

    /// The marks of kind `what` and where they stand.
    fn marks(app: &mut App, what: fn(&Marked) -> bool) -> Vec<Vec2> {
        let mut q = app.world_mut().query::<(&Marked, &Transform)>();
        q.iter(app.world())
            .filter(|(m, _)| what(m))
            .map(|(_, t)| t.translation.truncate())
            .collect()
    }

    fn square(app: &App, name: &str) -> usize {
        let s = app.world().resource::<Session>();
        s.engine
            .rules()
            .board
            .parse_square(name)
            .unwrap_or_else(|| panic!("no square {name}"))
    }

    #[test]
    fn a_capture_target_is_a_ring_and_a_quiet_one_a_dot() {
        let mut app = app("chess");
        app.world_mut()
            .resource_mut::<Session>()
            .apply(crate::session::Action::Edit(crate::session::Edit::Fen(
                "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1".into(),
            )))
            .expect("a legal FEN");
        let (e4, e5, d5) = (square(&app, "e4"), square(&app, "e5"), square(&app, "d5"));
        app.world_mut().resource_mut::<Session>().click(e4);
        app.update();
        let layout = app.world().resource::<BoardLayout>().0;
        assert_eq!(marks(&mut app, |m| *m == Marked::CaptureTarget), vec![layout.center(d5)]);
        assert_eq!(marks(&mut app, |m| *m == Marked::QuietTarget), vec![layout.center(e5)]);
    }

    /// A piece dropped from the hand bears its letter: the "last placed" ring goes round it, not
    /// over the letter (a stone, without one, has the ring on top).
    #[test]
    fn the_last_placed_ring_goes_round_a_dropped_piece_s_letter() {
        let mut app = app("crazyhouse");
        for m in ["e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5a5"] {
            app.world_mut()
                .resource_mut::<Session>()
                .apply(crate::session::Action::Play(m.into()))
                .expect("legal");
        }
        app.world_mut()
            .resource_mut::<Session>()
            .apply(crate::session::Action::Play("P@d5".into()))
            .expect("a drop");
        app.update();
        let mut q = app.world_mut().query::<(&Marked, &Mesh2d)>();
        let ring = q
            .iter(app.world())
            .find(|(m, _)| **m == Marked::LastPlaced)
            .map(|(_, m)| m.0.clone())
            .expect("a ring on the piece dropped");
        let meshes = app.world().resource::<Assets<Mesh>>();
        let positions = match meshes.get(&ring).and_then(|m| m.attribute(Mesh::ATTRIBUTE_POSITION)) {
            Some(bevy::mesh::VertexAttributeValues::Float32x3(v)) => v.clone(),
            other => panic!("a ring's vertices: {other:?}"),
        };
        let layout = Layout::fit(
            &app.world().resource::<Session>().engine.rules().board,
            *app.world().resource::<Screen>(),
        );
        let inner = positions
            .iter()
            .map(|p| Vec2::new(p[0], p[1]).length())
            .fold(f32::INFINITY, f32::min);
        assert!(
            inner >= layout.cell * 0.42,
            "the ring ({inner}) is outside the disc ({}) that bears the letter",
            layout.cell * 0.42
        );
    }

    #[test]
    fn a_placed_stone_is_marked_on_top_and_dead_stones_fade_beside_the_owners_of_the_points() {
        let mut app = app("go");
        let (d4, q16) = (square(&app, "D4"), square(&app, "Q16"));
        app.world_mut().resource_mut::<Session>().click(d4);
        app.world_mut().resource_mut::<Session>().click(q16);
        app.update();
        let layout = app.world().resource::<BoardLayout>().0;
        let placed = marks(&mut app, |m| *m == Marked::LastPlaced);
        assert_eq!(placed, vec![layout.center(q16)], "a ring on the stone just placed, and only there");
        let z = |app: &mut App, what: Marked| {
            let mut q = app.world_mut().query::<(&Marked, &Transform)>();
            q.iter(app.world()).find(|(m, _)| **m == what).map(|(_, t)| t.translation.z)
        };
        assert!(
            z(&mut app, Marked::LastPlaced).expect("drawn") > 5.0,
            "above the stone's disc (z 5)"
        );
        assert!(
            marks(&mut app, |m| matches!(m, Marked::Territory(_))).is_empty(),
            "no territory while playing"
        );

        app.world_mut()
            .resource_mut::<Session>()
            .apply(crate::session::Action::MarkDead(q16))
            .expect("a chain");
        app.update();
        let crosses = marks(&mut app, |m| *m == Marked::Dead);
        assert_eq!(crosses.len(), 2, "two strokes of a cross");
        assert!(crosses.iter().all(|c| c.distance(layout.center(q16)) < 1.0));
        // With its only stone dead the second player owns nothing: every point but the first
        // player's living stone is marked theirs, the dead stone's too.
        let first = marks(&mut app, |m| *m == Marked::Territory(Side::FIRST));
        let points = app.world().resource::<Session>().engine.rules().board.squares();
        assert_eq!(first.len(), points - 1);
        assert!(first.contains(&layout.center(q16)) && !first.contains(&layout.center(d4)));
        // The dead stone's disc is faded.
        let faded = {
            let mut q = app
                .world_mut()
                .query_filtered::<(&MeshMaterial2d<ColorMaterial>, &Transform), With<Transient>>();
            let mats = app.world().resource::<Assets<ColorMaterial>>();
            q.iter(app.world())
                .filter(|(_, t)| t.translation.truncate().distance(layout.center(q16)) < 1.0 && t.translation.z == 5.0)
                .filter_map(|(m, _)| mats.get(&m.0).map(|c| c.color.alpha()))
                .collect::<Vec<f32>>()
        };
        assert_eq!(faded, vec![DEAD_ALPHA]);
    }

    #[test]
    fn a_resized_window_lays_the_board_out_anew_at_its_size() {
        let mut app = app("chess");
        let usual = app.world().resource::<BoardLayout>().0.cell;
        assert_eq!(usual, BOARD_SPAN / 8.0);
        let window = app
            .world_mut()
            .spawn((
                Window {
                    resolution: bevy::window::WindowResolution::new(1600, 1000),
                    ..default()
                },
                bevy::window::PrimaryWindow,
            ))
            .id();
        app.update();
        assert_eq!(app.world().resource::<Screen>().0, Vec2::new(1600.0, 1000.0));
        let large = app.world().resource::<BoardLayout>().0.cell;
        assert_eq!(large, crate::board::layout::board_span(Vec2::new(1600.0, 1000.0)) / 8.0);
        let king = |app: &mut App| *at(&pieces(app), "♔");
        let big_king = king(&mut app);
        app.world_mut()
            .get_mut::<Window>(window)
            .expect("the window")
            .resolution
            .set(900.0, 560.0);
        app.update();
        let small = app.world().resource::<BoardLayout>().0.cell;
        assert!(small < usual && usual < large, "{small} < {usual} < {large}");
        assert!(king(&mut app).y > big_king.y, "the pieces are drawn anew nearer the centre");
        assert_eq!(texts::<Fixed>(&mut app).len(), 16, "the names drawn once, at the new size");
    }

    #[test]
    fn arrows_have_heads_and_lie_under_the_pieces_the_trainers_and_a_scenarios_alike() {
        use crate::board::marks::{ARROW_Z, MarkPart};
        let parts = |app: &mut App| {
            let mut q = app.world_mut().query::<(&MarkPart, &Transform)>();
            let mut v: Vec<(MarkPart, f32)> = q.iter(app.world()).map(|(p, t)| (*p, t.translation.z)).collect();
            v.sort_by_key(|(p, _)| format!("{p:?}"));
            v
        };
        let mut app = app("chess");
        let (g1, f3, e4) = (square(&app, "g1"), square(&app, "f3"), square(&app, "e4"));
        {
            let mut marks = app.world_mut().resource_mut::<Marks>();
            marks.toggle_arrow(g1, f3);
            marks.toggle_square(e4);
        }
        app.update();
        let drawn = parts(&mut app);
        let kinds: Vec<MarkPart> = drawn.iter().map(|(p, _)| *p).collect();
        assert_eq!(kinds, [MarkPart::ArrowHead, MarkPart::ArrowShaft, MarkPart::Square]);
        assert!(drawn.iter().all(|(_, z)| *z < 4.0), "under the pieces' rims (z 4): {drawn:?}");
        assert_eq!(drawn[0].1, ARROW_Z);
        // A scenario's arrows: a head each too.
        let mut app = self::app("scenarios/chess/castling-both-ways.ron");
        let step = (0..app.world().resource::<Session>().timeline.len())
            .find(|&i| !app.world().resource::<Session>().timeline[i].arrows.is_empty())
            .expect("a step with arrows");
        app.world_mut().resource_mut::<Session>().go_to(step);
        app.update();
        let arrows = app.world().resource::<Session>().frame().map_or(0, |f| f.arrows.len());
        let drawn = parts(&mut app);
        let heads = drawn.iter().filter(|(p, _)| *p == MarkPart::ArrowHead).count();
        assert!(arrows > 0 && heads == arrows, "{heads} heads for {arrows} arrows");
        assert!(drawn.iter().all(|(_, z)| *z < 4.0));
    }

    #[test]
    fn a_dragged_piece_follows_the_cursor_above_the_board_and_goes_home_when_let_go() {
        let mut app = app("chess");
        app.init_resource::<Drag>();
        let e2 = square(&app, "e2");
        app.world_mut().resource_mut::<Session>().click(e2);
        app.update();
        let cursor = Vec2::new(37.0, -11.0);
        app.world_mut().resource_mut::<Drag>().0 = Some(cursor);
        app.update();
        let at = |app: &mut App, sq: usize| {
            let mut q = app.world_mut().query::<(&PieceOn, &Transform)>();
            q.iter(app.world())
                .filter(|(p, _)| p.0 == sq)
                .map(|(_, t)| t.translation)
                .collect::<Vec<Vec3>>()
        };
        let parts = at(&mut app, e2);
        assert_eq!(parts.len(), 1, "the figure's picture: {parts:?}");
        assert!(parts.iter().all(|p| p.truncate() == cursor && p.z > DRAG_LIFT), "{parts:?}");
        let d2 = square(&app, "d2");
        let home = app.world().resource::<BoardLayout>().0.center(d2);
        assert!(at(&mut app, d2).iter().all(|p| p.truncate() == home), "the others stay");
        app.world_mut().resource_mut::<Drag>().0 = None;
        app.update();
        let home = app.world().resource::<BoardLayout>().0.center(e2);
        assert!(at(&mut app, e2).iter().all(|p| p.truncate() == home && p.z < DRAG_LIFT));
    }
}
