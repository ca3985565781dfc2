//! Screenshots: once the render pipelines are built (they compile in the background; earlier frames
//! can be blank), one frame is captured, written as PNG, and the app exits. Two targets: offscreen
//! (the camera renders into an image; no window, no display server) or the primary window (the same
//! window a person sees; needs a display, e.g. Xvfb). The offscreen image is the [`Screen`]'s size.
//! A simulation run under way holds the picture back until its results are drawn.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use bevy::camera::RenderTarget;
use bevy::prelude::*;
use bevy::render::render_resource::{CachedPipelineState, PipelineCache, TextureFormat};
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};
use bevy::render::{Render, RenderApp, RenderSystems};

use crate::board::layout::Screen;
use crate::players::simulate::Simulation;

/// The earliest frame shot, and how many frames in a row every pipeline must have been built before.
const FIRST_FRAME: u32 = 10;
const SETTLED_FRAMES: u32 = 5;
/// The frame shot anyway if the pipelines never all report built.
pub const SHOT_FRAME: u32 = 60;
/// Give up (exit with an error) if nothing was captured by then.
const GIVE_UP_FRAME: u32 = 1200;
/// The picture's default size in pixels, and the window's logical size.
pub const SIZE: (u32, u32) = crate::board::layout::DEFAULT_SCREEN;

/// What to capture and where to save it.
#[derive(Resource)]
pub struct ShotRequest {
    pub path: PathBuf,
    /// Capture the primary window rather than an offscreen image.
    pub window: bool,
    frames: u32,
    /// Frames in a row with every pipeline built.
    settled: u32,
    taken: bool,
    target: Option<Handle<Image>>,
    /// Frames spent waiting for a simulation run to finish.
    busy_frames: u32,
}

/// Whether every render pipeline requested so far is built; written by the render world each frame.
#[derive(Resource, Clone, Default)]
struct PipelinesBuilt(Arc<AtomicBool>);

impl ShotRequest {
    /// Render into an offscreen image (the plugin spawns the camera).
    pub fn offscreen(path: PathBuf) -> ShotRequest {
        ShotRequest {
            path,
            window: false,
            frames: 0,
            settled: 0,
            taken: false,
            target: None,
            busy_frames: 0,
        }
    }

    /// Capture the primary window (the app spawns the window and its camera).
    pub fn window(path: PathBuf) -> ShotRequest {
        ShotRequest {
            window: true,
            ..ShotRequest::offscreen(path)
        }
    }
}

fn spawn_offscreen_camera(
    mut commands: Commands,
    mut images: ResMut<Assets<Image>>,
    mut shot: ResMut<ShotRequest>,
    (screen, whole): (Option<Res<Screen>>, Option<Res<crate::board::layout::Whole>>),
) {
    let screen = whole.map(|w| Screen(w.0)).or(screen.map(|s| *s)).unwrap_or_default();
    if shot.window {
        return;
    }
    // The picture is as large as the screen the board is laid out for.
    let size = screen.0.max(Vec2::ONE).as_uvec2();
    let image = Image::new_target_texture(size.x, size.y, TextureFormat::Rgba8UnormSrgb, None);
    let handle = images.add(image);
    shot.target = Some(handle.clone());
    commands.spawn((
        Camera2d,
        RenderTarget::Image(handle.into()),
        Transform::from_translation(crate::board::layout::camera_offset(0.0, 0.0).extend(0.0)),
    ));
}

fn save(captured: On<ScreenshotCaptured>, shot: Res<ShotRequest>, mut exit: MessageWriter<AppExit>) {
    let path = &shot.path;
    let saved = captured
        .image
        .clone()
        .try_into_dynamic()
        .map_err(|e| e.to_string())
        .and_then(|img| img.to_rgb8().save(path).map_err(|e| e.to_string()));
    match saved {
        Ok(()) => {
            exit.write(AppExit::Success);
        }
        Err(e) => {
            error!("cannot save the screenshot to {}: {e}", path.display());
            exit.write(AppExit::error());
        }
    }
}

fn report_pipelines(cache: Res<PipelineCache>, built: Res<PipelinesBuilt>) {
    let all = cache.waiting_pipelines().next().is_none() && cache.pipelines().all(|p| matches!(p.state, CachedPipelineState::Ok(_)));
    built.0.store(all, Ordering::Relaxed);
}

fn count_frames(
    mut commands: Commands,
    mut shot: ResMut<ShotRequest>,
    built: Res<PipelinesBuilt>,
    sim: Option<Res<Simulation>>,
    mut exit: MessageWriter<AppExit>,
) {
    // A simulation under way (or just finished, its result not yet drawn) holds the picture back.
    let busy = sim.is_some_and(|s| s.running.is_some());
    if busy {
        shot.busy_frames += 1;
        shot.settled = 0;
        if shot.busy_frames == GIVE_UP_FRAME * 10 {
            error!("the simulation did not finish in {} frames", GIVE_UP_FRAME * 10);
            exit.write(AppExit::error());
        }
        return;
    }
    shot.frames += 1;
    shot.settled = if built.0.load(Ordering::Relaxed) { shot.settled + 1 } else { 0 };
    let ready = shot.frames >= FIRST_FRAME && shot.settled >= SETTLED_FRAMES;
    if !shot.taken && (ready || shot.frames == SHOT_FRAME) {
        if !ready {
            warn!("the render pipelines are not all built by frame {SHOT_FRAME}; shooting anyway");
        }
        shot.taken = true;
        debug!("capturing frame {}", shot.frames);
        let screenshot = match &shot.target {
            Some(image) => Screenshot::image(image.clone()),
            None => Screenshot::primary_window(),
        };
        commands.spawn(screenshot).observe(save);
    }
    if shot.frames == GIVE_UP_FRAME {
        error!("no screenshot was captured after {GIVE_UP_FRAME} frames");
        exit.write(AppExit::error());
    }
}

/// Saves one frame, offscreen or of the primary window (needs a [`ShotRequest`] resource; add it
/// after the render plugin, which it asks whether the pipelines are built).
pub fn plugin(app: &mut App) {
    let built = PipelinesBuilt::default();
    app.insert_resource(built.clone())
        .add_systems(Startup, spawn_offscreen_camera)
        .add_systems(Last, count_frames);
    if let Some(render) = app.get_sub_app_mut(RenderApp) {
        render
            .insert_resource(built)
            .add_systems(Render, report_pipelines.in_set(RenderSystems::Cleanup));
    }
}
