//! Headless screenshots: the camera renders into an image (no window, no display server); at frame
//! [`SHOT_FRAME`] the image is captured, written as PNG, and the app exits.

use std::path::PathBuf;

use bevy::camera::RenderTarget;
use bevy::prelude::*;
use bevy::render::render_resource::TextureFormat;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};

use crate::panel::PANEL_WIDTH;

/// Pipelines compile asynchronously: earlier frames can be blank.
pub const SHOT_FRAME: u32 = 60;
/// Give up (exit with an error) if nothing was captured by then.
const GIVE_UP_FRAME: u32 = 1200;
pub const SIZE: (u32, u32) = (1280, 800);

#[derive(Resource)]
pub struct ShotRequest {
    pub path: PathBuf,
    frames: u32,
    target: Option<Handle<Image>>,
}

impl ShotRequest {
    pub fn new(path: PathBuf) -> ShotRequest {
        ShotRequest {
            path,
            frames: 0,
            target: None,
        }
    }
}

fn spawn_offscreen_camera(mut commands: Commands, mut images: ResMut<Assets<Image>>, mut shot: ResMut<ShotRequest>) {
    let image = Image::new_target_texture(SIZE.0, SIZE.1, TextureFormat::Rgba8UnormSrgb, None);
    let handle = images.add(image);
    shot.target = Some(handle.clone());
    commands.spawn((
        Camera2d,
        RenderTarget::Image(handle.into()),
        Transform::from_xyz(-PANEL_WIDTH / 2.0, 0.0, 0.0),
    ));
}

fn count_frames(mut commands: Commands, mut shot: ResMut<ShotRequest>, mut exit: MessageWriter<AppExit>) {
    shot.frames += 1;
    if shot.frames == SHOT_FRAME
        && let Some(target) = shot.target.clone()
    {
        let path = shot.path.clone();
        commands
            .spawn(Screenshot::image(target))
            .observe(move |captured: On<ScreenshotCaptured>, mut exit: MessageWriter<AppExit>| {
                let saved = captured
                    .image
                    .clone()
                    .try_into_dynamic()
                    .map_err(|e| e.to_string())
                    .and_then(|img| img.to_rgb8().save(&path).map_err(|e| e.to_string()));
                match saved {
                    Ok(()) => {
                        exit.write(AppExit::Success);
                    }
                    Err(e) => {
                        error!("cannot save the screenshot to {}: {e}", path.display());
                        exit.write(AppExit::error());
                    }
                }
            });
    }
    if shot.frames == GIVE_UP_FRAME {
        error!("no screenshot was captured after {GIVE_UP_FRAME} frames");
        exit.write(AppExit::error());
    }
}

/// Renders offscreen and saves one frame (needs a [`ShotRequest`] resource).
pub fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_offscreen_camera).add_systems(Last, count_frames);
}
