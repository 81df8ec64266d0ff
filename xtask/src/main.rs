//! The project's build tasks, run as `cargo xtask <task>`: see [`USAGE`].

mod accord;
mod bench_giant;
mod bench_serve;
mod bench_startup;
mod bless;
mod code_map;
mod console_shots;
mod crates;
#[cfg(test)]
mod downstream_example;
mod ensure;
mod fixtures;
mod floor;
mod format_schema;
mod freeze;
mod fuzz_smoke;
mod layering;
mod load;
#[cfg(test)]
mod refinement_sites;
mod release;
mod roundtrip;
mod soak;
mod suite;
mod value_diff;
mod workspace;
mod worktree;

use std::process::ExitCode;

const USAGE: &str = "\
usage: cargo xtask <task> [options]

tasks:
  test [--setup-only] [NEXTEST ARGS]
                           the README's test command: install what the suite needs besides Rust
                           (Debian packages as root, else the command to run; the pinned npm folders;
                           the Python venvs under the target dir; cargo-nextest, cargo-semver-checks),
                           then `cargo nextest run` (default --workspace; fails when a test was
                           skipped). --setup-only installs and prints the variables to export
  fixtures [--check]       regenerate every generated file (the goldens in fixtures/golden/current/,
                           docs/compat-rules.md, docs/types.schema.json);
                           with --check, write nothing and fail listing every file out of date
  bless [NEXTEST ARGS]     update every generated file: the goldens, then the tests under
                           ACCORD_BLESS=1 INSTA_UPDATE=always (insta snapshots, docs/compat-rules.md,
                           docs/lint-rules.md, extract's expected contracts); args go to
                           `cargo nextest run` (default --workspace). Review `git diff` afterwards
  freeze VERSION           copy fixtures/golden/current/ to fixtures/golden/vVERSION/ (VERSION is
                           MAJOR.MINOR.PATCH, e.g. 0.1.0); refuses if that folder exists
  roundtrip [--against REV]
                           read and rewrite every document in fixtures/contracts, fixtures/future and
                           the frozen goldens without loss; with --against, also check that accord
                           built from git revision REV and today's accord rewrite each other's output
                           without loss
  bench-serve              accord serve against @open-rpc/mock-server and Prism (installed with npm into
                           the target dir when npm is there, else skipped) on loopback: requests/s and
                           p50/p99 per method, then accord's latency at a fixed 5,000 requests/s
  bench-startup            accord serve (release) from exec to its first answer on generated contracts
                           of 1,000 and 10,000 methods, 15 starts each, interleaved: quartiles
  bench-giant [--methods N]
                           accord serve (release) of a generated contract of N methods (default a
                           million): start-up, then two rpc.describe, each with the peak RSS
  bench-floor ADDR METHOD=FILE...
                           (run by bench-serve) the least server there can be: answers each POST on ADDR
                           with FILE's bytes for the METHOD its body names, parsing nothing else
  soak --secs N [--url URL]
                           accord serve of the pump plant (release) under normal calls (HTTP and
                           WebSocket) and hostile peers for N seconds on loopback: peak RSS, p50/p99
                           of the normal calls, failures and what each hostile peer got; fails when
                           a normal call failed. With --url, drive the plant running there
  release VERSION [--dry-run]
                           make release VERSION from a clean tree: .ci/run, roundtrip against the
                           previous release and goldens frozen, cargo-semver-checks on the library
                           crates, versions bumped, CHANGELOG.md's Unreleased moved, cargo package,
                           the release commit and the tag vVERSION (not pushed); with --dry-run, all
                           of it in a throwaway worktree, changing nothing
  crates [--check]         build every library crate alone, with its default features and with none,
                           and write the packages each pulls in to docs/crates.md's table; with
                           --check, fail when one does not build alone or the table is out of date
  package                  cargo package of every publishable crate: each builds from its packaged
                           files alone (nothing is published)
  console-shots            the screenshots of docs/console.md (docs/console/*.png), made by the
                           console's browser script in headless Chromium against accord serve
                           --console of the pump plant (needs chromium and npm ci, as .ci/run does)
  fuzz-smoke [--secs N]    the extract fuzz target (fuzz/) built on the stable toolchain and run for N
                           seconds (default 30, at most 60), seeded with its regression inputs; fails
                           on a crash, a hang or memory past 2 GiB (CI runs it)
  layering                 print the dependencies between workspace packages and check them against
                           the layering table in docs/ARCHITECTURE.md
  help                     print this text
";

/// A task and its options, as given on the command line.
#[derive(Debug, PartialEq, Eq)]
enum Task {
    Test {
        setup_only: bool,
        nextest_args: Vec<String>,
    },
    Fixtures {
        check: bool,
    },
    Bless {
        nextest_args: Vec<String>,
    },
    Freeze {
        version: String,
    },
    Roundtrip {
        against: Option<String>,
    },
    Release {
        version: String,
        dry_run: bool,
    },
    Crates {
        check: bool,
    },
    Package,
    /// The extract fuzz target for `secs` seconds.
    FuzzSmoke {
        secs: u64,
    },
    Layering,
    ConsoleShots,
    BenchServe,
    BenchStartup,
    /// `accord serve` of a generated contract of `methods` methods.
    BenchGiant {
        methods: usize,
    },
    BenchFloor {
        addr: std::net::SocketAddr,
        answers: Vec<String>,
    },
    Soak(soak::Options),
    Help,
}

/// Parses the arguments after `cargo xtask`.
fn parse_args(args: &[String]) -> Result<Task, String> {
    if args.iter().any(|a| a == "-h" || a == "--help") {
        return Ok(Task::Help);
    }
    let Some((task, rest)) = args.split_first() else {
        return Err("no task given".to_owned());
    };
    let mut rest = rest.iter().map(String::as_str);
    let task = match task.as_str() {
        "help" => Task::Help,
        "fixtures" => {
            let mut check = false;
            for arg in rest.by_ref() {
                match arg {
                    "--check" => check = true,
                    other => return Err(unexpected("fixtures", other)),
                }
            }
            Task::Fixtures { check }
        }
        "test" => {
            let mut setup_only = false;
            let mut nextest_args = Vec::new();
            for arg in rest.by_ref() {
                match arg {
                    "--setup-only" if nextest_args.is_empty() => setup_only = true,
                    _ => nextest_args.push(arg.to_owned()),
                }
            }
            Task::Test { setup_only, nextest_args }
        }
        "bless" => Task::Bless { nextest_args: rest.by_ref().map(str::to_owned).collect() },
        "freeze" => {
            let version =
                rest.next().ok_or("`freeze` needs a VERSION, e.g. `cargo xtask freeze 0.1.0`")?;
            if version.starts_with('-') {
                return Err(unexpected("freeze", version));
            }
            Task::Freeze { version: version.to_owned() }
        }
        "roundtrip" => {
            let mut against = None;
            while let Some(arg) = rest.next() {
                let rev = match arg {
                    "--against" => rest.next().ok_or("`--against` needs a git revision")?,
                    _ => match arg.strip_prefix("--against=") {
                        Some(rev) => rev,
                        None => return Err(unexpected("roundtrip", arg)),
                    },
                };
                if rev.is_empty() || against.is_some() {
                    return Err("give `--against` once, with a git revision".to_owned());
                }
                against = Some(rev.to_owned());
            }
            Task::Roundtrip { against }
        }
        "release" => {
            let (mut version, mut dry_run) = (None, false);
            for arg in rest.by_ref() {
                match arg {
                    "--dry-run" => dry_run = true,
                    _ if arg.starts_with('-') || version.is_some() => {
                        return Err(unexpected("release", arg));
                    }
                    _ => version = Some(arg.to_owned()),
                }
            }
            let version = version
                .ok_or("`release` needs a VERSION, e.g. `cargo xtask release 0.2.0 --dry-run`")?;
            Task::Release { version, dry_run }
        }
        "crates" => {
            let mut check = false;
            for arg in rest.by_ref() {
                match arg {
                    "--check" => check = true,
                    other => return Err(unexpected("crates", other)),
                }
            }
            Task::Crates { check }
        }
        "package" => Task::Package,
        "fuzz-smoke" => {
            let mut secs = fuzz_smoke::DEFAULT_SECS;
            while let Some(arg) = rest.next() {
                match arg {
                    "--secs" => {
                        let n = rest.next().ok_or("`--secs` needs a number of seconds")?;
                        let n = n
                            .parse::<u64>()
                            .ok()
                            .filter(|n| (1..=fuzz_smoke::MAX_SECS).contains(n));
                        secs = n.ok_or(format!(
                            "`--secs` takes 1 to {} seconds",
                            fuzz_smoke::MAX_SECS
                        ))?;
                    }
                    other => return Err(unexpected("fuzz-smoke", other)),
                }
            }
            Task::FuzzSmoke { secs }
        }
        "layering" => Task::Layering,
        "console-shots" => Task::ConsoleShots,
        "bench-serve" => Task::BenchServe,
        "bench-startup" => Task::BenchStartup,
        "bench-giant" => {
            let methods = match (rest.next(), rest.next()) {
                (None, _) => 1_000_000,
                (Some("--methods"), Some(n)) => {
                    n.parse().map_err(|_| format!("`{n}` is not a count of methods"))?
                }
                (Some(other), _) => {
                    return Err(format!("`bench-giant` takes `--methods N`, not `{other}`"));
                }
            };
            Task::BenchGiant { methods }
        }
        "bench-floor" => {
            let addr = rest.next().ok_or("`bench-floor` needs an ADDR")?;
            let addr = addr.parse().map_err(|_| format!("`{addr}` is not an address"))?;
            let answers: Vec<String> = rest.by_ref().map(str::to_owned).collect();
            if answers.is_empty() || answers.iter().any(|a| !a.contains('=')) {
                return Err("`bench-floor` needs METHOD=FILE answers after the address".into());
            }
            Task::BenchFloor { addr, answers }
        }
        "soak" => {
            let (mut secs, mut url) = (None, None);
            while let Some(arg) = rest.next() {
                match arg {
                    "--secs" => {
                        let n = rest.next().ok_or("`--secs` needs a number of seconds")?;
                        let n = n.parse::<u64>().ok().filter(|n| (1..=86_400).contains(n));
                        secs = Some(n.ok_or("`--secs` takes 1 to 86400 seconds")?);
                    }
                    "--url" => {
                        let u = rest.next().ok_or("`--url` needs http://HOST:PORT/")?;
                        url = Some(u.to_owned());
                    }
                    other => return Err(unexpected("soak", other)),
                }
            }
            let secs = secs.ok_or("`soak` needs `--secs N`")?;
            Task::Soak(soak::Options { secs, url })
        }
        other => return Err(format!("unknown task `{other}`")),
    };
    if let Some(extra) = rest.next() {
        return Err(unexpected(task_name(&task), extra));
    }
    Ok(task)
}

fn task_name(task: &Task) -> &'static str {
    match task {
        Task::Fixtures { .. } => "fixtures",
        Task::Test { .. } => "test",
        Task::Bless { .. } => "bless",
        Task::Freeze { .. } => "freeze",
        Task::Roundtrip { .. } => "roundtrip",
        Task::Release { .. } => "release",
        Task::Crates { .. } => "crates",
        Task::Package => "package",
        Task::FuzzSmoke { .. } => "fuzz-smoke",
        Task::Layering => "layering",
        Task::ConsoleShots => "console-shots",
        Task::BenchServe => "bench-serve",
        Task::BenchStartup => "bench-startup",
        Task::BenchGiant { .. } => "bench-giant",
        Task::BenchFloor { .. } => "bench-floor",
        Task::Soak(_) => "soak",
        Task::Help => "help",
    }
}

fn unexpected(task: &str, arg: &str) -> String {
    format!("unexpected argument `{arg}` for `{task}`")
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let task = match parse_args(&args) {
        Ok(task) => task,
        Err(message) => {
            eprintln!("error: {message}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let root = workspace::root();
    let result = match task {
        Task::Help => {
            print!("{USAGE}");
            Ok(())
        }
        Task::Fixtures { check } => {
            let mode = if check { ensure::Mode::Check } else { ensure::Mode::Write };
            fixtures::run(&root, mode)
        }
        Task::Test { setup_only, nextest_args } => suite::run(&root, &nextest_args, setup_only),
        Task::Bless { nextest_args } => bless::run(&root, &nextest_args),
        Task::Freeze { version } => freeze::run(&root, &version),
        Task::Roundtrip { against } => roundtrip::run(&root, against.as_deref()),
        Task::Release { version, dry_run } => {
            let options = release::Options {
                version,
                dry_run,
                target_dir: workspace::target_dir(&root),
                steps: release::Steps::ALL,
            };
            release::run(&root, &options).map(|_| ())
        }
        Task::Crates { check } => crates::run(&root, check),
        Task::Package => workspace::publishable_packages(&root).and_then(|found| {
            let names: Vec<String> = found.into_iter().map(|(name, _)| name).collect();
            workspace::package(&root, &workspace::target_dir(&root), &names)
        }),
        Task::FuzzSmoke { secs } => fuzz_smoke::run(&root, secs),
        Task::Layering => layering::run(&root),
        Task::ConsoleShots => console_shots::run(&root),
        Task::BenchServe => bench_serve::run(&root),
        Task::BenchStartup => bench_startup::run(&root),
        Task::BenchGiant { methods } => bench_giant::run(&root, methods),
        Task::BenchFloor { addr, answers } => floor::run(addr, &answers),
        Task::Soak(options) => soak::run(&root, &options),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<Task, String> {
        let args: Vec<String> = line.split_whitespace().map(str::to_owned).collect();
        parse_args(&args)
    }

    #[test]
    fn parses_each_task() {
        assert_eq!(parse("fixtures"), Ok(Task::Fixtures { check: false }));
        assert_eq!(parse("fixtures --check"), Ok(Task::Fixtures { check: true }));
        assert_eq!(parse("bless"), Ok(Task::Bless { nextest_args: vec![] }));
        assert_eq!(
            parse("bless -p accord-compat-diff"),
            Ok(Task::Bless { nextest_args: vec!["-p".into(), "accord-compat-diff".into()] })
        );
        assert_eq!(parse("freeze 0.1.0"), Ok(Task::Freeze { version: "0.1.0".into() }));
        assert_eq!(parse("roundtrip"), Ok(Task::Roundtrip { against: None }));
        assert_eq!(
            parse("roundtrip --against HEAD~1"),
            Ok(Task::Roundtrip { against: Some("HEAD~1".into()) })
        );
        assert_eq!(
            parse("roundtrip --against=v0.1.0"),
            Ok(Task::Roundtrip { against: Some("v0.1.0".into()) })
        );
        assert_eq!(
            parse("release 0.2.0 --dry-run"),
            Ok(Task::Release { version: "0.2.0".into(), dry_run: true })
        );
        assert_eq!(parse("crates --check"), Ok(Task::Crates { check: true }));
        assert_eq!(parse("layering"), Ok(Task::Layering));
        assert_eq!(parse("fuzz-smoke"), Ok(Task::FuzzSmoke { secs: 30 }));
        assert_eq!(parse("fuzz-smoke --secs 60"), Ok(Task::FuzzSmoke { secs: 60 }));
        assert!(parse("fuzz-smoke --secs 61").is_err(), "bounded: at most 60 s");
        assert!(parse("fuzz-smoke --secs 0").is_err());
        assert_eq!(parse("console-shots"), Ok(Task::ConsoleShots));
        assert_eq!(parse("bench-serve"), Ok(Task::BenchServe));
        assert_eq!(parse("bench-giant"), Ok(Task::BenchGiant { methods: 1_000_000 }));
        assert_eq!(parse("bench-giant --methods 1000"), Ok(Task::BenchGiant { methods: 1000 }));
        assert!(parse("bench-giant --fast").is_err());
        assert_eq!(
            parse("bench-floor 127.0.0.1:1 bench.ping=a.json"),
            Ok(Task::BenchFloor {
                addr: "127.0.0.1:1".parse().unwrap(),
                answers: vec!["bench.ping=a.json".into()]
            })
        );
        assert_eq!(parse("soak --secs 60"), Ok(Task::Soak(soak::Options { secs: 60, url: None })));
        assert_eq!(
            parse("soak --url http://127.0.0.1:7878/ --secs 5"),
            Ok(Task::Soak(soak::Options { secs: 5, url: Some("http://127.0.0.1:7878/".into()) }))
        );
        assert_eq!(parse("test"), Ok(Task::Test { setup_only: false, nextest_args: vec![] }));
        assert_eq!(
            parse("test --setup-only"),
            Ok(Task::Test { setup_only: true, nextest_args: vec![] })
        );
        assert_eq!(
            parse("test -p accord-wire --no-fail-fast"),
            Ok(Task::Test {
                setup_only: false,
                nextest_args: vec!["-p".into(), "accord-wire".into(), "--no-fail-fast".into()]
            })
        );
        assert_eq!(parse("help"), Ok(Task::Help));
        assert_eq!(parse("fixtures --help"), Ok(Task::Help));
    }

    #[test]
    fn refuses_bad_usage() {
        for bad in [
            "",
            "unblessed",
            "fixtures --chek",
            "fixtures extra",
            "freeze",
            "freeze 0.1.0 0.2.0",
            "freeze --force",
            "roundtrip --against",
            "roundtrip --against a --against b",
            "roundtrip HEAD",
            "release",
            "release 0.2.0 0.3.0",
            "release 0.2.0 --force",
            "crates --fix",
            "layering extra",
            "console-shots extra",
            "bench-serve --fast",
            "bench-floor",
            "bench-floor nowhere a=b",
            "bench-floor 127.0.0.1:1",
            "bench-floor 127.0.0.1:1 a.json",
            "soak",
            "soak --secs",
            "soak --secs 0",
            "soak --secs ten",
            "soak --secs 5 --fast",
        ] {
            assert!(parse(bad).is_err(), "{bad:?} was accepted");
        }
    }
}
