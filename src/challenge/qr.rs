//! A challenge's share link as a QR code, which presenter mode shows large so a room opens
//! it on their phones (#23).
//!
//! The symbol is `qrcodegen`'s (Project Nayuki's encoder: maintained, no dependencies, the
//! standard's mask penalties): the link in byte mode, the smallest version at level M, and
//! level L only when the link does not fit version 40 at M. The level is never raised
//! past the one asked for (`boost_ecl` off), so a link's symbol is as small as it can be.
//! This file keeps what the page draws from it: the modules and an SVG path. It ships
//! only in the challenge chunk, which loads on use (`src/challenge/lazy.rs`).

use core::fmt::{self, Write};

use qrcodegen::{QrCode, QrCodeEcc, QrSegment, Version};

/// A QR code symbol: `size` × `size` modules, without the quiet zone.
#[derive(Clone, PartialEq, Eq)]
pub struct Qr(QrCode);

impl fmt::Debug for Qr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Qr(version {}, {} modules)", self.version(), self.size())
    }
}

impl Qr {
    /// The code for `data` in byte mode: the smallest version at level M, else at level L;
    /// `None` when it doesn't fit version 40-L (more than 2 953 bytes).
    pub fn encode(data: &[u8]) -> Option<Qr> {
        let segments = [QrSegment::make_bytes(data)];
        [QrCodeEcc::Medium, QrCodeEcc::Low]
            .into_iter()
            .find_map(|level| {
                QrCode::encode_segments_advanced(
                    &segments,
                    level,
                    Version::MIN,
                    Version::MAX,
                    None,
                    false,
                )
                .ok()
            })
            .map(Qr)
    }

    /// Modules per side, without the quiet zone (21 for version 1, 177 for version 40).
    pub fn size(&self) -> usize {
        usize::try_from(self.0.size()).unwrap_or(0)
    }

    /// Whether the module in column `x`, row `y` is dark (`false` outside the symbol).
    pub fn dark(&self, x: usize, y: usize) -> bool {
        match (i32::try_from(x), i32::try_from(y)) {
            (Ok(x), Ok(y)) => self.0.get_module(x, y),
            _ => false,
        }
    }

    /// The version, 1–40.
    pub fn version(&self) -> u8 {
        self.0.version().value()
    }

    /// An SVG path `d` drawing every dark module, one subpath per horizontal run, inside a
    /// quiet zone of `quiet_modules`: for `viewBox="0 0 {size + 2q} {size + 2q}"`.
    pub fn svg_path(&self, quiet_modules: usize) -> String {
        let size = self.size();
        let mut path = String::new();
        for y in 0..size {
            let mut x = 0;
            while x < size {
                if !self.dark(x, y) {
                    x += 1;
                    continue;
                }
                let start = x;
                while self.dark(x, y) {
                    x += 1;
                }
                let run = x - start;
                let (left, top) = (
                    start.saturating_add(quiet_modules),
                    y.saturating_add(quiet_modules),
                );
                let _ = write!(path, "M{left} {top}h{run}v1h-{run}z");
            }
        }
        path
    }
}

#[cfg(test)]
mod tests {
    //! `qrcodegen`'s symbols checked against a second, independent encoder, the `qrcode`
    //! crate (a dev-dependency only), module for module: for every input, `qrcode` must
    //! need the version and level chosen here (not fit a version lower, nor version 40-M
    //! when the level is L), and draw the same symbol under the mask `qrcodegen` picked.
    use super::*;
    use qrcode::bits::Bits;
    use qrcode::canvas::{Canvas, MaskPattern};
    use qrcode::types::{Color, EcLevel, QrError, Version as TheirVersion};

    /// The standard's mask numbers 0–7, in `qrcode`'s names.
    const PATTERNS: [MaskPattern; 8] = [
        MaskPattern::Checkerboard,
        MaskPattern::HorizontalLines,
        MaskPattern::VerticalLines,
        MaskPattern::DiagonalLines,
        MaskPattern::LargeCheckerboard,
        MaskPattern::Fields,
        MaskPattern::Diamonds,
        MaskPattern::Meadow,
    ];

    fn ec_level(qr: &Qr) -> EcLevel {
        match qr.0.error_correction_level() {
            QrCodeEcc::Low => EcLevel::L,
            QrCodeEcc::Medium => EcLevel::M,
            other => panic!("level {other:?} is never asked for"),
        }
    }

    fn their_version(version: u8) -> TheirVersion {
        TheirVersion::Normal(i16::from(version))
    }

    /// `qrcode`'s data bits for `data` in byte mode (no segment optimisation), terminated.
    fn their_bits(data: &[u8], version: u8, level: EcLevel) -> Result<Bits, QrError> {
        let mut bits = Bits::new(their_version(version));
        bits.push_byte_data(data)?;
        bits.push_terminator(level)?;
        Ok(bits)
    }

    /// `qrcode`'s symbol under the standard's mask `mask`.
    fn their_masked(data: &[u8], version: u8, level: EcLevel, mask: u8) -> Vec<bool> {
        let bytes = their_bits(data, version, level).expect("fits").into_bytes();
        let (data_cw, ecc_cw) =
            qrcode::ec::construct_codewords(&bytes, their_version(version), level)
                .expect("codewords");
        let mut canvas = Canvas::new(their_version(version), level);
        canvas.draw_all_functional_patterns();
        canvas.draw_data(&data_cw, &ecc_cw);
        canvas.apply_mask(PATTERNS[usize::from(mask)]);
        canvas
            .into_colors()
            .into_iter()
            .map(|c| c == Color::Dark)
            .collect()
    }

    fn modules(qr: &Qr) -> Vec<bool> {
        let size = qr.size();
        (0..size * size)
            .map(|at| qr.dark(at % size, at / size))
            .collect()
    }

    /// Checks one input against `qrcode`.
    fn compare(data: &[u8]) {
        let qr = Qr::encode(data).expect("encodes");
        let (version, level) = (qr.version(), ec_level(&qr));
        let len = data.len();
        assert_eq!(qr.size(), 4 * usize::from(version) + 17);
        assert!(their_bits(data, version, level).is_ok(), "{len} bytes");
        if version > 1 {
            assert!(their_bits(data, version - 1, level).is_err(), "{len} bytes");
        }
        if level == EcLevel::L {
            assert!(their_bits(data, 40, EcLevel::M).is_err(), "{len} bytes");
        }
        let mask = qr.0.mask().value();
        let theirs = their_masked(data, version, level, mask);
        let at = modules(&qr)
            .iter()
            .zip(&theirs)
            .position(|(a, b)| a != b)
            .map(|at| (at % qr.size(), at / qr.size()));
        assert_eq!(
            at, None,
            "{len} bytes, version {version}, mask {mask}: first differing module"
        );
    }

    /// A small seeded generator (Knuth's MMIX LCG), its high byte.
    struct Lcg(u64);

    impl Lcg {
        fn byte(&mut self) -> u8 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 56) as u8
        }

        fn bytes(&mut self, len: usize) -> Vec<u8> {
            (0..len).map(|_| self.byte()).collect()
        }

        /// A share link's shape: an address, then base64url text.
        fn link(&mut self, len: usize) -> Vec<u8> {
            let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
            let mut link = b"https://outbox.example/play/#challenge=".to_vec();
            while link.len() < len {
                link.push(alphabet[usize::from(self.byte() % 64)]);
            }
            link.truncate(len);
            link
        }
    }

    /// The largest input (bytes) at a version and level, by `qrcode`'s reckoning.
    fn capacity(version: u8, level: EcLevel) -> usize {
        let lengths: Vec<usize> = (0..=2_954).collect();
        let fits = |&len: &usize| their_bits(&vec![0; len], version, level).is_ok();
        lengths.partition_point(fits) - 1
    }

    #[test]
    fn chosen_lengths_match_qrcode() {
        let mut lcg = Lcg(23);
        let lengths = [0, 1, 17, 100, 500, 1_000, 1_500, 2_000, 2_953];
        for &len in &lengths {
            compare(&lcg.link(len));
            compare(&lcg.bytes(len));
        }
    }

    #[test]
    fn version_boundaries_match_qrcode() {
        let mut lcg = Lcg(7);
        let top_m = capacity(40, EcLevel::M);
        for version in 1..=40 {
            let full = capacity(version, EcLevel::M);
            compare(&lcg.bytes(full));
            compare(&lcg.bytes(full + 1)); // the next version, or level L after 40-M
            let full = capacity(version, EcLevel::L);
            if full > top_m {
                compare(&lcg.bytes(full));
                if full < 2_953 {
                    compare(&lcg.bytes(full + 1));
                }
            }
        }
        assert_eq!(capacity(40, EcLevel::L), 2_953);
    }

    #[test]
    fn random_inputs_match_qrcode() {
        let mut lcg = Lcg(2_953);
        for k in 0..40 {
            let len = (usize::from(lcg.byte()) << 8 | usize::from(lcg.byte())) % 2_954;
            let data = if k % 2 == 0 {
                lcg.bytes(len)
            } else {
                lcg.link(len)
            };
            compare(&data);
        }
    }

    #[test]
    fn too_long_is_none() {
        assert_eq!(Qr::encode(&[b'A'; 2_954]), None);
        assert!(Qr::encode(&[b'A'; 2_953]).is_some_and(|qr| qr.version() == 40));
        assert_eq!(
            Qr::encode(&[]).map(|qr| (qr.version(), qr.size())),
            Some((1, 21))
        );
    }

    #[test]
    fn outside_the_symbol_is_light() {
        let qr = Qr::encode(b"x").expect("encodes");
        assert!(qr.dark(0, 0) && qr.dark(20, 0) && qr.dark(0, 20));
        assert!(!qr.dark(21, 0) && !qr.dark(0, 21) && !qr.dark(usize::MAX, usize::MAX));
    }

    /// The cells one subpath `M{x} {y}h{n}v1h-{n}z` covers, and the run's length.
    fn subpath_cells(subpath: &str) -> Vec<(usize, usize)> {
        let (x, rest) = subpath.split_once(' ').expect("x");
        let (y, rest) = rest.split_once('h').expect("y");
        let (run, rest) = rest.split_once("v1h-").expect("run");
        assert_eq!(rest, format!("{run}z"), "closes the same run back");
        let (x, y, run): (usize, usize, usize) = (
            x.parse().expect("x"),
            y.parse().expect("y"),
            run.parse().expect("run"),
        );
        assert!(run > 0);
        (x..x + run).map(|x| (x, y)).collect()
    }

    #[test]
    fn svg_path_covers_exactly_the_dark_modules() {
        let qr = Qr::encode(b"https://outbox.example/#c=AbC-_9").expect("encodes");
        let quiet = 4;
        let path = qr.svg_path(quiet);
        assert!(path.starts_with('M'));
        let mut covered = vec![false; qr.size() * qr.size()];
        let mut subpaths = 0;
        for subpath in path.split('M').skip(1) {
            subpaths += 1;
            for (x, y) in subpath_cells(subpath) {
                assert!(
                    (quiet..quiet + qr.size()).contains(&x),
                    "{x} inside the quiet zone"
                );
                assert!(
                    (quiet..quiet + qr.size()).contains(&y),
                    "{y} inside the quiet zone"
                );
                let at = (y - quiet) * qr.size() + x - quiet;
                assert!(!covered[at], "({x}, {y}) drawn twice");
                covered[at] = true;
            }
        }
        let dark = modules(&qr);
        assert_eq!(covered, dark);
        // One subpath per horizontal run: a dark module with a light (or no) left neighbour.
        let runs = (0..dark.len()).filter(|&at| dark[at] && (at % qr.size() == 0 || !dark[at - 1]));
        assert_eq!(subpaths, runs.count());
    }
}
