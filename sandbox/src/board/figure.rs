//! Chess figurines as pictures: a piece whose glyph is one of Unicode's chess figurines is drawn as
//! its filled form in the player's colour with its outline over it in the contrasting ink, the way
//! chess boards draw their pieces. Bevy draws two texts laid over each other wrongly (the upper
//! one's glyph box hides the lower one's pixels, so most of a figure's fill was missing at small
//! sizes), so the two glyphs are rasterised here, from the embedded font's outlines, into one
//! picture per (figure, fill, ink), which a sprite shows at the piece's size.
//!
//! The rasteriser is a scanline filler with the non-zero winding rule (as TrueType outlines are
//! drawn), 4 × 4 samples a pixel; curves are flattened into short lines.

use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use skrifa::instance::{LocationRef, Size};
use skrifa::outline::{DrawSettings, OutlinePen};
use skrifa::{FontRef, MetadataProvider};

/// The side of a figure's picture in pixels; the sprite scales it to the piece's size.
pub const PICTURE: usize = 128;

/// How much of the picture's height the glyphs' common box fills.
const FILL: f32 = 0.94;

/// Samples a pixel, each way.
const SAMPLES: usize = 4;

/// Lines a curve is flattened into.
const CURVE_STEPS: usize = 10;

/// A glyph's outline as straight edges, in font units (y up).
#[derive(Default)]
struct Edges {
    lines: Vec<(Vec2, Vec2)>,
    start: Vec2,
    at: Vec2,
}

impl Edges {
    fn to(&mut self, p: Vec2) {
        if p != self.at {
            self.lines.push((self.at, p));
        }
        self.at = p;
    }
}

impl OutlinePen for Edges {
    fn move_to(&mut self, x: f32, y: f32) {
        self.close();
        self.start = Vec2::new(x, y);
        self.at = self.start;
    }

    fn line_to(&mut self, x: f32, y: f32) {
        self.to(Vec2::new(x, y));
    }

    fn quad_to(&mut self, cx0: f32, cy0: f32, x: f32, y: f32) {
        let (a, c, b) = (self.at, Vec2::new(cx0, cy0), Vec2::new(x, y));
        for i in 1..=CURVE_STEPS {
            let t = i as f32 / CURVE_STEPS as f32;
            self.to(a * (1.0 - t) * (1.0 - t) + c * 2.0 * t * (1.0 - t) + b * t * t);
        }
    }

    fn curve_to(&mut self, cx0: f32, cy0: f32, cx1: f32, cy1: f32, x: f32, y: f32) {
        let (a, c0, c1, b) = (self.at, Vec2::new(cx0, cy0), Vec2::new(cx1, cy1), Vec2::new(x, y));
        for i in 1..=CURVE_STEPS {
            let t = i as f32 / CURVE_STEPS as f32;
            let u = 1.0 - t;
            self.to(a * u * u * u + c0 * 3.0 * u * u * t + c1 * 3.0 * u * t * t + b * t * t * t);
        }
    }

    fn close(&mut self) {
        let start = self.start;
        self.to(start);
    }
}

/// The outline of `c` in `font`, in font units; `None` where the font has no glyph for it.
fn outline(font: &FontRef, c: char) -> Option<Vec<(Vec2, Vec2)>> {
    let id = font.charmap().map(c)?;
    let glyph = font.outline_glyphs().get(id)?;
    let mut edges = Edges::default();
    glyph
        .draw(DrawSettings::unhinted(Size::unscaled(), LocationRef::default()), &mut edges)
        .ok()?;
    edges.close();
    Some(edges.lines)
}

/// How much of each pixel of a `PICTURE`-square picture the edges (already in pixels, y down)
/// cover, 0 to 1, by the non-zero winding rule.
fn coverage(lines: &[(Vec2, Vec2)]) -> Vec<f32> {
    let mut hits = vec![0u16; PICTURE * PICTURE];
    let mut crossings: Vec<(f32, i32)> = Vec::new();
    let step = 1.0 / SAMPLES as f32;
    for row in 0..PICTURE * SAMPLES {
        let y = (row as f32 + 0.5) * step;
        crossings.clear();
        for &(a, b) in lines {
            if (a.y <= y) != (b.y <= y) {
                let x = a.x + (y - a.y) / (b.y - a.y) * (b.x - a.x);
                crossings.push((x, if b.y > a.y { 1 } else { -1 }));
            }
        }
        crossings.sort_by(|p, q| p.0.total_cmp(&q.0));
        let mut winding = 0;
        for pair in crossings.windows(2) {
            winding += pair[0].1;
            if winding == 0 {
                continue;
            }
            // Sample columns whose centres lie in [x0, x1).
            let first = ((pair[0].0 / step - 0.5).ceil().max(0.0)) as usize;
            let last = ((pair[1].0 / step - 0.5).ceil().max(0.0) as usize).min(PICTURE * SAMPLES);
            for col in first..last {
                hits[(row / SAMPLES) * PICTURE + col / SAMPLES] += 1;
            }
        }
    }
    hits.iter().map(|&h| f32::from(h) / (SAMPLES * SAMPLES) as f32).collect()
}

/// The picture of the figure `(filled, outline)` from `font_data`: the filled glyph in `fill`, the
/// outline glyph over it in `ink`, centred on the outline glyph's box, as straight-alpha sRGB
/// bytes. `None` where the font lacks either glyph.
pub fn picture(font_data: &[u8], (filled, outline_char): (char, char), fill: Color, ink: Color) -> Option<Vec<u8>> {
    let font = FontRef::from_index(font_data, 0).ok()?;
    let (under, over) = (outline(&font, filled)?, outline(&font, outline_char)?);
    let (min, max) = over
        .iter()
        .flat_map(|&(a, b)| [a, b])
        .fold((Vec2::splat(f32::MAX), Vec2::splat(f32::MIN)), |(lo, hi), p| (lo.min(p), hi.max(p)));
    let size = max - min;
    if !(size.x > 0.0 && size.y > 0.0) {
        return None;
    }
    let scale = PICTURE as f32 * FILL / size.x.max(size.y);
    let centre = (min + max) / 2.0;
    let half = PICTURE as f32 / 2.0;
    let place = |lines: &[(Vec2, Vec2)]| -> Vec<(Vec2, Vec2)> {
        let to = |p: Vec2| Vec2::new(half + (p.x - centre.x) * scale, half - (p.y - centre.y) * scale);
        lines.iter().map(|&(a, b)| (to(a), to(b))).collect()
    };
    let (below, above) = (coverage(&place(&under)), coverage(&place(&over)));
    let (fill, ink) = (fill.to_srgba(), ink.to_srgba());
    let mut bytes = Vec::with_capacity(PICTURE * PICTURE * 4);
    for (b, a) in below.iter().zip(&above) {
        // The ink over the fill, straight alpha.
        let (fa, ia) = (b * fill.alpha, a * ink.alpha);
        let alpha = ia + fa * (1.0 - ia);
        let mix = |f: f32, i: f32| if alpha > 0.0 { (i * ia + f * fa * (1.0 - ia)) / alpha } else { 0.0 };
        for v in [mix(fill.red, ink.red), mix(fill.green, ink.green), mix(fill.blue, ink.blue), alpha] {
            bytes.push((v.clamp(0.0, 1.0) * 255.0).round() as u8);
        }
    }
    Some(bytes)
}

/// [`picture`] as an image asset.
pub fn image(font_data: &[u8], figure: (char, char), fill: Color, ink: Color) -> Option<Image> {
    let bytes = picture(font_data, figure, fill, ink)?;
    Some(Image::new(
        Extent3d {
            width: PICTURE as u32,
            height: PICTURE as u32,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        bytes,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::RENDER_WORLD | RenderAssetUsages::MAIN_WORLD,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(bytes: &[u8], x: usize, y: usize) -> [u8; 4] {
        let i = (y * PICTURE + x) * 4;
        [bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]
    }

    /// A square drawn as two contours (the outer one and a hole wound the other way) covers the
    /// ring between them and not the hole, by the non-zero rule.
    #[test]
    fn a_contour_and_its_hole_cover_the_ring_between_them() {
        let square = |lo: f32, hi: f32, clockwise: bool| {
            let mut p = [Vec2::new(lo, lo), Vec2::new(hi, lo), Vec2::new(hi, hi), Vec2::new(lo, hi)];
            if clockwise {
                p.reverse();
            }
            (0..4).map(|i| (p[i], p[(i + 1) % 4])).collect::<Vec<_>>()
        };
        let mut lines = square(16.0, 112.0, false);
        lines.extend(square(48.0, 80.0, true));
        let c = coverage(&lines);
        assert_eq!(c[20 * PICTURE + 20], 1.0, "inside the ring");
        assert_eq!(c[64 * PICTURE + 64], 0.0, "in the hole");
        assert_eq!(c[4 * PICTURE + 4], 0.0, "outside");
        // A pixel the edge halves is half covered.
        let half = square(16.5, 112.0, false);
        assert!((coverage(&half)[20 * PICTURE + 16] - 0.5).abs() < 0.01);
    }

    /// White's king from the embedded symbols: the middle of the figure in the fill, its outline's
    /// strokes in the ink, the corners of the picture transparent.
    #[test]
    fn a_figure_is_its_fill_under_its_outline() {
        let white = Color::srgb_u8(245, 242, 235);
        let ink = Color::srgb_u8(26, 20, 15);
        let bytes = picture(crate::SYMBOL_FONT, ('♚', '♔'), white, ink).expect("the king's glyphs");
        assert_eq!(bytes.len(), PICTURE * PICTURE * 4);
        assert_eq!(at(&bytes, 0, 0)[3], 0, "a corner is transparent");
        let (mut filled, mut inked) = (0, 0);
        for y in 0..PICTURE {
            for x in 0..PICTURE {
                let p = at(&bytes, x, y);
                if p == [245, 242, 235, 255] {
                    filled += 1;
                }
                if p == [26, 20, 15, 255] {
                    inked += 1;
                }
            }
        }
        assert!(filled > PICTURE * PICTURE / 8, "the fill: {filled} pixels");
        assert!(inked > PICTURE * PICTURE / 20, "the outline: {inked} pixels");
        assert!(
            picture(crate::SYMBOL_FONT, ('A', '♔'), white, ink).is_none(),
            "no glyph, no picture"
        );
    }
}
