//! Drawing the board, the pieces and the teaching marks, all from the ruleset: squares (checkered
//! when the ruleset says so) or lines through points, the ruleset's drawings (river, lines, dots),
//! coordinate names, and pieces as discs with their kind's glyph. No game is named here.
//!
//! Two layers, each despawned and drawn anew: the board itself ([`Fixed`]) when the ruleset is replaced
//! (`Session::generation`) or the [`View`] turns; the pieces and marks ([`Transient`]) whenever the
//! session or the view changes.

use arbiter::model::{Board, Drawing, Side};
use bevy::prelude::*;

use crate::layout::{Layout, View};
use crate::session::Session;

use crate::GLYPH_FONT;

pub const BACKGROUND: Color = Color::srgb(0.16, 0.17, 0.19);
const LIGHT_SQUARE: Color = Color::srgb(0.93, 0.85, 0.71);
const DARK_SQUARE: Color = Color::srgb(0.70, 0.53, 0.39);
const POINT_BOARD: Color = Color::srgb(0.86, 0.70, 0.44);
const INK: Color = Color::srgb(0.10, 0.08, 0.06);
const LABEL: Color = Color::srgb(0.85, 0.85, 0.85);
const HIGHLIGHT: Color = Color::srgba(0.95, 0.85, 0.10, 0.55);
const SELECTED: Color = Color::srgba(0.20, 0.60, 0.95, 0.60);
const LAST_MOVE: Color = Color::srgba(0.55, 0.80, 0.35, 0.45);
const TARGET: Color = Color::srgba(0.10, 0.45, 0.85, 0.80);
const ARROW: Color = Color::srgba(0.90, 0.20, 0.15, 0.80);

/// The geometry of the board as last drawn (the ruleset's board, the [`View`]); input reads it.
#[derive(Resource, Clone, Copy)]
pub struct BoardLayout(pub Layout);

/// Fonts for piece glyphs.
#[derive(Resource)]
struct GlyphFonts {
    cjk: Handle<Font>,
}

/// The board itself: squares or lines, drawings, coordinate names.
#[derive(Component, Clone, Copy)]
struct Fixed;

/// Pieces, highlights, targets, arrows.
#[derive(Component, Clone, Copy)]
struct Transient;

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
        _ if side == Side::FIRST => Color::srgb(0.96, 0.95, 0.92),
        _ => Color::srgb(0.12, 0.12, 0.13),
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

/// A glyph that is itself a shape (`●`) is drawn by the disc alone.
fn is_shape(glyph: &str) -> bool {
    glyph.chars().all(|c| ('\u{25A0}'..='\u{25FF}').contains(&c) || c.is_whitespace())
}

/// A straight stroke from `a` to `b`, tagged with `tag`.
fn line(commands: &mut Commands, a: Vec2, b: Vec2, width: f32, color: Color, z: f32, tag: impl Component) {
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

fn rect(commands: &mut Commands, at: Vec2, size: Vec2, color: Color, z: f32, tag: impl Component) {
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
        cjk: fonts.add(Font::from_bytes(GLYPH_FONT.to_vec())),
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
    for sq in 0..board.squares() {
        let color = match board.is_dark(sq) {
            Some(true) => DARK_SQUARE,
            _ => LIGHT_SQUARE,
        };
        rect(commands, layout.center(sq), Vec2::splat(cell), color, 0.0, Fixed);
    }
    if board.dark_parity.is_none() {
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

/// The board of the current ruleset as the view shows it: squares or lines, drawings, coordinate names.
/// Draws anew only when the ruleset was replaced (`Session::generation`) or the view changed.
fn draw_board(
    mut commands: Commands,
    session: Res<Session>,
    view: Res<View>,
    old: Query<Entity, With<Fixed>>,
    mut drawn: Local<Option<(u64, View)>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    if *drawn == Some((session.generation, *view)) {
        return;
    }
    *drawn = Some((session.generation, *view));
    for e in &old {
        commands.entity(e).despawn();
    }
    let board = &session.engine.rules().board;
    let layout = Layout::new(board).with_view(*view);
    commands.insert_resource(BoardLayout(layout));
    let cell = layout.cell;
    if board.points {
        draw_point_lines(&mut commands, board, &layout);
    } else {
        draw_squares(&mut commands, board, &layout);
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
    // Coordinate names below and left of the board on screen, whichever way round it is.
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

/// Pieces, highlights, the selection, targets and arrows for the current position.
#[allow(clippy::too_many_arguments)]
fn redraw(
    mut commands: Commands,
    session: Res<Session>,
    view: Res<View>,
    fonts: Res<GlyphFonts>,
    old: Query<Entity, With<Transient>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    for e in &old {
        commands.entity(e).despawn();
    }
    let pos = session.game.current();
    let rules = pos.rules().clone();
    let layout = Layout::new(&rules.board).with_view(*view);
    let cell = layout.cell;
    let mark = |commands: &mut Commands, sq: usize, color: Color| {
        rect(commands, layout.center(sq), Vec2::splat(cell * 0.96), color, 3.0, Transient);
    };
    if let Some(frame) = session.frame() {
        for &sq in &frame.highlight {
            mark(&mut commands, sq, HIGHLIGHT);
        }
    }
    if let Some((a, b)) = session.last_move() {
        mark(&mut commands, a, LAST_MOVE);
        mark(&mut commands, b, LAST_MOVE);
    }
    if let Some(sq) = session.selected {
        mark(&mut commands, sq, SELECTED);
    }
    let disc = meshes.add(Circle::new(cell * 0.42));
    let rim = meshes.add(Circle::new(cell * 0.45));
    let dot = meshes.add(Circle::new(cell * 0.14));
    let head = meshes.add(Circle::new(cell * 0.12));
    for sq in 0..rules.board.squares() {
        let Some((kind, side)) = pos.piece_at(sq) else { continue };
        let colour = side_colour(&rules.players[side.index()].name, side);
        let c = layout.center(sq);
        commands.spawn((
            Mesh2d(rim.clone()),
            MeshMaterial2d(materials.add(contrast(colour).with_alpha(0.8))),
            Transform::from_translation(c.extend(4.0)),
            Transient,
        ));
        commands.spawn((
            Mesh2d(disc.clone()),
            MeshMaterial2d(materials.add(colour)),
            Transform::from_translation(c.extend(5.0)),
            Transient,
        ));
        let glyph = &rules.kind(kind).glyphs[side.index()];
        if glyph.is_empty() || is_shape(glyph) {
            continue;
        }
        let font: TextFont = if glyph.is_ascii() {
            TextFont::from_font_size(cell * 0.5)
        } else {
            TextFont {
                font: fonts.cjk.clone().into(),
                font_size: FontSize::Px(cell * 0.5),
                ..default()
            }
        };
        commands.spawn((
            Text2d::new(glyph.clone()),
            font,
            TextColor(contrast(colour)),
            Transform::from_translation(c.extend(6.0)),
            Transient,
        ));
    }
    for &t in &session.targets {
        commands.spawn((
            Mesh2d(dot.clone()),
            MeshMaterial2d(materials.add(TARGET)),
            Transform::from_translation(layout.center(t).extend(7.0)),
            Transient,
        ));
    }
    if let Some(frame) = session.frame() {
        for &(a, b) in &frame.arrows {
            let (pa, pb) = (layout.center(a), layout.center(b));
            line(&mut commands, pa, pb, cell * 0.10, ARROW, 8.0, Transient);
            commands.spawn((
                Mesh2d(head.clone()),
                MeshMaterial2d(materials.add(ARROW)),
                Transform::from_translation(pb.extend(8.5)),
                Transient,
            ));
        }
    }
}

/// Draws the board when the ruleset or the view changes, and the pieces and marks whenever the session
/// or the view changes. Inits [`View`] (unflipped) unless it was inserted before.
pub fn plugin(app: &mut App) {
    app.insert_resource(ClearColor(BACKGROUND))
        .init_resource::<View>()
        .add_systems(Startup, load_fonts)
        .add_systems(
            PostUpdate,
            (
                draw_board,
                redraw.run_if(resource_changed::<Session>.or_eager(resource_changed::<View>)),
            ),
        );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::BOARD_SPAN;
    use crate::source;

    /// The board plugin in a bare app: assets without a renderer.
    fn app(what: &str) -> App {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, AssetPlugin::default()))
            .init_asset::<Mesh>()
            .init_asset::<ColorMaterial>()
            .init_asset::<Font>()
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

    fn count<T: Component>(app: &mut App) -> usize {
        entities::<T>(app).len()
    }

    fn entities<T: Component>(app: &mut App) -> Vec<Entity> {
        app.world_mut().query_filtered::<Entity, With<T>>().iter(app.world()).collect()
    }

    fn at<'a>(texts: &'a [(String, Vec2)], name: &str) -> &'a Vec2 {
        &texts.iter().find(|(n, _)| n == name).unwrap_or_else(|| panic!("no text {name}")).1
    }

    #[test]
    fn turning_the_view_redraws_board_and_pieces_half_round_without_duplicates() {
        let mut app = app("chess");
        let (fixed, transient) = (count::<Fixed>(&mut app), count::<Transient>(&mut app));
        let names = texts::<Fixed>(&mut app);
        assert_eq!(names.len(), 16, "8 file and 8 rank names");
        assert!(at(&names, "1").y < at(&names, "8").y && at(&names, "a").x < at(&names, "h").x);
        assert!(at(&texts::<Transient>(&mut app), "K").y < 0.0, "the white king below");

        app.world_mut().resource_mut::<View>().flipped = true;
        app.update();
        let names = texts::<Fixed>(&mut app);
        assert!(at(&names, "1").y > at(&names, "8").y, "rank 1 at the top");
        assert!(at(&names, "a").x > at(&names, "h").x, "file a at the right");
        assert!(at(&names, "a").y < -BOARD_SPAN / 2.0, "file names still below the board");
        assert!(at(&texts::<Transient>(&mut app), "K").y > 0.0, "the white king above");
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
}
