//! The console in a real browser: `accord serve CONTRACT --console` on 127.0.0.1:0, and
//! crates/console/tests/browser/console.mjs driving headless Chromium (Debian's `chromium`,
//! never downloaded) through playwright-core, with axe-core. The script fails when the page
//! does not do what docs/console.md says; see its checks there.
//!
//! Without Chromium or the npm packages the tests fail and say what is missing: `cargo xtask
//! test` (the README's test command, which `.ci/run` runs) installs both. A browser test that
//! passed without a browser would be a test that cannot fail.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command};

use crate::common::*;

const BOILER: &str = "fixtures/contracts/boiler-plant.types.json";

/// The script's folder; fails the test, naming what to install, unless Chromium, node and the
/// script's packages are all there.
fn browser_kit() -> PathBuf {
    let dir = root().join("crates/console/tests/browser");
    let chromium = std::env::var("ACCORD_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let mut missing = Vec::new();
    if !Path::new(&chromium).exists() {
        missing.push(format!("{chromium} (apt-get install chromium)"));
    }
    for package in ["playwright-core", "axe-core"] {
        if !dir.join("node_modules").join(package).exists() {
            missing.push(format!("{package} (npm ci in {})", dir.display()));
        }
    }
    if Command::new("node").arg("--version").output().is_err() {
        missing.push("node".into());
    }
    assert!(
        missing.is_empty(),
        "the console's browser test needs {}: `cargo xtask test` installs them",
        missing.join(", ")
    );
    dir
}

/// A plant started with the console; it is terminated when dropped.
struct Plant {
    child: Child,
    url: String,
}

impl Drop for Plant {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `accord serve CONTRACT --console` on 127.0.0.1:0, with `extra` flags; its URL from the
/// banner's `console:` line.
fn serve_console(contract: &str, extra: &[&str]) -> Plant {
    let mut args = vec![contract, "--console", "--addr", "127.0.0.1:0"];
    args.extend_from_slice(extra);
    let mut child = spawn_serve(&args);
    let lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let mut url = None;
    for line in lines {
        let line = line.expect("banner");
        if let Some(console) = line.strip_prefix("console: ") {
            url = Some(console.trim_end_matches("console").to_owned());
            break;
        }
    }
    Plant { url: url.expect("the banner names the console"), child }
}

/// Runs the script; its figures, or a failure with what it said.
fn run_script(dir: &Path, args: &[&str]) -> serde_json::Value {
    let out = Command::new("node").arg("console.mjs").args(args).current_dir(dir).output().unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "the browser check failed: {said}");
    let figures = String::from_utf8_lossy(&out.stdout);
    println!("{figures}");
    serde_json::from_str(figures.trim()).expect("figures")
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn the_pump_plant_s_console_browses_calls_confirms_and_watches_in_chromium() {
    let dir = browser_kit();
    let scratch = scratch("console-pump");
    let token_file = scratch.join("token");
    std::fs::write(&token_file, "console-test-token\n").unwrap();
    let plant = serve_console(
        PUMP,
        &["--token-file", token_file.to_str().unwrap(), "--event-interval", "200"],
    );
    let contract = root().join(PUMP);
    let figures = run_script(
        &dir,
        &[
            "check",
            "--url",
            &plant.url,
            "--contract",
            contract.to_str().unwrap(),
            "--token",
            "console-test-token",
        ],
    );
    // Every step the script reports was done, not skipped for want of a method or event.
    assert_eq!(figures["methodsListed"], 13);
    assert_eq!(figures["readCall"], "pump.status");
    assert_eq!(figures["invalidFlagged"], "pump.setSpeed rpm");
    assert_eq!(figures["destructive"], "pump.resetRuntimeCounters");
    assert_eq!(figures["undeclared"], "pump.runSelfTest");
    assert_eq!(figures["unionForm"], "pump.start");
    assert_eq!(figures["confirmedOnce"], "pump.start");
    assert_eq!(figures["event"], "pump.stateChanged");
}

#[test]
fn the_boiler_plant_s_console_speaks_its_foreign_wire_in_chromium() {
    let dir = browser_kit();
    // No token: a jsonrpsee wire has no reduced access (wire.md §11.2), and no describe
    // method, so the console shows the contract accord was given.
    let plant = serve_console(BOILER, &["--event-interval", "200"]);
    let contract = root().join(BOILER);
    let figures =
        run_script(&dir, &["check", "--url", &plant.url, "--contract", contract.to_str().unwrap()]);
    assert_eq!(figures["methodsListed"], 5);
    assert_eq!(figures["readCall"], "boiler.reading");
    assert_eq!(figures["confirmedOnce"], "boiler.fire");
    assert_eq!(figures["event"], "boiler.telemetry");
}

/// The work-queue contract has links and causes: the method page shows them and leads to their
/// targets, and an event page names the methods that cause it.
#[test]
fn the_work_queue_s_console_shows_links_and_causes_in_chromium() {
    let dir = browser_kit();
    let queue = "fixtures/contracts/work-queue.types.json";
    let plant = serve_console(queue, &["--event-interval", "200"]);
    let contract = root().join(queue);
    let figures =
        run_script(&dir, &["check", "--url", &plant.url, "--contract", contract.to_str().unwrap()]);
    assert_eq!(figures["methodsListed"], 7);
    assert_eq!(figures["links"], "queue.enqueue → queue.claim");
    assert_eq!(figures["causes"], "queue.enqueue → queue.jobEnqueued");
}

#[test]
fn accord_console_in_front_of_a_live_plant_learns_its_contract_and_forwards_in_chromium() {
    let dir = browser_kit();
    let scratch = scratch("console-live");
    let token_file = scratch.join("token");
    std::fs::write(&token_file, "live-plant-token\n").unwrap();
    // The plant: accord serve without the console, standing in for a live plant.
    let mut plant = spawn_serve(&[
        PUMP,
        "--addr",
        "127.0.0.1:0",
        "--token-file",
        token_file.to_str().unwrap(),
        "--event-interval",
        "200",
    ]);
    let (_, plant_url, _) = banner(&mut plant);
    let plant = Plant { child: plant, url: plant_url };
    let mut command = Command::new(env!("CARGO_BIN_EXE_accord"));
    command.args(["console", "--url", &plant.url, "--addr", "127.0.0.1:0"]);
    let mut console = spawn_piped(command);
    let first = BufReader::new(console.stdout.take().unwrap()).lines().next().unwrap().unwrap();
    let url = first
        .strip_prefix("accord console: ")
        .and_then(|rest| rest.split_once("console in front of "))
        .map(|(url, _)| url.to_owned())
        .expect("the banner names the console");
    let console = Plant { child: console, url };
    let contract = root().join(PUMP);
    let figures = run_script(
        &dir,
        &[
            "check",
            "--url",
            &console.url,
            "--contract",
            contract.to_str().unwrap(),
            "--token",
            "live-plant-token",
        ],
    );
    assert_eq!(figures["methodsListed"], 13);
    assert_eq!(figures["destructive"], "pump.resetRuntimeCounters");
    assert_eq!(figures["event"], "pump.stateChanged");
}

/// 1,000 methods over 10 namespaces, every semantics and a bounded param each.
fn thousand_methods() -> serde_json::Value {
    let semantics = ["read", "idempotent", "write", "destructive"];
    let mut namespaces = serde_json::Map::new();
    for n in 0..10 {
        let mut methods = serde_json::Map::new();
        for m in 0..100 {
            let mut method = serde_json::json!({
                "description": format!("Method {m} of namespace {n}: sets a level and returns it."),
                "params": [{"name": "level", "type": {"kind": "integer", "min": 0, "max": 100, "unit": "%"}}],
                "result": {"kind": "object", "fields": {"level": {"type": {"kind": "integer", "unit": "%"}}}},
                "examples": [{"params": {"level": 50}, "result": {"level": 50}}]
            });
            if m % 5 != 4 {
                method["semantics"] = semantics[m % 4].into();
            }
            methods.insert(format!("method{n:02}x{m:03}"), method);
        }
        namespaces.insert(
            format!("ns{n:02}"),
            serde_json::json!({"version": "1.0.0", "methods": methods}),
        );
    }
    serde_json::json!({"schema": 1, "name": "a thousand methods", "namespaces": namespaces})
}

#[test]
fn the_console_stays_usable_with_a_thousand_methods() {
    let dir = browser_kit();
    let scratch = scratch("console-big");
    let contract = scratch.join("thousand.types.json");
    std::fs::write(&contract, serde_json::to_string_pretty(&thousand_methods()).unwrap()).unwrap();
    let plant = serve_console(contract.to_str().unwrap(), &[]);
    let figures =
        run_script(&dir, &["big", "--url", &plant.url, "--contract", contract.to_str().unwrap()]);
    assert_eq!(figures["methods"], 1000);
}
