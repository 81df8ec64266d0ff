//! `cargo xtask console-shots`: the screenshots of docs/console.md, made by the console's
//! browser script (crates/console/tests/browser/console.mjs) against `accord serve` of the
//! pump plant with `--console`; and the presence check `cargo xtask fixtures --check` makes.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail};

use crate::accord::Accord;

/// The screenshots docs/console.md shows, as the script names them.
pub(crate) const SHOTS: [&str; 7] = [
    "overview",
    "reduced",
    "call-form",
    "read-call",
    "invalid-field",
    "destructive-confirmation",
    "events",
];

/// Where they live.
pub(crate) const FOLDER: &str = "docs/console";

/// The browser script's folder.
const SCRIPT_DIR: &str = "crates/console/tests/browser";

/// The screenshots that are missing.
pub(crate) fn missing(root: &Path) -> Vec<PathBuf> {
    SHOTS
        .iter()
        .map(|name| Path::new(FOLDER).join(format!("{name}.png")))
        .filter(|path| !root.join(path).is_file())
        .collect()
}

/// Makes every screenshot again.
pub(crate) fn run(root: &Path) -> Result<()> {
    let script = root.join(SCRIPT_DIR);
    if !script.join("node_modules/playwright-core").exists() {
        bail!(
            "run `npm ci` in {SCRIPT_DIR} first (and `apt-get install chromium`): .ci/run does both"
        );
    }
    let accord = Accord::build_current(root)?;
    let scratch = std::env::temp_dir().join(format!("accord-console-shots-{}", std::process::id()));
    std::fs::create_dir_all(&scratch)?;
    let token_file = scratch.join("token");
    std::fs::write(&token_file, "console-shots\n")?;
    let mut plant = Command::new(accord.bin())
        .current_dir(root)
        .args(["serve", "fixtures/contracts/pump-plant.types.json", "--console"])
        .args(["--addr", "127.0.0.1:0", "--event-interval", "200", "--token-file"])
        .arg(&token_file)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .context("could not start accord serve")?;
    let stdout = plant.stdout.take().context("accord serve's stdout")?;
    let url = BufReader::new(stdout).lines().map_while(std::result::Result::ok).find_map(|line| {
        line.strip_prefix("console: ").map(|u| u.trim_end_matches("console").to_owned())
    });
    let result =
        match url {
            None => Err(anyhow::anyhow!("accord serve printed no console URL")),
            Some(url) => Command::new("node")
                .current_dir(&script)
                .args(["console.mjs", "check", "--url", &url, "--contract"])
                .arg(root.join("fixtures/contracts/pump-plant.types.json"))
                .args(["--token", "console-shots", "--shots"])
                .arg(root.join(FOLDER))
                .status()
                .context("could not run node")
                .and_then(|status| {
                    if status.success() { Ok(()) } else { bail!("the browser script failed") }
                }),
        };
    let _ = plant.kill();
    let _ = plant.wait();
    let _ = std::fs::remove_dir_all(&scratch);
    result?;
    let missing = missing(root);
    if !missing.is_empty() {
        bail!("the script did not make {missing:?}");
    }
    println!("console-shots: {} screenshots in {FOLDER}", SHOTS.len());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// docs/console.md shows exactly the screenshots this task makes.
    #[test]
    fn the_doc_shows_every_screenshot_made() {
        let root = crate::workspace::root();
        let doc = std::fs::read_to_string(root.join("docs/console.md")).unwrap();
        let mut shown: Vec<&str> = doc
            .split("](console/")
            .skip(1)
            .filter_map(|rest| rest.split_once(".png)").map(|(name, _)| name))
            .collect();
        shown.sort_unstable();
        let mut made = SHOTS.to_vec();
        made.sort_unstable();
        assert_eq!(shown, made);
    }
}
