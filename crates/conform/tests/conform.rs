//! conform against plants built in the test: the healthy one passes completely, and each
//! deliberately broken one is caught, with its report as a snapshot.

mod plant;

use std::time::Duration;

use accord_conform::{Kind, NoProgress, Options, Plant, Policy, Report, Transcript};
use accord_schema_model::Document;
use plant::Fault;

const TOKEN: &str = "s3cret-token";

fn contract(name: &str) -> Document {
    let path = format!("{}/../../fixtures/contracts/{name}", env!("CARGO_MANIFEST_DIR"));
    Document::parse(&std::fs::read_to_string(path).expect("contract")).expect("parses")
}

fn options(doc: &Document, allow: &[&str], calls: usize) -> Options {
    Options {
        calls,
        seed: 1,
        policy: Policy::with_allowed(doc, allow.iter().copied()).expect("policy"),
        timeout: Duration::from_secs(5),
        ..Options::default()
    }
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
    let plant = Plant { url, token: token.map(str::to_owned) };
    accord_conform::run(&doc, &plant, &options(&doc, allow, calls), &NoProgress).await.expect("run")
}

fn kinds(report: &Report) -> Vec<Kind> {
    let mut kinds: Vec<Kind> = report
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

async fn broken(fault: Fault, expected: Kind) -> Report {
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
    let report = broken(Fault::WrongResultType, Kind::ResultInvalid).await;
    insta::assert_snapshot!(report.to_text());
}

#[tokio::test]
async fn a_result_out_of_bounds_is_caught() {
    let report = broken(Fault::ResultOutOfBounds, Kind::ResultInvalid).await;
    insta::assert_snapshot!(report.to_text());
}

#[tokio::test]
async fn invalid_params_accepted_are_caught() {
    let report = broken(Fault::AcceptsInvalidParams, Kind::AcceptedInvalidParams).await;
    assert!(!kinds(&report).contains(&Kind::WrongErrorCode), "reported apart");
    insta::assert_snapshot!(report.to_text());
}

#[tokio::test]
async fn a_wrong_error_code_is_caught_apart_from_accepted_params() {
    let report = broken(Fault::WrongErrorCode, Kind::WrongErrorCode).await;
    assert!(!kinds(&report).contains(&Kind::AcceptedInvalidParams), "reported apart");
    insta::assert_snapshot!(report.to_text());
}

#[tokio::test]
async fn a_missing_method_is_caught() {
    let report = broken(Fault::MissingMethod, Kind::MethodMissing).await;
    insta::assert_snapshot!(report.to_text());
}

#[tokio::test]
async fn a_describe_differing_from_the_contract_is_caught() {
    let report = broken(Fault::DescribeDiffers, Kind::DescribeDiffers).await;
    insta::assert_snapshot!(report.to_text());
}

#[tokio::test]
async fn a_wrong_credential_downgraded_instead_of_refused_is_caught() {
    let report = broken(Fault::WrongCredentialDowngraded, Kind::WrongCredentialDowngraded).await;
    insta::assert_snapshot!(report.to_text());
}

#[tokio::test]
async fn an_event_payload_that_does_not_validate_is_caught() {
    let report = broken(Fault::EventPayloadInvalid, Kind::EventPayloadInvalid).await;
    insta::assert_snapshot!(report.to_text());
}

#[tokio::test]
async fn a_failure_transcript_replays_to_the_same_failure_and_passes_on_the_healthy_plant() {
    let report = broken(Fault::WrongResultType, Kind::ResultInvalid).await;
    let failure = report.failures().find(|c| c.subject == plant::FAULTY_METHOD).expect("a failure");
    let text = failure.transcript.render();
    let transcript = Transcript::parse(&text).expect("parses");
    assert_eq!(transcript, failure.transcript, "render and parse round-trip");
    let doc = contract("pump-plant.types.json");
    let opts = options(&doc, &[], 2);
    for (fault, fails) in [(Fault::WrongResultType, true), (Fault::None, false)] {
        let url = plant::start("pump-plant.types.json", Some(TOKEN), fault).await;
        let plant = Plant { url, token: Some(TOKEN.to_owned()) };
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
    let plant = Plant { url: url.clone(), token: None };
    let err =
        accord_conform::run(&doc, &plant, &Options::default(), &NoProgress).await.unwrap_err();
    assert!(matches!(err, accord_conform::Error::Connect { .. }));
    assert!(err.to_string().contains(&url), "{err}");
}

#[tokio::test]
async fn a_declared_error_whose_data_does_not_validate_is_caught() {
    let report = broken(Fault::DeclaredErrorDataInvalid, Kind::ErrorDataInvalid).await;
    insta::assert_snapshot!(report.to_text());
}

#[tokio::test]
async fn a_websocket_transcript_with_a_wrong_credential_replays() {
    let report = broken(Fault::WrongCredentialDowngraded, Kind::WrongCredentialDowngraded).await;
    let failure = report
        .failures()
        .find(|c| c.name.contains("over WebSocket"))
        .expect("the WebSocket upgrade failure");
    let transcript = Transcript::parse(&failure.transcript.render()).expect("parses");
    let doc = contract("pump-plant.types.json");
    let opts = options(&doc, &[], 2);
    for (fault, fails) in [(Fault::WrongCredentialDowngraded, true), (Fault::None, false)] {
        let url = plant::start("pump-plant.types.json", Some(TOKEN), fault).await;
        let plant = Plant { url, token: Some(TOKEN.to_owned()) };
        let replayed = accord_conform::replay(&doc, &plant, &opts, &transcript, &NoProgress)
            .await
            .expect("replay");
        assert_eq!(!replayed.passed(), fails, "{fault:?}\n{}", replayed.to_text());
    }
}
