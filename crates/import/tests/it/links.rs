//! A method's `links` through OpenRPC: accord's export writes OpenRPC Link Objects (`name`,
//! `method` by wire name, `params` as runtime expressions) and the import reads them back, with
//! and without accord's own `x-accord-*` extensions; and the OpenRPC project's own example of
//! links (vendored in tests/data) imports with its links, which lint then checks.

use std::path::PathBuf;

use accord_import::{Options, export_openrpc, import_openrpc};
use accord_schema_model::{Document, Link};
use indexmap::IndexMap;
use serde_json::{Value, json};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn work_queue() -> Document {
    let path = root().join("fixtures/contracts/work-queue.types.json");
    Document::parse(&std::fs::read_to_string(path).expect("read")).expect("reads")
}

/// Every method's links, by `namespace.method`.
fn links_of(doc: &Document) -> IndexMap<String, IndexMap<String, Link>> {
    let mut out = IndexMap::new();
    for (ns, n) in doc.namespaces.iter().flatten() {
        for (name, m) in n.methods.iter().flatten() {
            if let Some(links) = &m.links {
                out.insert(format!("{ns}.{name}"), links.clone());
            }
        }
    }
    out
}

/// Removes every `x-accord-*` member at any depth: the document an OpenRPC tool that knows
/// nothing of accord would keep.
fn plain_openrpc(value: &mut Value) {
    match value {
        Value::Object(members) => {
            members.retain(|k, _| !k.starts_with("x-accord-"));
            members.values_mut().for_each(plain_openrpc);
        }
        Value::Array(items) => items.iter_mut().for_each(plain_openrpc),
        _ => {}
    }
}

#[test]
fn links_round_trip_through_openrpc_export_and_import() {
    let doc = work_queue();
    let export = export_openrpc(&doc).expect("exports");
    let methods = export["methods"].as_array().expect("methods");
    let claim = methods.iter().find(|m| m["name"] == "queue.claim").expect("queue.claim");
    let ack = claim["links"].as_array().expect("links").iter().find(|l| l["name"] == "ack");
    let ack = ack.expect("the ack link");
    // An OpenRPC Link Object: the linked method by its wire name, params as written.
    assert_eq!(ack["method"], "queue.ack");
    assert_eq!(ack["params"], json!({ "id": "$result.0.job.id", "token": "$result.0.token" }));
    assert_eq!(ack["description"], "Complete the first job claimed, under its lease.");

    // With accord's extensions: the same document.
    let back = import_openrpc(&export, &Options::default()).expect("imports").document;
    assert_eq!(links_of(&back), links_of(&doc));
    assert_eq!(back, doc);

    // As a plain OpenRPC document: the links from the Link Objects alone (causes have no place
    // in OpenRPC and are gone with the extensions).
    let mut plain = export.clone();
    plain_openrpc(&mut plain);
    let mut options = Options::default();
    options.separator = ".".to_owned();
    let back = import_openrpc(&plain, &options).expect("imports").document;
    let expected = links_of(&doc);
    assert_eq!(expected.len(), 3, "enqueue, claim and enqueueMany link: {expected:?}");
    assert_eq!(links_of(&back), expected);
}

#[test]
fn the_openrpc_projects_link_example_imports_with_its_links_and_lint_finds_its_slips() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/open-rpc-examples-link-example-openrpc.json");
    let source: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("json");
    let mut options = Options::default();
    options.separator = ".".to_owned();
    let import = import_openrpc(&source, &options).expect("imports");
    let doc = import.document;
    let links = links_of(&doc);
    let by_user = &links["api.get_user_by_name"]["UserRepositories"];
    assert_eq!(by_user.method, "get_repositories_by_owner");
    assert_eq!(by_user.namespace, None, "the same namespace is not named");
    assert_eq!(by_user.summary.as_deref(), Some("Get the repos by owner"));
    assert_eq!(by_user.description.as_deref(), Some("Get the repositories by owner."));
    // `${result.username}` (JSON Template Language) is the runtime expression `$result.username`.
    assert_eq!(by_user.params.as_ref().expect("params")["username"], json!("$result.username"));
    // `server` has no place in a contract link: kept as its unknown member.
    assert_eq!(by_user.unknown["server"]["url"], "http://localhost:9210");
    let merge = &links["api.get_pull_requests_by_id"]["PullRequestMerge"];
    assert_eq!(
        Value::Object(merge.params.clone().expect("params").into_iter().collect()),
        json!({ "username": "$result.author.username", "slug": "$result.repository.slug", "pid": "$result.id" })
    );
    assert_eq!(links.len(), 4, "{links:?}");
    assert!(
        import
            .report
            .notes
            .iter()
            .any(|n| n.kind == "link" && n.detail.contains("`${result.id}` as `$result.id`")),
        "{:?}",
        import.report.notes
    );

    // The example's own slips: three links name methods by names the document does not use
    // (camel case for snake case), and the links from `get_repositories_by_owner`, whose
    // result is a list of repositories, read `$result.owner.username` and `$result.slug` as if
    // it were one. Every other path its expressions follow is one its result types have.
    let findings = accord_validate::lint(&doc);
    let link_findings: Vec<String> = findings
        .iter()
        .filter(|d| d.rule.starts_with("link-"))
        .map(|d| format!("{} {}", d.rule, d.pointer))
        .collect();
    let at = "/namespaces/api/methods";
    assert_eq!(
        link_findings,
        [
            format!(
                "link-method-unknown {at}/get_repositories_by_owner/links/UserRepository/method"
            ),
            format!(
                "link-path-impossible {at}/get_repositories_by_owner/links/UserRepository/params/username"
            ),
            format!(
                "link-path-impossible {at}/get_repositories_by_owner/links/UserRepository/params/slug"
            ),
            format!("link-method-unknown {at}/get_repository/links/RepositoryPullRequests/method"),
            format!(
                "link-method-unknown {at}/get_pull_requests_by_id/links/PullRequestMerge/method"
            ),
        ],
        "{findings:#?}"
    );
    let slip = findings.iter().find(|d| d.rule == "link-method-unknown").expect("a slip");
    assert_eq!(slip.help, "did you mean `get_repository`?");
    let path = findings.iter().find(|d| d.rule == "link-path-impossible").expect("a path");
    assert!(
        path.message.contains("`owner` is not an index, and the value there is an array"),
        "{}",
        path.message
    );
}
