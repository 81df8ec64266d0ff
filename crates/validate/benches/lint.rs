//! What `accord check` does to one contract, read and lint, on generated contracts of 10,000,
//! 40,000 and 100,000 named types (10 namespaces of the shape of the `compile` bench's
//! 1,000-type contract). Its time must grow linearly with the number of types: the lint's
//! `ref-cycle` and `no-finite-value` rules once grew as its square (issue 18, defect 14).
//!
//! After the timings the bench prints its peak resident set (`VmHWM`) twice: of the whole run
//! (generating the contracts included), and since the last size's contract was generated,
//! which is what reading and linting that text took with the text held (the peak is reset
//! through `/proc/self/clear_refs` once the text is made). Run one size alone to read that
//! size's, `cargo bench -p accord-validate --bench lint -- 100000`.
//!
//! See docs/benchmarks.md (`## check's lint`) for the numbers.
//!
//! With `ACCORD_LINT_BENCH_OUT=DIR` set, each size's contract is also written to
//! `DIR/lint-<types>.types.json`, for timing `accord check` on the same text.
//!
//! The bench allocates through mimalloc, as the `accord` binary does (crates/cli/src/main.rs):
//! with glibc's malloc the same work took about 1.4 times as long (docs/benchmarks.md).
//!
//! Run: `cargo bench -p accord-validate --bench lint`

use std::sync::atomic::{AtomicU64, Ordering};

use accord_schema_model::Document;
use accord_validate::LintReport;
use divan::{Bencher, black_box, counter::ItemsCount};

#[path = "common/mod.rs"]
mod common;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Named types per contract.
const SIZES: &[usize] = &[10_000, 40_000, 100_000];

/// Namespaces per contract.
const NAMESPACES: usize = 10;

/// The run's peak resident set before the last reset, in kB.
static EARLIER_PEAK_KB: AtomicU64 = AtomicU64::new(0);

fn main() {
    divan::main();
    match peak_kb() {
        Ok(since) => {
            let run = since.max(EARLIER_PEAK_KB.load(Ordering::Relaxed));
            eprintln!("peak resident set of this run: {run} kB");
            eprintln!(
                "peak resident set since the last contract was generated (its text, read and lint): {since} kB"
            );
        }
        Err(err) => eprintln!("peak resident set unknown (/proc/self/status: {err})"),
    }
}

/// `VmHWM` of this process, in kB.
fn peak_kb() -> Result<u64, String> {
    let status = std::fs::read_to_string("/proc/self/status").map_err(|e| e.to_string())?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).ok_or("no VmHWM line")?;
    let kb = line["VmHWM:".len()..].trim().trim_end_matches("kB").trim();
    kb.parse().map_err(|e| format!("{line}: {e}"))
}

/// Keeps the peak so far, then resets it (Linux: `5` to `clear_refs`), so that what follows
/// has a peak of its own.
fn reset_peak() {
    if let Ok(kb) = peak_kb() {
        EARLIER_PEAK_KB.fetch_max(kb, Ordering::Relaxed);
    }
    if let Err(err) = std::fs::write("/proc/self/clear_refs", "5") {
        eprintln!("the peak resident set cannot be reset (/proc/self/clear_refs: {err})");
    }
}

/// `Document::parse` of the contract's canonical text, then `LintReport::of`: what
/// `accord check FILE` spends its time on.
#[divan::bench(args = SIZES, sample_count = 3, sample_size = 1)]
fn check(bencher: Bencher, types: usize) {
    let text = common::contract(NAMESPACES, types / NAMESPACES).to_canonical_string();
    if let Some(dir) = std::env::var_os("ACCORD_LINT_BENCH_OUT") {
        let path = std::path::Path::new(&dir).join(format!("lint-{types}.types.json"));
        std::fs::write(&path, &text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
    reset_peak();
    let report = LintReport::of(&Document::parse(&text).expect("the generated contract reads"));
    assert_eq!(report.errors(), 0, "the generated contract lints clean: {report:?}");
    bencher.counter(ItemsCount::new(types)).bench(|| {
        let doc = Document::parse(black_box(&text)).expect("the generated contract reads");
        LintReport::of(&doc)
    });
}
