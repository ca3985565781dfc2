//! Drawing the board, the pieces and the teaching marks, all from the ruleset: squares (checkered
//! when the ruleset says so) or lines through points, the ruleset's drawings (river, lines, dots),
//! coordinate names, and pieces as discs with their kind's glyph. No game is named here.

use arbiter::model::{Board, Drawing, Side};
use bevy::prelude::*;

use crate::layout::Layout;
use crate::session::Session;

/// The font with the CJK glyphs some rulesets use (a small subset; licence in `assets/`).
const GLYPH_FONT: &[u8] = include_bytes!("../assets/xiangqi-glyphs.ttf");

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

/// The geometry of the board on screen.
#[derive(Resource, Clone, Copy)]
pub struct BoardLayout(pub Layout);

/// Fonts for piece glyphs.
#[derive(Resource)]
struct GlyphFonts {
    cjk: Handle<Font>,
}

/// Everything redrawn when the session changes.
#[derive(Component)]
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

fn line(commands: &mut Commands, a: Vec2, b: Vec2, width: f32, color: Color, z: f32, transient: bool) {
    let d = b - a;
    let mut e = commands.spawn((
        Sprite {
            color,
            custom_size: Some(Vec2::new(d.length() + width, width)),
            ..default()
        },
        Transform::from_translation(((a + b) / 2.0).extend(z)).with_rotation(Quat::from_rotation_z(d.y.atan2(d.x))),
    ));
    if transient {
        e.insert(Transient);
    }
}

fn rect(commands: &mut Commands, at: Vec2, size: Vec2, color: Color, z: f32) -> Entity {
    commands
        .spawn((
            Sprite {
                color,
                custom_size: Some(size),
                ..default()
            },
            Transform::from_translation(at.extend(z)),
        ))
        .id()
}

fn spawn_board(mut commands: Commands, session: Res<Session>, mut fonts: ResMut<Assets<Font>>) {
    let rules = session.engine.rules().clone();
    let board: &Board = &rules.board;
    let layout = Layout::new(board);
    commands.insert_resource(BoardLayout(layout));
    commands.insert_resource(GlyphFonts {
        cjk: fonts.add(Font::from_bytes(GLYPH_FONT.to_vec())),
    });
    let cell = layout.cell;
    let half = layout.half_extent();
    if board.points {
        rect(&mut commands, Vec2::ZERO, 2.0 * half + Vec2::splat(cell), POINT_BOARD, 0.0);
        let w = (cell / 30.0).max(1.5);
        let river = board.drawings.iter().find_map(|d| match d {
            Drawing::River { below } => Some(*below),
            _ => None,
        });
        for r in 0..board.height {
            line(
                &mut commands,
                layout.center(board.square(0, r)),
                layout.center(board.square(board.width - 1, r)),
                w,
                INK,
                1.0,
                false,
            );
        }
        for f in 0..board.width {
            let edge = f == 0 || f + 1 == board.width;
            match river {
                Some(below) if !edge && below + 1 < board.height => {
                    line(
                        &mut commands,
                        layout.center(board.square(f, 0)),
                        layout.center(board.square(f, below)),
                        w,
                        INK,
                        1.0,
                        false,
                    );
                    line(
                        &mut commands,
                        layout.center(board.square(f, below + 1)),
                        layout.center(board.square(f, board.height - 1)),
                        w,
                        INK,
                        1.0,
                        false,
                    );
                }
                _ => line(
                    &mut commands,
                    layout.center(board.square(f, 0)),
                    layout.center(board.square(f, board.height - 1)),
                    w,
                    INK,
                    1.0,
                    false,
                ),
            }
        }
    } else {
        for sq in 0..board.squares() {
            let color = match board.is_dark(sq) {
                Some(true) => DARK_SQUARE,
                _ => LIGHT_SQUARE,
            };
            rect(&mut commands, layout.center(sq), Vec2::splat(cell), color, 0.0);
        }
        if board.dark_parity.is_none() {
            let w = (cell / 30.0).max(1.5);
            for f in 0..=board.width {
                let x = (f as f32 - board.width as f32 / 2.0) * cell;
                line(&mut commands, Vec2::new(x, -half.y), Vec2::new(x, half.y), w, INK, 1.0, false);
            }
            for r in 0..=board.height {
                let y = (r as f32 - board.height as f32 / 2.0) * cell;
                line(&mut commands, Vec2::new(-half.x, y), Vec2::new(half.x, y), w, INK, 1.0, false);
            }
        }
    }
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
                false,
            ),
            Drawing::Mark { at } => {
                commands.spawn((
                    Sprite {
                        color: INK,
                        custom_size: Some(Vec2::splat((cell / 6.0).max(4.0))),
                        ..default()
                    },
                    Transform::from_translation(layout.center(*at).extend(2.0)).with_rotation(Quat::from_rotation_z(0.785)),
                ));
            }
        }
    }
    // Coordinate names along the bottom and left edges.
    let size = (cell * 0.32).clamp(10.0, 20.0);
    let margin = if board.points { cell * 0.95 } else { cell * 0.8 };
    for (f, name) in board.file_names.iter().enumerate() {
        let c = layout.center(board.square(f, 0));
        commands.spawn((
            Text2d::new(name.clone()),
            TextFont::from_font_size(size),
            TextColor(LABEL),
            Transform::from_xyz(c.x, c.y - margin, 3.0),
        ));
    }
    for (r, name) in board.rank_names.iter().enumerate() {
        let c = layout.center(board.square(0, r));
        commands.spawn((
            Text2d::new(name.clone()),
            TextFont::from_font_size(size),
            TextColor(LABEL),
            Transform::from_xyz(c.x - margin, c.y, 3.0),
        ));
    }
}

#[allow(clippy::too_many_arguments)]
fn redraw(
    mut commands: Commands,
    session: Res<Session>,
    layout: Res<BoardLayout>,
    fonts: Res<GlyphFonts>,
    old: Query<Entity, With<Transient>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    for e in &old {
        commands.entity(e).despawn();
    }
    let layout = layout.0;
    let cell = layout.cell;
    let pos = session.game.current();
    let rules = pos.rules().clone();
    let mark = |commands: &mut Commands, sq: usize, color: Color| {
        let id = rect(commands, layout.center(sq), Vec2::splat(cell * 0.96), color, 3.0);
        commands.entity(id).insert(Transient);
    };
    if let Some(frame) = session.frame() {
        for &sq in &frame.highlight {
            mark(&mut commands, sq, HIGHLIGHT);
        }
    }
    if let Some((a, b)) = session.last_move {
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
            line(&mut commands, pa, pb, cell * 0.10, ARROW, 8.0, true);
            commands.spawn((
                Mesh2d(head.clone()),
                MeshMaterial2d(materials.add(ARROW)),
                Transform::from_translation(pb.extend(8.5)),
                Transient,
            ));
        }
    }
}

/// Draws the board once, and the pieces and marks whenever the session changes.
pub fn plugin(app: &mut App) {
    app.insert_resource(ClearColor(BACKGROUND))
        .init_resource::<crate::layout::View>()
        .add_systems(Startup, spawn_board)
        .add_systems(PostUpdate, redraw.run_if(resource_changed::<Session>));
}
