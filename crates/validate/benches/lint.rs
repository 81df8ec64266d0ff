//! What `accord check` does to one contract, read and lint, on generated contracts of 10,000,
//! 40,000 and 100,000 named types (10 namespaces of the shape of the `compile` bench's
//! 1,000-type contract). Its time must grow linearly with the number of types: the lint's
//! `ref-cycle` and `no-finite-value` rules once grew as its square (issue 18, defect 14).
//!
//! After the timings the bench prints its peak resident set (`VmHWM`): run one size alone to
//! read that size's peak, `cargo bench -p accord-validate --bench lint -- 100000`.
//!
//! See docs/benchmarks.md (`## check's lint`) for the numbers.
//!
//! With `ACCORD_LINT_BENCH_OUT=DIR` set, each size's contract is also written to
//! `DIR/lint-<types>.types.json`, for timing `accord check` on the same text.
//!
//! Run: `cargo bench -p accord-validate --bench lint`

use accord_schema_model::Document;
use accord_validate::LintReport;
use divan::{Bencher, black_box, counter::ItemsCount};

#[path = "common/mod.rs"]
mod common;

/// Named types per contract.
const SIZES: &[usize] = &[10_000, 40_000, 100_000];

/// Namespaces per contract.
const NAMESPACES: usize = 10;

fn main() {
    divan::main();
    match std::fs::read_to_string("/proc/self/status") {
        Ok(status) => {
            for line in status.lines().filter(|l| l.starts_with("VmHWM")) {
                eprintln!("peak resident set of this run: {}", line["VmHWM:".len()..].trim());
            }
        }
        Err(err) => eprintln!("peak resident set unknown (/proc/self/status: {err})"),
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
    let report = LintReport::of(&Document::parse(&text).expect("the generated contract reads"));
    assert_eq!(report.errors(), 0, "the generated contract lints clean: {report:?}");
    bencher.counter(ItemsCount::new(types)).bench(|| {
        let doc = Document::parse(black_box(&text)).expect("the generated contract reads");
        LintReport::of(&doc)
    });
}
