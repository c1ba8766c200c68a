//! The students' address as a QR code in the terminal, two module rows per text line
//! with Unicode half blocks (`▀ ▄ █`), so a phone in the room opens it without typing.
//!
//! Light modules are drawn and dark ones left blank: a terminal's text is light on a
//! dark background by default (Windows' console, most Linux and macOS themes), which
//! makes the code dark on light as the standard wants. On a light theme it comes out
//! inverted, which phone cameras read too. The quiet zone is the standard's 4 modules.

use qrcodegen::{QrCode, QrCodeEcc};

const QUIET_MODULES: i32 = 4;

/// The code's lines, or None when the text does not fit (an address always does).
pub fn lines(text: &str) -> Option<Vec<String>> {
    let qr = QrCode::encode_text(text, QrCodeEcc::Medium).ok()?;
    // Outside the symbol is the quiet zone: light.
    let light = |x: i32, y: i32| !qr.get_module(x, y);
    let span = -QUIET_MODULES..qr.size() + QUIET_MODULES;
    let mut out = Vec::new();
    for y in span.clone().step_by(2) {
        let line = span
            .clone()
            .map(|x| match (light(x, y), light(x, y + 1)) {
                (true, true) => '█',
                (true, false) => '▀',
                (false, true) => '▄',
                (false, false) => ' ',
            })
            .collect();
        out.push(line);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_the_code_with_its_quiet_zone_two_rows_a_line() {
        let url = "http://192.168.1.20:8080/";
        let qr = QrCode::encode_text(url, QrCodeEcc::Medium).unwrap();
        let lines = lines(url).unwrap();
        let side = (qr.size() + 2 * QUIET_MODULES) as usize;
        assert_eq!(lines.len(), side.div_ceil(2));
        assert!(lines.iter().all(|l| l.chars().count() == side));
        // The first two module rows are quiet zone (light): a full block line.
        assert!(lines[0].chars().all(|c| c == '█'));
        // Line 2 holds the symbol's rows 0 and 1: the finder's top edge (dark, blank above)
        // over its ring (dark at its two sides only, light ▄ between).
        let finder_top: String = lines[2].chars().skip(4).take(7).collect();
        assert_eq!(finder_top, " ▄▄▄▄▄ ");
    }
}
