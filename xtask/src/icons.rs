//! The app's icons, drawn at build time (no image tools, no binary files in git): a white
//! tray with an arrow leaving it (the outbox) on the palette's blue, as PNGs for the web
//! app manifest. `web/icon.svg` is the same drawing for the favicon.
//!
//! The maskable icon fills the whole square with the blue and keeps the drawing inside the
//! central 60 %, well within the 80 % circle a launcher may cut it to.

use std::io::Write;

/// Okabe–Ito blue (style/tokens.css `--oi-blue`), the theme colour.
const BLUE: [u8; 3] = [0x00, 0x72, 0xB2];

/// One icon file: its name, its side in pixels, and whether it is maskable.
pub struct Icon {
    pub name: &'static str,
    pub side_px: u32,
    pub maskable: bool,
}

pub const ICONS: [Icon; 3] = [
    Icon {
        name: "icon-192.png",
        side_px: 192,
        maskable: false,
    },
    Icon {
        name: "icon-512.png",
        side_px: 512,
        maskable: false,
    },
    Icon {
        name: "icon-maskable-512.png",
        side_px: 512,
        maskable: true,
    },
];

/// Whether the glyph covers the point (u, v) of its unit square (v grows downwards).
fn glyph(u: f32, v: f32) -> bool {
    let in_box =
        |u0: f32, u1: f32, v0: f32, v1: f32| (u0..=u1).contains(&u) && (v0..=v1).contains(&v);
    let tray = in_box(0.15, 0.27, 0.55, 0.9)
        || in_box(0.73, 0.85, 0.55, 0.9)
        || in_box(0.15, 0.85, 0.78, 0.9);
    let shaft = in_box(0.44, 0.56, 0.3, 0.7);
    let head = (0.08..=0.36).contains(&v) && (u - 0.5).abs() <= (v - 0.08) / 0.28 * 0.24;
    tray || shaft || head
}

/// The RGBA pixels of `icon`, 4×4 supersampled so the edges are smooth.
fn pixels(icon: &Icon) -> Vec<u8> {
    let side = icon.side_px as usize;
    // Where the glyph sits in the icon, as a fraction of its side.
    let (margin, radius) = if icon.maskable {
        (0.2, 0.0)
    } else {
        (0.14, 0.18)
    };
    let mut out = Vec::with_capacity(side * side * 4);
    for y in 0..side {
        for x in 0..side {
            let (mut ink, mut cover) = (0u32, 0u32);
            for sy in 0..4 {
                for sx in 0..4 {
                    let fx = (x as f32 + (sx as f32 + 0.5) / 4.0) / side as f32;
                    let fy = (y as f32 + (sy as f32 + 0.5) / 4.0) / side as f32;
                    if !in_rounded_square(fx, fy, radius) {
                        continue;
                    }
                    cover += 1;
                    let scale = 1.0 - 2.0 * margin;
                    ink += glyph((fx - margin) / scale, (fy - margin) / scale) as u32;
                }
            }
            let mix = |c: u8| ((c as u32 * (16 - ink) + 255 * ink) / 16) as u8;
            out.extend_from_slice(&[
                mix(BLUE[0]),
                mix(BLUE[1]),
                mix(BLUE[2]),
                (cover * 255 / 16) as u8,
            ]);
        }
    }
    out
}

fn in_rounded_square(x: f32, y: f32, radius: f32) -> bool {
    let dx = (radius - x).max(x - (1.0 - radius)).max(0.0);
    let dy = (radius - y).max(y - (1.0 - radius)).max(0.0);
    dx * dx + dy * dy <= radius * radius
}

/// A PNG file (8-bit RGBA, no filtering) of `side` × `side` pixels.
pub fn png(side: u32, rgba: &[u8]) -> Vec<u8> {
    let mut raw = Vec::with_capacity(rgba.len() + side as usize);
    for row in rgba.chunks(side as usize * 4) {
        raw.push(0); // filter: none
        raw.extend_from_slice(row);
    }
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    z.write_all(&raw).expect("zlib into memory");
    let idat = z.finish().expect("zlib into memory");
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&side.to_be_bytes());
    ihdr.extend_from_slice(&side.to_be_bytes());
    ihdr.extend_from_slice(&[8, 6, 0, 0, 0]); // 8 bits, RGBA, deflate, no filter, no interlace
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    for (kind, data) in [
        (b"IHDR", &ihdr[..]),
        (b"IDAT", &idat[..]),
        (b"IEND", &[][..]),
    ] {
        out.extend_from_slice(&(data.len() as u32).to_be_bytes());
        let mut crc = crc32fast::Hasher::new();
        crc.update(kind);
        crc.update(data);
        out.extend_from_slice(kind);
        out.extend_from_slice(data);
        out.extend_from_slice(&crc.finalize().to_be_bytes());
    }
    out
}

/// Writes every icon into `dir`.
pub fn write_all(dir: &std::path::Path) -> Result<(), String> {
    for icon in &ICONS {
        let bytes = png(icon.side_px, &pixels(icon));
        let path = dir.join(icon.name);
        std::fs::write(&path, bytes).map_err(|e| format!("write {}: {e}", path.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maskable_icon_is_opaque_and_the_plain_one_has_round_corners() {
        let masked = pixels(&ICONS[2]);
        assert!(
            masked.chunks(4).all(|p| p[3] == 255),
            "a maskable icon fills its square"
        );
        let plain = pixels(&ICONS[0]);
        assert_eq!(plain[3], 0, "the plain icon's corner is transparent");
        let side = ICONS[0].side_px as usize;
        let centre = (side / 2 * side + side / 2) * 4;
        assert_eq!(
            &plain[centre..centre + 4],
            &[255, 255, 255, 255],
            "the arrow's shaft is white"
        );
    }

    #[test]
    fn png_has_signature_and_chunks() {
        let bytes = png(2, &[0; 16]);
        assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
        assert_eq!(&bytes[12..16], b"IHDR");
        assert!(
            bytes.ends_with(&[0xAE, 0x42, 0x60, 0x82]),
            "IEND's fixed crc"
        );
    }
}
