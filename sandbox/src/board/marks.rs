//! Teaching marks a trainer draws on the board, as on Lichess: a right-click marks a square (again
//! unmarks it), a right-drag from one square to another draws an arrow (again removes it); a left
//! click on the board, the panel's "Clear marks" or a change of position clears them (saving does
//! not). With a caption typed in the panel they are saved in
//! the scenario the editor writes (the step of the position as saved), and a scenario's own marks
//! come back from it when opened. Arrows, the trainer's and a scenario's alike, have real heads and
//! lie under the pieces. Needs no window: [`Marks`] is plain data of the session room (a scenario
//! saves them), drawn here.

use bevy::prelude::*;

use crate::board::layout::Layout;
use crate::session::Session;
use crate::session::marks::Marks;

/// The colour of the trainer's marks and of a scenario's arrows.
pub const MARK: Color = Color::srgba(0.90, 0.20, 0.15, 0.80);
/// The fill of a square the trainer marked.
const MARKED_SQUARE: Color = Color::srgba(0.90, 0.20, 0.15, 0.45);
/// The height at which arrows lie: above the squares and highlights (3), under the pieces (4).
pub const ARROW_Z: f32 = 3.6;

/// An arrow from the centre of `a` to the centre of `b`: a shaft `cell × 0.16` wide that stops
/// where a triangular head, `cell × 0.45` long and as wide, ends at `b`'s centre. Returns the
/// shaft's centre, size and angle, and the head's three corners (tip first), in world units.
pub fn arrow_shape(layout: &Layout, a: usize, b: usize) -> ((Vec2, Vec2, f32), [Vec2; 3]) {
    let (pa, pb) = (layout.center(a), layout.center(b));
    let cell = layout.cell;
    let dir = (pb - pa).normalize_or_zero();
    let across = dir.perp();
    let head = (cell * 0.45).min((pb - pa).length());
    let base = pb - dir * head;
    let width = cell * 0.16;
    // The shaft starts a little off the first square's centre and runs into the head's base.
    let start = pa + dir * cell * 0.15;
    let shaft = (
        (start + base) / 2.0,
        Vec2::new((base - start).length().max(0.0), width),
        dir.y.atan2(dir.x),
    );
    let corners = [pb, base + across * head * 0.5, base - across * head * 0.5];
    (shaft, corners)
}

/// Which part of a drawn mark an entity is (tests read it).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkPart {
    ArrowShaft,
    ArrowHead,
    Square,
}

/// Spawns an arrow from `a` to `b` in `colour`, tagged with `tag`.
pub(crate) fn spawn_arrow(
    commands: &mut Commands,
    meshes: &mut Assets<Mesh>,
    materials: &mut Assets<ColorMaterial>,
    layout: &Layout,
    (a, b): (usize, usize),
    colour: Color,
    tag: impl Bundle + Clone,
) {
    if a == b {
        return;
    }
    let ((at, size, angle), [tip, left, right]) = arrow_shape(layout, a, b);
    commands.spawn((
        Sprite {
            color: colour,
            custom_size: Some(size),
            ..default()
        },
        Transform::from_translation(at.extend(ARROW_Z)).with_rotation(Quat::from_rotation_z(angle)),
        MarkPart::ArrowShaft,
        tag.clone(),
    ));
    commands.spawn((
        Mesh2d(meshes.add(Triangle2d::new(tip, left, right))),
        MeshMaterial2d(materials.add(colour)),
        Transform::from_xyz(0.0, 0.0, ARROW_Z),
        MarkPart::ArrowHead,
        tag,
    ));
}

/// Spawns the trainer's marks: a tinted square for each marked square, an arrow for each arrow.
pub(crate) fn spawn_marks(
    commands: &mut Commands,
    meshes: &mut Assets<Mesh>,
    materials: &mut Assets<ColorMaterial>,
    layout: &Layout,
    marks: &Marks,
    tag: impl Bundle + Clone,
) {
    let squares = layout.width * layout.height;
    for &sq in marks.squares.iter().filter(|&&sq| sq < squares) {
        let corners = layout.corners(sq);
        let centre = layout.center(sq);
        // The cell's own shape, a little inset: a square, or a hexagon on hex boards.
        let inset: Vec<Vec2> = corners.iter().map(|c| centre + (*c - centre) * 0.92).collect();
        commands.spawn((
            Mesh2d(
                meshes.add(
                    ConvexPolygon::new(inset)
                        .map(Mesh::from)
                        .unwrap_or_else(|_| Mesh::from(Rectangle::default())),
                ),
            ),
            MeshMaterial2d(materials.add(MARKED_SQUARE)),
            Transform::from_xyz(0.0, 0.0, 3.4),
            MarkPart::Square,
            tag.clone(),
        ));
    }
    for &(a, b) in marks.arrows.iter().filter(|(a, b)| *a < squares && *b < squares) {
        spawn_arrow(commands, meshes, materials, layout, (a, b), MARK, tag.clone());
    }
}

/// Clears the squares and arrows when the position on the board changes (a move, a step, an
/// edit): they belong to the position they were drawn on. Saving or exporting keeps them.
pub(crate) fn clear_on_action(session: Res<Session>, mut marks: ResMut<Marks>, mut seen: Local<Option<(usize, u64)>>) {
    let shown = (session.step, session.game.current().hash());
    if seen.is_some_and(|s| s != shown) && marks.any() {
        marks.clear();
    }
    *seen = Some(shown);
}

/// [`Marks`] and their clearing on an action. Needs no window.
pub fn plugin(app: &mut App) {
    app.init_resource::<Marks>()
        .add_systems(PostUpdate, clear_on_action.run_if(resource_changed::<Session>));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_arrow_ends_in_a_head_whose_tip_is_the_target_square() {
        let layout = Layout::of(8, 8, false, false);
        let ((at, size, _), [tip, left, right]) = arrow_shape(&layout, 0, 63);
        assert_eq!(tip, layout.center(63));
        let base = (left + right) / 2.0;
        assert!((left.distance(right) - layout.cell * 0.45).abs() < 1e-3, "as wide as it is long");
        assert!((base.distance(tip) - layout.cell * 0.45).abs() < 1e-3);
        assert!(left.distance(right) > size.y * 2.0, "the head is wider than the shaft");
        // The shaft runs into the head's base and no further.
        let dir = (tip - layout.center(0)).normalize();
        let end = at + dir * size.x / 2.0;
        assert!(end.distance(base) < 1e-3);
    }
}
