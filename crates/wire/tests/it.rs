//! The wire's shapes, read and written as docs/wire.md says.

use accord_schema_model::Document;
use accord_wire::describe::{self, DescribeAnswer};
use accord_wire::envelope::Rejected;
use accord_wire::event::Notification;
use accord_wire::{Access, Call, Id, Incoming, Presented, Request, Response, RpcError, codes};
use semver::Version;

#[path = "it/subscription.rs"]
mod subscription;
use serde_json::{Value, json};

fn reason(rejected: &Rejected) -> String {
    rejected.error().data.unwrap()["reason"].as_str().unwrap().to_owned()
}

#[test]
fn requests_are_read_and_refused_as_json_rpc_says() {
    let ok =
        Incoming::parse(br#"{"jsonrpc":"2.0","id":7,"method":"pump.start","params":{"rpm":5}}"#)
            .unwrap();
    let Incoming::Single(Ok(request)) = ok else { panic!("{ok:?}") };
    assert_eq!(request.id, Some(Id::Number(7.into())));
    assert_eq!(request.call(), Call::Contract { namespace: "pump", method: "start" });

    let note = Request::from_value(json!({"jsonrpc":"2.0","method":"pump.stop"})).unwrap();
    assert_eq!(note.id, None, "no id member: a notification");
    let null_id = Request::from_value(json!({"jsonrpc":"2.0","id":null,"method":"a.b"})).unwrap();
    assert_eq!(null_id.id, Some(Id::Null), "an explicit null id is a request, not a notification");

    let cases = [
        (json!(1), "a request must be a JSON object", Id::Null),
        (
            json!({"id": 1, "method": "a.b"}),
            "`jsonrpc` is missing; it must be \"2.0\"",
            Id::Number(1.into()),
        ),
        (
            json!({"jsonrpc": "1.0", "id": "x", "method": "a.b"}),
            "`jsonrpc` must be \"2.0\"",
            Id::String("x".into()),
        ),
        (
            json!({"jsonrpc": "2.0", "id": 1, "method": 5}),
            "`method` must be a string",
            Id::Number(1.into()),
        ),
        (json!({"jsonrpc": "2.0", "id": 1}), "`method` is missing", Id::Number(1.into())),
        (
            json!({"jsonrpc": "2.0", "id": [1], "method": "a.b"}),
            "`id` must be a string, a number or null",
            Id::Null,
        ),
        (
            json!({"jsonrpc": "2.0", "id": 2, "method": "a.b", "params": 3}),
            "`params` must be an object or an array",
            Id::Number(2.into()),
        ),
    ];
    for (value, want, id) in cases {
        let rejected = Request::from_value(value.clone()).unwrap_err();
        assert_eq!(reason(&rejected), want, "{value}");
        assert_eq!(rejected.id, id, "{value}");
        assert_eq!(rejected.error().code, codes::INVALID_REQUEST);
    }
}

#[test]
fn batches_keep_order_and_an_empty_one_is_one_refusal() {
    let batch = Incoming::parse(br#"[{"jsonrpc":"2.0","id":1,"method":"a.b"}, 5]"#).unwrap();
    let Incoming::Batch(items) = batch else { panic!() };
    assert!(items[0].is_ok() && items[1].is_err());
    let empty = Incoming::parse(b"[]").unwrap();
    let Incoming::Single(Err(rejected)) = empty else { panic!("{empty:?}") };
    assert_eq!(reason(&rejected), "an empty batch");
}

#[test]
fn a_parse_error_names_line_and_column() {
    let err = Incoming::parse(b"{\n  \"jsonrpc\": }").unwrap_err();
    assert_eq!(err.code, codes::PARSE_ERROR);
    let data = err.data.unwrap();
    assert_eq!((data["line"].clone(), data["column"].clone()), (json!(2), json!(14)));
}

#[test]
fn method_names_split_at_the_first_dot() {
    assert_eq!(Call::of("rpc.describe"), Call::Protocol("describe"));
    assert_eq!(Call::of("pump.a.b"), Call::Contract { namespace: "pump", method: "a.b" });
    assert_eq!(Call::of("describe"), Call::Unqualified("describe"));
}

#[test]
fn responses_round_trip_and_malformed_ones_are_refused() {
    let ok = Response::Success { id: Id::String("a".into()), result: json!([1]) };
    assert_eq!(Response::from_value(&ok.to_value(), "").unwrap(), ok);
    let err = Response::Failure { id: Id::Null, error: RpcError::method_not_found("x.y") };
    assert_eq!(Response::from_value(&err.to_value(), "").unwrap(), err);
    let both =
        json!({"jsonrpc": "2.0", "id": 1, "result": 1, "error": {"code": 1, "message": "m"}});
    assert_eq!(
        Response::from_value(&both, "/2").unwrap_err().to_string(),
        "/2: a response has `result` or `error`, not both"
    );
    let no_id = json!({"jsonrpc": "2.0", "result": 1});
    assert_eq!(Response::from_value(&no_id, "").unwrap_err().to_string(), ": `id` is missing");
}

fn v(text: &str) -> Version {
    Version::parse(text).unwrap()
}

#[test]
fn compatibility_follows_the_version_policy() {
    assert_eq!(describe::compatibility(&v("2.3.0"), &v("2.1.0")), Ok(()));
    assert_eq!(describe::compatibility(&v("2.1.0"), &v("2.1.0")), Ok(()));
    assert_eq!(
        describe::compatibility(&v("3.0.0"), &v("2.1.0")),
        Err("the plant serves 3.0.0, a breaking step from 2.1.0; update the caller".into())
    );
    assert_eq!(
        describe::compatibility(&v("2.1.0"), &v("2.3.0")),
        Err("the plant serves 2.1.0, older than 2.3.0; the caller may call what the plant does not have".into())
    );
    assert_eq!(describe::compatibility(&v("0.4.2"), &v("0.4.0")), Ok(()));
    assert!(
        describe::compatibility(&v("0.5.0"), &v("0.4.0")).is_err(),
        "0.x: a minor step may break"
    );
    assert!(describe::compatibility(&v("1.0.0"), &v("0.9.0")).is_err());
}

fn pump() -> Document {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/contracts/pump-plant.types.json"
    ))
    .unwrap();
    Document::parse(&text).unwrap()
}

#[test]
fn describe_answers_full_and_reduced() {
    let doc = pump();
    let params = json!({"builtAgainst": {"pump": "1.0.0", "gone": "1.0.0"}});
    let built = describe::read_params(Some(&params)).unwrap();
    let full = describe::answer(&doc, &built, false);
    assert_eq!(Document::from_value(full["contract"].clone()).unwrap(), doc);
    let reduced = describe::answer(&doc, &built, true);
    assert!(reduced.get("contract").is_none());
    insta::assert_json_snapshot!(reduced);

    let read = DescribeAnswer::from_value(&reduced).unwrap();
    assert!(read.reduced && read.contract.is_none() && read.update.is_some());
    let gone = read.namespaces.iter().find(|n| n.name == "gone").unwrap();
    assert_eq!(
        (gone.version.clone(), gone.verdict.clone()),
        (None, Some(Err("not served".into())))
    );
}

#[test]
fn describe_params_refuse_what_is_not_a_version() {
    let err = describe::read_params(Some(&json!({"builtAgainst": {"pump": "two"}}))).unwrap_err();
    assert_eq!(err.code, codes::INVALID_PARAMS);
    assert_eq!(err.data.unwrap()["errors"][0]["path"], "/builtAgainst/pump");
    assert_eq!(describe::read_params(None).unwrap(), vec![]);
}

#[test]
fn absent_and_wrong_credentials_are_different_states() {
    let token = Some("s3cret");
    let decide = |header: Option<&str>| Access::decide(token, Presented::from_header(header));
    assert_eq!(decide(None), Access::Reduced);
    assert_eq!(decide(Some("Bearer s3cret")), Access::Full);
    assert_eq!(decide(Some("bearer s3cret")), Access::Full, "the scheme is case-insensitive");
    assert_eq!(decide(Some("Bearer s3cre")), Access::Refused);
    assert_eq!(decide(Some("Bearer ")), Access::Refused);
    assert_eq!(decide(Some("Basic czNjcmV0")), Access::Refused);
    assert_eq!(Access::decide(None, Presented::Nothing), Access::Full, "no credentials configured");
}

#[test]
fn notifications_round_trip() {
    let n = Notification {
        subscription: "1".into(),
        event: "pump.status".into(),
        payload: json!({"rpm": 3}),
    };
    assert_eq!(Notification::from_value(&n.to_value()).unwrap(), Some(n));
    let response: Value = json!({"jsonrpc": "2.0", "id": 1, "result": true});
    assert_eq!(Notification::from_value(&response).unwrap(), None);
}

/// The old way of reading a body: the whole value first, then the envelope.
fn read_through_value(bytes: &[u8]) -> Result<Incoming, accord_wire::RpcError> {
    let value: serde_json::Value = serde_json::from_slice(bytes)
        .map_err(|err| accord_wire::RpcError::from_json_error(&err))?;
    Ok(Incoming::from_value(value))
}

/// Whether a request of `parsed` was refused for a name given twice.
fn names_twice(parsed: &Result<Incoming, accord_wire::RpcError>) -> bool {
    let twice = |r: &Result<Request, Rejected>| matches!(r, Err(r) if r.duplicate.is_some());
    match parsed {
        Ok(Incoming::Single(one)) => twice(one),
        Ok(Incoming::Batch(all)) => all.iter().any(twice),
        Err(_) => false,
    }
}

/// Whether the model's strict reading finds a key named twice anywhere in `bytes`.
fn has_duplicate_key(bytes: &[u8]) -> bool {
    use serde::de::DeserializeSeed;
    let strict = accord_schema_model::StrictJson::recording();
    let mut de = serde_json::Deserializer::from_slice(bytes);
    strict.seed().deserialize(&mut de).is_ok() && strict.duplicate().is_some()
}

/// A small deterministic generator of JSON texts shaped like requests, batches and the rest.
struct Texts(rand::rngs::ChaCha8Rng);

impl Texts {
    fn new(seed: u64) -> Texts {
        Texts(rand::SeedableRng::seed_from_u64(seed))
    }

    fn next(&mut self) -> u64 {
        rand::Rng::next_u64(&mut self.0)
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[(self.next() % from.len() as u64) as usize]
    }

    fn value(&mut self, depth: u32) -> String {
        let scalars = [
            "1",
            "-7",
            "1.5",
            "1e400",
            "18446744073709551616",
            "0",
            "\"2.0\"",
            "\"1.0\"",
            "\"a.b\"",
            "\"rpc.describe\"",
            "\"\\u0061\"",
            "null",
            "true",
            "false",
            "\"\"",
        ];
        match self.next() % if depth > 2 { 1 } else { 4 } {
            0 => self.pick(&scalars).to_owned(),
            1 => format!(
                "[{}]",
                (0..self.next() % 3).map(|_| self.value(depth + 1)).collect::<Vec<_>>().join(",")
            ),
            _ => self.object(depth + 1),
        }
    }

    fn object(&mut self, depth: u32) -> String {
        let keys = [
            "\"jsonrpc\"",
            "\"id\"",
            "\"method\"",
            "\"params\"",
            "\"x-extra\"",
            "\"\\u006dethod\"",
            "\"i\\u0064\"",
            "\"\"",
        ];
        let members: Vec<String> = (0..self.next() % 6)
            .map(|_| format!("{}: {}", self.pick(&keys), self.value(depth)))
            .collect();
        format!("{{{}}}", members.join(", "))
    }

    fn text(&mut self) -> String {
        match self.next() % 10 {
            0 => format!(
                "[{}]",
                (0..self.next() % 4).map(|_| self.value(1)).collect::<Vec<_>>().join(",")
            ),
            1 => self.value(0),
            // A broken text now and then: both must refuse it at the same place.
            2 => {
                let mut text = self.object(0);
                let cut = (self.next() % (text.len() as u64 + 1)) as usize;
                text.truncate(cut);
                text
            }
            // A request, with now and then extra, repeated or escaped members after it.
            3..=5 => {
                let id = self.pick(&["1", "\"x\"", "null", "-3", "2.5"]);
                let params = self.pick(&["", ", \"params\": []", ", \"params\": {\"a\": [1]}"]);
                let more = self.object(1);
                let more = if more == "{}" || self.next().is_multiple_of(2) {
                    String::new()
                } else {
                    format!(", {}", &more[1..more.len() - 1])
                };
                format!("{{\"jsonrpc\": \"2.0\", \"id\": {id}, \"method\": \"a.b\"{params}{more}}}")
            }
            _ => self.object(0),
        }
    }
}

#[test]
fn reading_the_bytes_agrees_with_reading_the_value_first() {
    let fixed: [&[u8]; 8] = [
        br#"{"jsonrpc":"2.0","id":1,"method":"a.b","method":"c.d"}"#,
        br#"{"jsonrpc":"2.0","method":5,"id":1,"method":"c.d"}"#,
        br#"{"id":1,"jsonrpc":"2.0","method":"c.d","id":"late"}"#,
        br#"[{"jsonrpc":"2.0","id":1,"method":"a.b"}, 5, [], {}, null]"#,
        br#"{"jsonrpc":"2.0","id":1,"method":"a.b"} trailing"#,
        b"  [ ]  ",
        b"",
        br#"{"jsonrpc":"2.0","id":1,"method":"a.b","params":{"deep":[[[[1]]]]},"x":{"y":[1,{"z":2}]}}"#,
    ];
    let mut texts = Texts::new(0x00ac_c02d);
    let generated: Vec<String> = (0..5_000).map(|_| texts.text()).collect();
    let mut compared = 0;
    let mut duplicates = 0;
    for bytes in fixed.iter().copied().chain(generated.iter().map(String::as_bytes)) {
        let parsed = Incoming::parse(bytes);
        let text = String::from_utf8_lossy(bytes);
        if names_twice(&parsed) {
            // Refused for a name given twice, which the strict reading finds too (a `Value`
            // read first keeps the last and cannot tell).
            assert!(has_duplicate_key(bytes), "{text}");
            duplicates += 1;
        } else {
            assert_eq!(parsed, read_through_value(bytes), "{text}");
        }
        compared += 1;
    }
    assert_eq!(compared, 5_008);
    assert!(duplicates > 100, "the generator names members twice ({duplicates})");
    // The generator makes every shape: requests, refusals, batches and parse errors.
    let shapes: Vec<Result<Incoming, accord_wire::RpcError>> =
        generated.iter().map(|t| Incoming::parse(t.as_bytes())).collect();
    assert!(shapes.iter().any(|s| matches!(s, Ok(Incoming::Single(Ok(_))))));
    assert!(shapes.iter().any(|s| matches!(s, Ok(Incoming::Single(Err(_))))));
    assert!(shapes.iter().any(|s| matches!(s, Ok(Incoming::Batch(_)))));
    assert!(shapes.iter().any(Result::is_err));
}

/// A name given twice is refused, never read last-wins: a member of the envelope with `-32600`
/// naming it (and id `null` when it is the id), a key inside params with `-32602` at its path.
#[test]
fn duplicate_names_are_refused() {
    let refusal = |text: &str| -> (Id, RpcError) {
        match Incoming::parse(text.as_bytes()).unwrap() {
            Incoming::Single(Err(rejected)) => (rejected.id.clone(), rejected.error()),
            other => panic!("{text}: expected a refusal, got {other:?}"),
        }
    };
    for (text, member, id) in [
        (r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"a.b"}"#, "id", Id::Null),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"a.b","method":"a.c"}"#,
            "method",
            Id::Number(1.into()),
        ),
        (
            r#"{"jsonrpc":"2.0","jsonrpc":"2.0","id":1,"method":"a.b"}"#,
            "jsonrpc",
            Id::Number(1.into()),
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"a.b","params":[],"params":{}}"#,
            "params",
            Id::Number(1.into()),
        ),
        (r#"{"jsonrpc":"2.0","id":1,"method":"a.b","x":1,"x":2}"#, "x", Id::Number(1.into())),
        (r#"{"jsonrpc":"2.0","id":1,"method":"a.b","x":{"y":1,"y":2}}"#, "x", Id::Number(1.into())),
    ] {
        let (got_id, error) = refusal(text);
        assert_eq!(error.code, codes::INVALID_REQUEST, "{text}");
        assert_eq!(error.data.as_ref().unwrap()["member"], member, "{text}");
        assert_eq!(got_id, id, "{text}");
    }
    let (id, error) = refusal(
        r#"{"jsonrpc":"2.0","id":3,"method":"pump.status","params":{"pump":"bad","pump":"P-101"}}"#,
    );
    assert_eq!(id, Id::Number(3.into()));
    assert_eq!(error.code, codes::INVALID_PARAMS);
    assert_eq!(
        error.data.unwrap(),
        json!({"errors": [{"path": "/pump", "rule": "duplicate-key",
            "expected": "each key named once", "found": "`pump` named twice"}]})
    );
    let (_, error) = refusal(
        r#"{"jsonrpc":"2.0","id":3,"method":"a.b","params":[{"a":[1,{"k/~":1,"k/~":2}]}]}"#,
    );
    assert_eq!(error.data.unwrap()["errors"][0]["path"], "/0/a/1/k~1~0");
    // In a batch, only the element that names twice is refused.
    let batch = Incoming::parse(
        br#"[{"jsonrpc":"2.0","id":1,"method":"a.b"},{"jsonrpc":"2.0","id":2,"id":3,"method":"a.b"}]"#,
    )
    .unwrap();
    let Incoming::Batch(all) = batch else { panic!("{batch:?}") };
    assert!(all[0].is_ok() && all[1].as_ref().is_err_and(|r| r.duplicate.is_some()));
}

/// A batch longer than the limit is refused while it is read: what follows the first element
/// past the limit is never parsed (here it is not even JSON).
#[test]
fn batch_length_is_checked_while_reading() {
    let one = r#"{"jsonrpc":"2.0","id":1,"method":"a.b"}"#;
    let three = format!("[{one},{one},{one}]");
    assert!(
        matches!(Incoming::parse_with_batch_limit(three.as_bytes(), 3), Ok(Incoming::Batch(b)) if b.len() == 3)
    );
    let error = Incoming::parse_with_batch_limit(three.as_bytes(), 2).unwrap_err();
    assert_eq!(error.code, codes::LIMIT_EXCEEDED);
    assert_eq!(error.data.unwrap(), json!({"limit": "batch-length", "max": 2}));
    let broken_tail = format!("[{one},{one},{one}, this is not JSON");
    let error = Incoming::parse_with_batch_limit(broken_tail.as_bytes(), 2).unwrap_err();
    assert_eq!(error.code, codes::LIMIT_EXCEEDED, "stopped before the tail");
    // Unlimited, the same text is a parse error.
    assert_eq!(Incoming::parse(broken_tail.as_bytes()).unwrap_err().code, codes::PARSE_ERROR);
}
