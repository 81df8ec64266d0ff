//! conform against plants built in the test: the healthy one passes completely, and each
//! deliberately broken one is caught, with its report as a snapshot.

use crate::plant;

use std::time::Duration;

use crate::plant::Fault;
use accord_conform::{
    Endpoint, FailureKind, MethodSummary, NoProgress, Options, Outcome, Policy, Report, Transcript,
};
use accord_schema_model::Document;

const TOKEN: &str = "s3cret-token";

fn contract(name: &str) -> Document {
    let path = format!("{}/../../fixtures/contracts/{name}", env!("CARGO_MANIFEST_DIR"));
    Document::parse(&std::fs::read_to_string(path).expect("contract")).expect("parses")
}

fn options(doc: &Document, allow: &[&str], calls: usize) -> Options {
    let mut options = Options::default();
    options.calls = calls;
    options.seed = 1;
    options.policy = Policy::with_allowed(doc, allow.iter().copied()).expect("policy");
    options.timeout = Duration::from_secs(5);
    options
}

async fn conform(
    contract_file: &str,
    token: Option<&str>,
    fault: Fault,
    allow: &[&str],
    calls: usize,
) -> Report {
    let url = plant::start(contract_file, token, fault).await;
    let doc = contract(contract_file);
    let mut plant = Endpoint::new(url);
    plant.token = token.map(str::to_owned);
    accord_conform::run(&doc, &plant, &options(&doc, allow, calls), &NoProgress).await.expect("run")
}

fn kinds(report: &Report) -> Vec<FailureKind> {
    let mut kinds: Vec<FailureKind> = report
        .failures()
        .flat_map(|c| match &c.outcome {
            accord_conform::Outcome::Failed(p) => p.iter().map(|p| p.kind).collect(),
            _ => Vec::new(),
        })
        .collect();
    kinds.sort();
    kinds.dedup();
    kinds
}

const EVERYTHING: &[&str] = &["idempotent,write,destructive,undeclared"];

#[tokio::test]
async fn the_healthy_plant_passes_completely_with_everything_allowed() {
    let report = conform("pump-plant.types.json", Some(TOKEN), Fault::None, EVERYTHING, 3).await;
    assert!(report.passed(), "{}", report.to_text());
    assert!(report.checks.iter().any(|c| c.phase == accord_conform::Phase::Events
        && c.outcome == accord_conform::Outcome::Passed));
    insta::assert_snapshot!(report.to_text());
}

#[tokio::test]
async fn the_healthy_work_queue_plant_without_credentials_passes() {
    let report = conform("work-queue.types.json", None, Fault::None, EVERYTHING, 3).await;
    assert!(report.passed(), "{}", report.to_text());
    insta::assert_snapshot!(report.to_text());
}

#[tokio::test]
async fn by_default_only_read_methods_are_called() {
    let report = conform("pump-plant.types.json", Some(TOKEN), Fault::None, &[], 2).await;
    assert!(report.passed(), "{}", report.to_text());
    let doc = contract("pump-plant.types.json");
    for check in &report.checks {
        if let Some(method) = check
            .subject
            .split_once('.')
            .and_then(|(ns, m)| doc.namespaces.as_ref()?.get(ns)?.methods.as_ref()?.get(m))
        {
            assert_eq!(
                accord_conform::Class::of(method),
                accord_conform::Class::Read,
                "{} was called",
                check.subject
            );
        }
    }
    insta::assert_snapshot!(report.to_text());
}

async fn broken(fault: Fault, expected: FailureKind) -> Report {
    let report = conform("pump-plant.types.json", Some(TOKEN), fault, &[], 2).await;
    assert!(!report.passed(), "{fault:?} was not caught");
    assert!(
        kinds(&report).contains(&expected),
        "{fault:?}: {:?}\n{}",
        kinds(&report),
        report.to_text()
    );
    report
}

#[tokio::test]
async fn a_wrong_result_type_is_caught() {
    let report = broken(Fault::WrongResultType, FailureKind::ResultInvalid).await;
    insta::assert_snapshot!(report.to_text());
}

#[tokio::test]
async fn a_result_out_of_bounds_is_caught() {
    let report = broken(Fault::ResultOutOfBounds, FailureKind::ResultInvalid).await;
    insta::assert_snapshot!(report.to_text());
}

#[tokio::test]
async fn invalid_params_accepted_are_caught() {
    let report = broken(Fault::AcceptsInvalidParams, FailureKind::AcceptedInvalidParams).await;
    assert!(!kinds(&report).contains(&FailureKind::WrongErrorCode), "reported apart");
    insta::assert_snapshot!(report.to_text());
}

#[tokio::test]
async fn a_wrong_error_code_is_caught_apart_from_accepted_params() {
    let report = broken(Fault::WrongErrorCode, FailureKind::WrongErrorCode).await;
    assert!(!kinds(&report).contains(&FailureKind::AcceptedInvalidParams), "reported apart");
    insta::assert_snapshot!(report.to_text());
}

#[tokio::test]
async fn a_missing_method_is_caught() {
    let report = broken(Fault::MissingMethod, FailureKind::MethodMissing).await;
    insta::assert_snapshot!(report.to_text());
}

/// Every problem of every failed check, with the check's subject.
fn problems(report: &Report) -> Vec<(String, FailureKind)> {
    report
        .failures()
        .flat_map(|c| match &c.outcome {
            Outcome::Failed(p) => p.iter().map(|p| (c.subject.clone(), p.kind)).collect(),
            _ => Vec::new(),
        })
        .collect()
}

#[tokio::test]
async fn a_missing_method_is_one_method_missing_failure_and_its_other_checks_are_skipped() {
    let report = broken(Fault::MissingMethod, FailureKind::MethodMissing).await;
    let found = problems(&report);
    assert_eq!(
        found,
        vec![(plant::FAULTY_METHOD.to_owned(), FailureKind::MethodMissing)],
        "{}",
        report.to_text()
    );
    let skipped = report
        .checks
        .iter()
        .filter(|c| c.subject == plant::FAULTY_METHOD && matches!(c.outcome, Outcome::Skipped(_)))
        .count();
    assert!(skipped >= 3, "the method's other positive and negative checks: {skipped}");
}

#[tokio::test]
async fn a_missing_method_is_one_method_missing_whatever_order_its_checks_ran_in() {
    // The method's first call is an invalid example: the plant's method-not-found answer to it
    // is the method missing all the same, and every other check of it is the same cause.
    let url = plant::start("pump-plant.types.json", Some(TOKEN), Fault::MissingMethod).await;
    let mut doc = contract("pump-plant.types.json");
    let (ns, m) = plant::FAULTY_METHOD.split_once('.').unwrap();
    let method = doc
        .namespaces
        .as_mut()
        .and_then(|all| all.get_mut(ns))
        .and_then(|n| n.methods.as_mut())
        .and_then(|all| all.get_mut(m))
        .expect("the faulty method");
    let mut invalid = method.examples.as_ref().expect("examples")[0].clone();
    invalid.params = serde_json::json!({"pump": 7});
    invalid.result = None;
    method.examples.as_mut().unwrap().insert(0, invalid);
    for jobs in [1, 4] {
        let mut plant = Endpoint::new(url.clone());
        plant.token = Some(TOKEN.to_owned());
        let mut options = options(&doc, &[], 2);
        options.jobs = jobs;
        let report = accord_conform::run(&doc, &plant, &options, &NoProgress).await.expect("run");
        assert_eq!(
            problems(&report),
            vec![(plant::FAULTY_METHOD.to_owned(), FailureKind::MethodMissing)],
            "--jobs {jobs}: {}",
            report.to_text()
        );
    }
}

#[tokio::test]
async fn a_missing_method_that_flows_go_through_is_still_one_method_missing() {
    let report = conform("work-queue.types.json", None, Fault::AckMissing, EVERYTHING, 2).await;
    assert_eq!(
        problems(&report),
        vec![("queue.ack".to_owned(), FailureKind::MethodMissing)],
        "{}",
        report.to_text()
    );
    // The flows through it stop there, skipped with the reason, over both transports.
    let stopped = report
        .checks
        .iter()
        .filter(|c| c.phase == accord_conform::Phase::Flows)
        .filter(|c| matches!(&c.outcome, Outcome::Skipped(r) if r.contains("the plant lacks queue.ack")))
        .count();
    assert_eq!(stopped, 4, "{}", report.to_text());
}

#[tokio::test]
async fn a_method_answering_every_call_with_one_undeclared_error_is_one_finding() {
    let report = broken(Fault::SameUndeclaredError, FailureKind::UndeclaredError).await;
    // One failed check, the method's honesty check: the error that is the cause, and no result.
    assert_eq!(report.failures().count(), 1, "{}", report.to_text());
    assert_eq!(
        problems(&report),
        vec![
            (plant::FAULTY_METHOD.to_owned(), FailureKind::UndeclaredError),
            (plant::FAULTY_METHOD.to_owned(), FailureKind::NoResult)
        ],
        "{}",
        report.to_text()
    );
    insta::assert_snapshot!(report.to_text());
}

#[tokio::test]
async fn a_flow_step_answering_a_declared_error_fails_the_flow_naming_the_step() {
    let report =
        conform("work-queue.types.json", None, Fault::AckAlwaysRefused, EVERYTHING, 2).await;
    assert!(!report.passed(), "{}", report.to_text());
    let flows: Vec<(String, Vec<String>)> = report
        .failures()
        .filter(|c| c.phase == accord_conform::Phase::Flows)
        .map(|c| {
            let messages = match &c.outcome {
                Outcome::Failed(p) => {
                    p.iter().map(|p| format!("[{}] {}", p.kind.as_str(), p.message)).collect()
                }
                _ => Vec::new(),
            };
            (c.subject.clone(), messages)
        })
        .collect();
    assert_eq!(
        flows,
        [
            "queue.enqueue → queue.claim → queue.ack",
            "queue.enqueue → queue.claim → queue.ack",
            "queue.enqueueMany → queue.claim → queue.ack",
            "queue.enqueueMany → queue.claim → queue.ack"
        ]
        .map(|f| (
                f.to_owned(),
                vec!["[flow-step] step 3 (queue.ack) answered error -32044 (job not found): a step of a flow must return a result".to_owned()]
            ))
            .to_vec(),
        "{}",
        report.to_text()
    );
    // Over http and over ws; the nack flows, which ack is not in, pass; ack never returned a
    // result anywhere.
    assert!(problems(&report).contains(&("queue.ack".to_owned(), FailureKind::NoResult)));
}

#[tokio::test]
async fn a_plant_answering_only_declared_errors_fails_every_called_method_with_no_result() {
    let report = broken(Fault::OnlyDeclaredErrors, FailureKind::NoResult).await;
    for m in report.plan.called() {
        assert!(
            problems(&report).contains(&(m.name.clone(), FailureKind::NoResult)),
            "{}: {}",
            m.name,
            report.to_text()
        );
    }
    for (name, summary) in report.methods() {
        if let MethodSummary::Called { answers, .. } = summary {
            assert_eq!(answers.results, 0, "{name}");
        }
    }
}

#[tokio::test]
async fn declared_errors_on_valid_calls_are_no_result_and_refused_examples() {
    let report = broken(Fault::DeclaredErrorsOnValidCalls, FailureKind::NoResult).await;
    assert_eq!(
        kinds(&report),
        vec![FailureKind::NoResult, FailureKind::ExampleRefused],
        "{}",
        report.to_text()
    );
    insta::assert_snapshot!(report.to_text());
}

#[tokio::test]
async fn a_null_result_where_the_type_has_no_null_is_caught() {
    let report = broken(Fault::NullResult, FailureKind::ResultInvalid).await;
    assert!(
        problems(&report).iter().all(|(subject, _)| subject == plant::FAULTY_METHOD),
        "{}",
        report.to_text()
    );
}

#[tokio::test]
async fn a_declared_error_with_a_wrong_message_is_caught() {
    let report = broken(Fault::WrongErrorMessage, FailureKind::WrongErrorMessage).await;
    assert_eq!(kinds(&report), vec![FailureKind::WrongErrorMessage], "{}", report.to_text());
    assert!(report.to_text().contains(plant::WRONG_MESSAGE));
    insta::assert_snapshot!(report.to_text());
}

#[tokio::test]
async fn a_slow_plant_is_failed_checks_with_the_time_waited_and_the_deadline_ends_the_run() {
    let slow = Fault::Slow(Duration::from_secs(3));
    let url = plant::start("pump-plant.types.json", Some(TOKEN), slow).await;
    let doc = contract("pump-plant.types.json");
    let mut options = options(&doc, &[], 2);
    options.timeout = Duration::from_millis(200);
    options.deadline = Some(Duration::from_millis(1500));
    let mut plant = Endpoint::new(url);
    plant.token = Some(TOKEN.to_owned());
    let started = std::time::Instant::now();
    let report = accord_conform::run(&doc, &plant, &options, &NoProgress)
        .await
        .expect("a slow plant is reachable: its slowness is failed checks, not an error");
    let took = started.elapsed();
    assert!(took < Duration::from_secs(3), "the deadline bounds the run: {took:?}");
    assert!(!report.passed());
    let first = &report.checks[0];
    assert!(
        matches!(&first.outcome, Outcome::Failed(p) if p.iter().any(|p| p.kind == FailureKind::Timeout && p.message.contains("200 ms"))),
        "{:?}",
        first.outcome
    );
    let not_run = report.checks.iter().filter(|c| matches!(c.outcome, Outcome::NotRun(_))).count();
    assert!(not_run > 10, "{not_run} not run\n{}", report.to_text());
    let text = report.to_text();
    assert!(text.contains("NOT RUN") && text.contains("does NOT conform"), "{text}");
}

#[tokio::test]
async fn calls_go_out_in_parallel_up_to_jobs_and_the_report_does_not_depend_on_it() {
    let doc = contract("pump-plant.types.json");
    let mut seen = Vec::new();
    for jobs in [1, 4] {
        let slow = Fault::Slow(Duration::from_millis(20));
        let (url, stats) =
            plant::start_with_stats("pump-plant.types.json", Some(TOKEN), slow).await;
        let mut options = options(&doc, &[], 2);
        options.jobs = jobs;
        let mut plant = Endpoint::new(url);
        plant.token = Some(TOKEN.to_owned());
        let report = accord_conform::run(&doc, &plant, &options, &NoProgress).await.expect("run");
        assert!(report.passed(), "{}", report.to_text());
        seen.push((
            stats.max_in_flight.load(std::sync::atomic::Ordering::SeqCst),
            report.to_text(),
        ));
    }
    assert_eq!(seen[0].0, 1, "--jobs 1 sends one call at a time");
    assert!(
        (2..=4).contains(&seen[1].0),
        "--jobs 4: at most 4 at once, and more than one: {}",
        seen[1].0
    );
    assert_eq!(seen[0].1, seen[1].1, "the same report whatever --jobs");
}

#[tokio::test]
async fn a_describe_differing_from_the_contract_is_caught() {
    let report = broken(Fault::DescribeDiffers, FailureKind::DescribeDiffers).await;
    insta::assert_snapshot!(report.to_text());
}

#[tokio::test]
async fn a_wrong_credential_downgraded_instead_of_refused_is_caught() {
    let report =
        broken(Fault::WrongCredentialDowngraded, FailureKind::WrongCredentialDowngraded).await;
    insta::assert_snapshot!(report.to_text());
}

#[tokio::test]
async fn an_event_payload_that_does_not_validate_is_caught() {
    let report = broken(Fault::EventPayloadInvalid, FailureKind::EventPayloadInvalid).await;
    insta::assert_snapshot!(report.to_text());
}

#[tokio::test]
async fn a_failure_transcript_replays_to_the_same_failure_and_passes_on_the_healthy_plant() {
    let report = broken(Fault::WrongResultType, FailureKind::ResultInvalid).await;
    let failure = report.failures().find(|c| c.subject == plant::FAULTY_METHOD).expect("a failure");
    let text = failure.transcript.render();
    let transcript = Transcript::parse(&text).expect("parses");
    assert_eq!(transcript, failure.transcript, "render and parse round-trip");
    let doc = contract("pump-plant.types.json");
    let opts = options(&doc, &[], 2);
    for (fault, fails) in [(Fault::WrongResultType, true), (Fault::None, false)] {
        let url = plant::start("pump-plant.types.json", Some(TOKEN), fault).await;
        let mut plant = Endpoint::new(url);
        plant.token = Some(TOKEN.to_owned());
        let replayed = accord_conform::replay(&doc, &plant, &opts, &transcript, &NoProgress)
            .await
            .expect("replay");
        assert_eq!(replayed.checks.len(), 1);
        assert_eq!(!replayed.passed(), fails, "{}", replayed.to_text());
    }
}

#[tokio::test]
async fn a_refused_connection_is_an_error_naming_the_url() {
    // Bind and drop: a port nothing listens on.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}/", listener.local_addr().expect("addr"));
    drop(listener);
    let doc = contract("pump-plant.types.json");
    let plant = Endpoint::new(url.clone());
    let err =
        accord_conform::run(&doc, &plant, &Options::default(), &NoProgress).await.unwrap_err();
    assert!(matches!(err, accord_conform::Error::Connect { .. }));
    assert!(err.to_string().contains(&url), "{err}");
}

#[tokio::test]
async fn a_declared_error_whose_data_does_not_validate_is_caught() {
    let report = broken(Fault::DeclaredErrorDataInvalid, FailureKind::ErrorDataInvalid).await;
    insta::assert_snapshot!(report.to_text());
}

#[tokio::test]
async fn a_websocket_transcript_with_a_wrong_credential_replays() {
    let report =
        broken(Fault::WrongCredentialDowngraded, FailureKind::WrongCredentialDowngraded).await;
    let failure = report
        .failures()
        .find(|c| c.name.contains("over WebSocket"))
        .expect("the WebSocket upgrade failure");
    let transcript = Transcript::parse(&failure.transcript.render()).expect("parses");
    let doc = contract("pump-plant.types.json");
    let opts = options(&doc, &[], 2);
    for (fault, fails) in [(Fault::WrongCredentialDowngraded, true), (Fault::None, false)] {
        let url = plant::start("pump-plant.types.json", Some(TOKEN), fault).await;
        let mut plant = Endpoint::new(url);
        plant.token = Some(TOKEN.to_owned());
        let replayed = accord_conform::replay(&doc, &plant, &opts, &transcript, &NoProgress)
            .await
            .expect("replay");
        assert_eq!(!replayed.passed(), fails, "{fault:?}\n{}", replayed.to_text());
    }
}
