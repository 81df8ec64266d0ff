//! `accord extract` and `accord check --source`: extraction written with the canonical writer,
//! merges that keep what extract does not produce, and stale contracts caught with a diff.

use crate::common::*;

use std::path::{Path, PathBuf};

/// A scratch copy of a fixture crate.
fn crate_copy(name: &str, fixture: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let from = root().join("fixtures/extract").join(fixture).join("src/lib.rs");
    std::fs::copy(from, dir.join("src/lib.rs")).unwrap();
    dir
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn extract_writes_the_canonical_document_and_the_merge_keeps_what_it_does_not_produce() {
    let dir = crate_copy("extract-merge", "docs-deprecated");
    let out = dir.join("tank.types.json");
    let run = accord_in(&dir, &["extract", "--source", ".", "--out", "tank.types.json"]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let first = std::fs::read_to_string(&out).unwrap();
    let expected = std::fs::read_to_string(
        root().join("fixtures/extract/docs-deprecated/expected.types.json"),
    )
    .unwrap();
    assert_eq!(first, expected, "the same writer as fmt, the same document as the fixture");

    // Hand-written parts: a component, an error, an example, a unit, an unknown member, a note.
    let mut doc: serde_json::Value = serde_json::from_str(&first).unwrap();
    let tank = &mut doc["namespaces"]["tank"];
    tank["component"] = serde_json::json!({"name": "tank-monitor"});
    tank["x-owner"] = serde_json::json!("ops");
    tank["methods"]["drain"]["errors"] =
        serde_json::json!([{"code": -32031, "message": "pumps running"}]);
    tank["methods"]["level"]["examples"] = serde_json::json!([{"params": {}, "result": {"volume": 1.0, "litres": 1.0, "spare": 0, "name": "a"}}]);
    tank["types"]["Level"]["fields"]["spare"]["type"]["unit"] = serde_json::json!("count");
    tank["reserved"] = serde_json::json!([{"name": "fill", "note": "removed in 0.3.0"}]);
    std::fs::write(&out, serde_json::to_string(&doc).unwrap()).unwrap();

    let again = accord_in(&dir, &["extract", "--source", ".", "--out", "tank.types.json"]);
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    let merged: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(merged, doc, "nothing hand-written is lost, nothing extracted changed");

    // The source changes: a field is added. The merge takes it and keeps the rest.
    let src = dir.join("src/lib.rs");
    let code = std::fs::read_to_string(&src).unwrap();
    std::fs::write(&src, code.replace("    pub spare: u8,", "    pub spare: u8,\n    /// Sensor health.\n    #[serde(skip_serializing_if = \"Option::is_none\")]\n    pub healthy: Option<bool>,")).unwrap();
    let stale = accord_in(&dir, &["check", "--source", ".", "tank.types.json"]);
    assert_eq!(stale.status.code(), Some(1), "{}", text(&stale.stderr));
    insta::assert_snapshot!("check_source_stale", text(&stale.stdout));

    let third = accord_in(&dir, &["extract", "--source", ".", "--out", "tank.types.json"]);
    assert_eq!(third.status.code(), Some(0));
    let merged: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(
        merged["namespaces"]["tank"]["types"]["Level"]["fields"]["healthy"]["optional"],
        true
    );
    assert_eq!(
        merged["namespaces"]["tank"]["types"]["Level"]["fields"]["spare"]["type"]["unit"],
        "count"
    );
    assert_eq!(merged["namespaces"]["tank"]["component"]["name"], "tank-monitor");
    let fresh = accord_in(&dir, &["check", "--source", ".", "tank.types.json"]);
    assert_eq!(fresh.status.code(), Some(0), "{}{}", text(&fresh.stdout), text(&fresh.stderr));
}

#[test]
fn an_unresolved_type_is_a_warning_and_strict_makes_it_an_error_that_writes_nothing() {
    let dir = crate_copy("extract-errors", "unresolved");
    let run = accord_in(&dir, &["extract", "--out", "ids.types.json"]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    assert!(dir.join("ids.types.json").exists());
    insta::assert_snapshot!("extract_unresolved_stderr", text(&run.stderr));
    std::fs::remove_file(dir.join("ids.types.json")).unwrap();
    let strict = accord_in(&dir, &["extract", "--strict", "--out", "ids.types.json"]);
    assert_eq!(strict.status.code(), Some(1));
    assert!(!dir.join("ids.types.json").exists());
    insta::assert_snapshot!("extract_unresolved_strict_stderr", text(&strict.stderr));
}

#[test]
fn a_missing_source_is_exit_2_and_a_crate_without_rpc_traits_is_exit_1() {
    let dir = crate_copy("extract-nothing", "struct-shapes");
    let missing = accord_in(&dir, &["extract", "--source", "/nonexistent"]);
    assert_eq!(missing.status.code(), Some(2), "{}", text(&missing.stderr));
    assert_eq!(text(&missing.stderr), "error: /nonexistent: no such directory\n");
    std::fs::write(dir.join("src/lib.rs"), "pub struct Lonely;\n").unwrap();
    let nothing = accord_in(&dir, &["extract", "--out", "x.types.json"]);
    assert_eq!(nothing.status.code(), Some(1));
    assert!(!dir.join("x.types.json").exists());
    insta::assert_snapshot!(text(&nothing.stderr), @r#"
    src/lib.rs:1:1: warning[no-rpc-traits]: no RPC trait found: no `#[rpc]` trait and no trait tagged `accord: namespace = "…"`
      help: point --source at the crate (or workspace) that declares the RPC traits
    extract: no contract written: . has no RPC trait
    "#);
    std::fs::write(dir.join("accord.toml"), "[extract]\nsourc = \".\"\n").unwrap();
    let typo = accord_in(&dir, &["extract"]);
    assert_eq!(typo.status.code(), Some(2));
    assert_eq!(
        text(&typo.stderr),
        "error: accord.toml: unknown key `extract.sourc`: did you mean `extract.source`?\n"
    );
}

#[test]
fn a_config_names_source_contract_and_versions_and_bad_config_is_exit_2() {
    let dir = crate_copy("extract-config", "struct-shapes");
    std::fs::write(
        dir.join("accord.toml"),
        "[extract]\nsource = \".\"\ncontract = \"shapes.types.json\"\nname = \"shapes-plant\"\n\n[namespaces.shapes]\nversion = \"2.0.0\"\nsemantics = { all = \"read\" }\n",
    )
    .unwrap();
    let code = std::fs::read_to_string(dir.join("src/lib.rs")).unwrap();
    std::fs::write(
        dir.join("src/lib.rs"),
        code.replace("version = \"1.0.0\"", "").replace("/// accord: semantics = read\n", ""),
    )
    .unwrap();
    let run = accord_in(&dir, &["extract"]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("shapes.types.json")).unwrap())
            .unwrap();
    assert_eq!(doc["name"], "shapes-plant");
    assert_eq!(doc["namespaces"]["shapes"]["version"], "2.0.0");
    assert_eq!(doc["namespaces"]["shapes"]["methods"]["all"]["semantics"], "read");

    std::fs::write(dir.join("bad.toml"), "[extract\n").unwrap();
    let bad = accord_in(&dir, &["extract", "--config", "bad.toml"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("bad.toml"), "{}", text(&bad.stderr));
}

#[test]
fn the_example_plant_contract_is_extracted_from_its_source_and_has_not_drifted() {
    // The crate directory comes from the configuration's `extract.source`.
    let check = accord(&["check", "--config", "examples/pump-plant/accord.toml", PUMP]);
    assert_eq!(check.status.code(), Some(0), "{}{}", text(&check.stdout), text(&check.stderr));

    // The extraction alone (no merge) already has every method, event and named type of the
    // contract, but for the hand-written error data: the merge adds refinements, not shape.
    let fresh = fresh_extraction("pump-plant");
    let committed: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root().join(PUMP)).unwrap()).unwrap();
    let keys = |v: &serde_json::Value, ns: &str, section: &str| -> Vec<String> {
        let mut k: Vec<String> = v["namespaces"][ns][section]
            .as_object()
            .map(|o| o.keys().cloned().collect())
            .unwrap_or_default();
        k.sort();
        k
    };
    for ns in ["pump", "valve", "tank"] {
        for section in ["methods", "events"] {
            assert_eq!(keys(&fresh, ns, section), keys(&committed, ns, section), "{ns}.{section}");
        }
        let mut types = keys(&committed, ns, "types");
        types.retain(|t| t != "Interlock");
        assert_eq!(keys(&fresh, ns, "types"), types, "{ns}.types");
    }
    assert_eq!(fresh["namespaces"]["pump"]["methods"]["start"]["paramStructure"], "by-name");
    assert_eq!(fresh["namespaces"]["pump"]["types"]["StartMode"]["discriminator"], "kind");
}

#[test]
fn the_boiler_plant_contract_records_the_wire_jsonrpsee_serves_and_has_not_drifted() {
    const BOILER: &str = "fixtures/contracts/boiler-plant.types.json";
    let check = accord(&["check", "--config", "examples/boiler-plant/accord.toml", BOILER]);
    assert_eq!(check.status.code(), Some(0), "{}{}", text(&check.stdout), text(&check.stderr));

    // The extraction alone (no merge) records jsonrpsee's wire: `_` names, no describe method,
    // jsonrpsee's codes, the subscription's three names.
    let fresh = fresh_extraction("boiler-plant");
    assert_eq!(
        fresh["wire"],
        serde_json::json!({"describe": false, "codes": {"profile": "jsonrpsee"}})
    );
    let wire = &fresh["namespaces"]["boiler"]["wire"];
    assert_eq!(wire["separator"], "_");
    assert_eq!(
        wire["events"]["telemetry"],
        serde_json::json!({
            "params": [],
            "subscribe": "boiler_subscribeTelemetry",
            "unsubscribe": "boiler_unsubscribeTelemetry",
            "notification": "boiler_telemetry"
        })
    );
    // The declared errors are the committed file's, kept by the merge.
    let committed: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root().join(BOILER)).unwrap()).unwrap();
    assert_eq!(
        committed["namespaces"]["boiler"]["methods"]["reading"]["errors"][0]["code"],
        -32020
    );
    assert_eq!(committed["namespaces"]["boiler"]["wire"], *wire);
}

#[test]
fn the_work_queue_node_is_the_bundled_contract_extracted_and_a_change_is_stale() {
    const WQ: &str = "fixtures/contracts/work-queue.types.json";
    let check = accord(&["check", "--config", "examples/work-queue/accord.toml", WQ]);
    assert_eq!(check.status.code(), Some(0), "{}{}", text(&check.stdout), text(&check.stderr));
    // A copy of the node's source with one field renamed: the bundled contract is stale.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("work-queue-stale");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src/store")).unwrap();
    for file in [
        "api.rs",
        "lib.rs",
        "node.rs",
        "main.rs",
        "store/mod.rs",
        "store/sqlite.rs",
        "store/postgres.rs",
        "store/schema.rs",
        "store/suite.rs",
    ] {
        let from = root().join("examples/work-queue/src").join(file);
        let mut source = std::fs::read_to_string(from).unwrap();
        if file == "api.rs" {
            source =
                source.replace("pub(crate) worker: String,", "pub(crate) worker_name: String,");
        }
        std::fs::write(dir.join("src").join(file), source).unwrap();
    }
    let stale = accord(&[
        "check",
        "--config",
        "examples/work-queue/accord.toml",
        "--source",
        dir.to_str().unwrap(),
        WQ,
    ]);
    assert_eq!(stale.status.code(), Some(1), "{}", text(&stale.stderr));
    assert!(
        text(&stale.stdout).contains("stale: the contract extracted from"),
        "{}",
        text(&stale.stdout)
    );
    assert!(text(&stale.stdout).contains("workerName"), "{}", text(&stale.stdout));
    // `--config` alone re-extracts from the configuration's own `extract.source` (it once did
    // so only with `--source`, and this check passed on a stale contract).
    let config = dir.join("accord.toml");
    std::fs::write(
        &config,
        "[extract]\nsource = \".\"\nname = \"work-queue-node\"\nwire = \"accord\"\n",
    )
    .unwrap();
    let stale = accord(&["check", "--config", config.to_str().unwrap(), WQ]);
    assert_eq!(stale.status.code(), Some(1), "{}{}", text(&stale.stdout), text(&stale.stderr));
    assert!(text(&stale.stdout).contains("workerName"), "{}", text(&stale.stdout));
}

/// The example plant `plant`'s extraction alone (no merge: written to a file of its own).
fn fresh_extraction(plant: &str) -> serde_json::Value {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{plant}-fresh.types.json"));
    let _ = std::fs::remove_file(&out);
    let config = format!("examples/{plant}/accord.toml");
    let fresh = accord(&["extract", "--config", &config, "--out", out.to_str().unwrap()]);
    assert_eq!(fresh.status.code(), Some(0), "{}", text(&fresh.stderr));
    serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap()
}

/// `accord extract --config` on the example plant rewrites the committed contract only where
/// its content changed: with nothing changed the file keeps every byte, and with one member
/// gone from it only that line comes back (issue 18, defect 4: the canonical layout is the one
/// the contract is committed in, so a rewrite is a small diff).
#[test]
fn extract_rewrites_the_example_contract_only_where_its_content_changed() {
    let committed = std::fs::read_to_string(root().join(PUMP)).unwrap();
    let copy = Path::new(env!("CARGO_TARGET_TMPDIR")).join("pump-rewrite.types.json");
    let extract = |expect: &str| {
        let config = "examples/pump-plant/accord.toml";
        let run = accord(&["extract", "--config", config, "--out", copy.to_str().unwrap()]);
        assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
        assert_eq!(std::fs::read_to_string(&copy).unwrap(), committed, "{expect}");
    };

    std::fs::write(&copy, &committed).unwrap();
    extract("nothing changed: every byte kept");

    let line = "          \"paramStructure\": \"by-name\",\n";
    assert!(committed.contains(line), "pump.start says its param structure on a line of its own");
    std::fs::write(&copy, committed.replacen(line, "", 1)).unwrap();
    extract("one member gone: that line comes back, nothing else moves");
}

#[test]
fn a_workspace_root_and_several_sources_are_one_contract() {
    let ws = root().join("fixtures/extract/workspace");
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("accord-ws.types.json");
    let _ = std::fs::remove_file(&out);
    let whole = accord_in(
        &root(),
        &[
            "extract",
            "--offline",
            "--source",
            "fixtures/extract/workspace",
            "--out",
            &out.display().to_string(),
        ],
    );
    assert_eq!(whole.status.code(), Some(0), "{}", text(&whole.stderr));
    let written = std::fs::read_to_string(&out).unwrap();
    assert_eq!(written, std::fs::read_to_string(ws.join("expected.types.json")).unwrap());
    // Two members by name, one contract; a stale contract names each member's file.
    let two = accord_in(
        &root(),
        &[
            "extract",
            "--offline",
            "--source",
            "fixtures/extract/workspace/crates/eth-api",
            "--source",
            "fixtures/extract/workspace/crates/eth-pubsub",
        ],
    );
    assert_eq!(two.status.code(), Some(0), "{}", text(&two.stderr));
    assert_eq!(text(&two.stdout), written);
    std::fs::write(&out, written.replace("Logs matching a filter.", "Old text.")).unwrap();
    let stale = accord_in(
        &root(),
        &[
            "check",
            "--source",
            "fixtures/extract/workspace/crates/eth-api",
            "--source",
            "fixtures/extract/workspace/crates/eth-pubsub",
            &out.display().to_string(),
        ],
    );
    assert_eq!(stale.status.code(), Some(1), "{}", text(&stale.stderr));
    assert!(
        text(&stale.stdout).contains(
            "/namespaces/eth/methods/logs comes from fixtures/extract/workspace/crates/eth-pubsub/src/lib.rs:"
        ),
        "{}",
        text(&stale.stdout)
    );
    // The same two as a list in accord.toml's `extract.source` (relative to the file).
    let config = Path::new(env!("CARGO_TARGET_TMPDIR")).join("accord-ws-sources.toml");
    let members = ws.join("crates");
    std::fs::write(
        &config,
        format!(
            "[extract]\nsource = [{:?}, {:?}]\n",
            members.join("eth-api").display().to_string(),
            members.join("eth-pubsub").display().to_string()
        ),
    )
    .unwrap();
    let listed =
        accord_in(&root(), &["extract", "--offline", "--config", &config.display().to_string()]);
    assert_eq!(listed.status.code(), Some(0), "{}", text(&listed.stderr));
    assert_eq!(text(&listed.stdout), written);
    let _ = std::fs::remove_file(&out);
}

/// The hostile-source fixtures (docs/extract.md, "Bounds on hostile source") end in exit 2 with
/// their diagnostic, each run under a 2 GiB address-space limit (`ulimit -v`) and stopped if it
/// takes over 60 s: before the bounds, generics 2,000 deep aborted with a stack overflow and a
/// module including itself reached 3.1 GB.
#[test]
fn hostile_sources_end_in_exit_2_in_bounded_time_and_memory() {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let cases = [
        ("alias-chain", "nesting-too-deep"),
        ("alias-doubling", "type-too-large"),
        ("alias-self-pair", "nesting-too-deep"),
        ("deep-generics", "nesting-too-deep"),
        ("deep-parens", "nesting-too-deep"),
        ("path-cycle", "module-cycle"),
        ("path-outside-back", "module-cycle"),
        ("self-module", "module-cycle"),
    ];
    for (case, code) in cases {
        let dir = root().join("fixtures/extract/hostile").join(case);
        let mut child = Command::new("sh")
            .arg("-c")
            .arg("ulimit -v 2097152 && exec \"$0\" extract --source \"$1\"")
            .arg(env!("CARGO_BIN_EXE_accord"))
            .arg(&dir)
            .env("NO_COLOR", "1")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("sh (POSIX) runs the binary under ulimit");
        let start = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if start.elapsed() > Duration::from_secs(60) {
                let _ = child.kill();
                panic!("{case}: still running after 60 s");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let out = child.wait_with_output().unwrap();
        let err = text(&out.stderr);
        assert_eq!(status.code(), Some(2), "{case}: {err}");
        assert!(err.contains(&format!(": {code}: ")), "{case}: {err}");
        assert!(err.contains("/src/"), "{case} names the file: {err}");
        assert!(out.stdout.is_empty(), "{case}: nothing written");
    }
}
