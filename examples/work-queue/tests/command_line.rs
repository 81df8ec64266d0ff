//! The node's command line: `--help` is help (exit 0, on stdout), a wrong argument is a usage
//! error (exit 2), and a node started without `--db` says where it is storing jobs.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

fn node() -> Command {
    Command::new(env!("CARGO_BIN_EXE_work-queue"))
}

#[test]
fn help_is_help_and_a_wrong_argument_is_a_usage_error() {
    for flag in ["--help", "-h"] {
        let out = node().arg(flag).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{flag}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains("usage: work-queue [--port N] [--db PATH | --postgres URL]"),
            "{text}"
        );
        assert!(text.contains("--postgres URL"), "{text}");
        assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let out = node().arg("--bogus").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unexpected `--bogus`"));
}

#[test]
fn without_db_the_node_says_where_it_stores_jobs() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("work-queue-default-db");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut child =
        node().current_dir(&dir).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut url = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut url).unwrap();
    let _ = child.kill();
    let out = child.wait_with_output().unwrap();
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("no --db or --postgres given: storing jobs in ./work-queue.db"),
        "{said}"
    );
    assert!(dir.join("work-queue.db").exists());
}
