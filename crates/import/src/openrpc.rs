//! OpenRPC (1.x) to a contract: method names split into namespaces by the wire separator,
//! content descriptors into params and results, `components/schemas` into named types,
//! errors, example pairings, descriptions; summaries, tags, external docs and `x-` extensions
//! kept as unknown members. A document written by accord's own export (it carries
//! `x-accord-document`) comes back exactly as the contract it was written from.

use indexmap::IndexMap;
use serde_json::{Map, Value, json};

use crate::report::{Accepts, Note, Report};
use crate::schema::{Converter, escape, fragment_pointer};
use crate::{Draft, Error, Import, Options};

/// One method of the source, placed.
struct Placed {
    index: usize,
    ns: String,
    name: String,
    wire_name: String,
}

pub(crate) fn import(
    source: &Value,
    options: &Options,
    mut losses_before: Vec<crate::Loss>,
) -> Result<Import, Error> {
    let root =
        source.as_object().ok_or_else(|| Error::at("an OpenRPC document is a JSON object", ""))?;
    match root.get("openrpc").and_then(Value::as_str) {
        Some(v) if v.starts_with("1.") => {}
        Some(v) => {
            return Err(Error::at(format!("OpenRPC version `{v}` is not 1.x"), "/openrpc"));
        }
        None => return Err(Error::at("no `openrpc` version string", "")),
    }
    let methods = root
        .get("methods")
        .and_then(Value::as_array)
        .ok_or_else(|| Error::at("`methods` must be an array", "/methods"))?;
    let accord = root.get("x-accord-document").and_then(Value::as_object);
    let accord_namespaces = root.get("x-accord-namespaces").and_then(Value::as_object);

    // Where each method goes.
    let mut placed = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut skipped = Vec::new();
    for (index, m) in methods.iter().enumerate() {
        let at = format!("/methods/{index}");
        let m = match deref(source, m, &at) {
            Ok(m) => m,
            Err(e) => {
                skipped.push(unresolved(&at, &e, "the method is left out"));
                continue;
            }
        };
        let wire_name = m
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| Error::at("a method has no `name`", &at))?
            .to_owned();
        if !seen.insert(wire_name.clone()) {
            return Err(Error::at(
                format!("method `{wire_name}` is named twice"),
                &format!("{at}/name"),
            ));
        }
        let (ns, name) = match (
            m.get("x-accord-namespace").and_then(Value::as_str),
            m.get("x-accord-method").and_then(Value::as_str),
        ) {
            (Some(ns), Some(name)) => (ns.to_owned(), name.to_owned()),
            _ => match accord_schema_model::split_wire_name(&wire_name, &options.separator) {
                Some((ns, name)) => (ns.to_owned(), name.to_owned()),
                None => (options.default_namespace.clone(), wire_name.clone()),
            },
        };
        placed.push(Placed { index, ns, name, wire_name });
    }

    // Namespaces, in the order accord's export lists them, else of first use.
    let mut order: Vec<String> =
        accord_namespaces.map(|n| n.keys().cloned().collect()).unwrap_or_default();
    for p in &placed {
        if !order.contains(&p.ns) {
            order.push(p.ns.clone());
        }
    }
    let types_ns = match &options.types_namespace {
        Some(ns) => ns.clone(),
        None => {
            let count = |ns: &String| placed.iter().filter(|p| &p.ns == ns).count();
            let mut best =
                order.first().cloned().unwrap_or_else(|| options.default_namespace.clone());
            for ns in &order {
                if count(ns) > count(&best) {
                    best = ns.clone();
                }
            }
            best
        }
    };

    let mut conv = Converter::new(source, Draft::Draft2020);
    if accord.is_some() {
        conv.own_export();
    }
    losses_before.extend(skipped);
    conv.add_losses(losses_before);
    // Named types: accord's export keys them `ns.Name`; any other document's go to one namespace.
    let schemas = root.get("components").and_then(|c| c.get("schemas")).and_then(Value::as_object);
    for key in schemas.into_iter().flat_map(|s| s.keys()) {
        let (ns, name) = match (accord.is_some(), key.split_once('.')) {
            (true, Some((ns, name))) => (ns.to_owned(), name.to_owned()),
            _ => (types_ns.clone(), key.clone()),
        };
        conv.register(&format!("/components/schemas/{}", escape(key)), &ns, &name);
        if !order.contains(&ns) {
            order.push(ns.clone());
        }
    }

    let mut namespaces: IndexMap<String, Map<String, Value>> = IndexMap::new();
    for ns in &order {
        let mut record = Map::new();
        let version = match (accord_namespaces.and_then(|n| n.get(ns)), &options.version) {
            (Some(_), _) => None,
            (None, Some(v)) => Some(v.clone()),
            (None, None) => root
                .get("info")
                .and_then(|i| i.get("version"))
                .and_then(Value::as_str)
                .map(str::to_owned),
        };
        if let Some(v) = version {
            record.insert("version".to_owned(), json!(v));
        }
        if let Some(extra) = accord_namespaces.and_then(|n| n.get(ns)).and_then(Value::as_object) {
            record.extend(extra.clone());
        }
        namespaces.insert(ns.clone(), record);
    }

    // Methods, and the subscriptions (see `subscriptions`).
    let mut notes = Vec::new();
    let pubsub = if accord.is_none() {
        subscriptions(source, methods, &placed, options)
    } else {
        Vec::new()
    };
    for p in &placed {
        let at = format!("/methods/{}", p.index);
        let m = deref(source, &methods[p.index], &at)?;
        if let Some(role) = pubsub.iter().find(|r| r.index == p.index) {
            let record = namespaces.entry(p.ns.clone()).or_default();
            let wire = record.entry("wire").or_insert_with(|| json!({}));
            if let Some(route) = &role.route {
                // One subscribe method per subscription: the event's own wire entry.
                let mut entry = json!({
                    "notification": p.wire_name,
                    "unsubscribe": route.unsubscribe,
                });
                if let Some(subscribe) = &route.subscribe {
                    entry["subscribe"] = json!(subscribe);
                }
                if wire.get("events").is_none() {
                    wire["events"] = json!({});
                }
                wire["events"][p.name.as_str()] = entry;
            } else if !role.per_event {
                wire["pubsub"] = json!({});
            }
            if role.event {
                let event = event(&mut conv, m, &at, &p.ns);
                let events = record.entry("events").or_insert_with(|| json!({}));
                events[p.name.as_str()] = event;
                let how = match &role.route {
                    None => "its namespace has `subscribe` and `unsubscribe` methods".to_owned(),
                    Some(EventRoute { subscribe: Some(s), .. }) => {
                        format!("its `result` param is what a subscription made by `{s}` carries")
                    }
                    Some(EventRoute { subscribe: None, unsubscribe }) => format!(
                        "its `result` param is what a subscription carries, and no subscribe method names it (its namespace has `{unsubscribe}`)"
                    ),
                };
                notes.push(Note {
                    pointer: at.clone(),
                    kind: "subscription",
                    detail: format!(
                        "`{}` has no `result` and {how}: the event `{}.{}`, sent by the plant and subscribed in the pubsub style (wire.md §11.3)",
                        p.wire_name, p.ns, p.name
                    ),
                });
                if let Some(EventRoute { subscribe: None, .. }) = &role.route {
                    conv.loss(
                        &at,
                        "subscription-route",
                        Accepts::Wider,
                        format!(
                            "no method of the document subscribes to `{}`; the contract routes the event through no subscribe method of its own",
                            p.wire_name
                        ),
                    );
                }
                let id = m
                    .get("params")
                    .filter(|_| role.route.is_some())
                    .and_then(Value::as_array)
                    .and_then(|ps| ps.iter().find_map(|p| p.get("name").and_then(Value::as_str)))
                    .filter(|n| *n != "subscription" && *n != "result");
                if let Some(id) = id {
                    conv.loss(
                        &format!("{at}/params/0"),
                        "notification-id",
                        Accepts::Wider,
                        format!(
                            "the notification names the subscription id `{id}`; accord's pubsub wire names it `subscription` (wire.md §11.3), so a fake's notifications differ there"
                        ),
                    );
                }
            } else {
                // geth's one subscribe method takes the event's name as its first param (the
                // selector); a per-subscription subscribe method's params are its own.
                if let Some(params) = m
                    .get("params")
                    .and_then(Value::as_array)
                    .filter(|ps| role.per_event && !ps.is_empty() && p.name != "unsubscribe")
                {
                    let names: Vec<String> = params
                        .iter()
                        .filter_map(|p| p.get("name").and_then(Value::as_str))
                        .map(|n| format!("`{n}`"))
                        .collect();
                    conv.loss(
                        &format!("{at}/params"),
                        "subscription-params",
                        Accepts::Wider,
                        format!(
                            "the subscribe method's params ({}) are not held: an event's subscription takes extra params unchecked (wire.md §11.3), so a change to them is not diffed",
                            names.join(", ")
                        ),
                    );
                }
                notes.push(Note {
                    pointer: at.clone(),
                    kind: "subscription",
                    detail: if role.per_event {
                        format!(
                            "`{}` subscribes to or unsubscribes from the namespace's events (the pubsub wire), not a contract method",
                            p.wire_name
                        )
                    } else {
                        format!(
                            "`{}` is the namespace's pubsub `{}` method, not a contract method",
                            p.wire_name, p.name
                        )
                    },
                });
            }
            continue;
        }
        if m.get("x-accord-semantics").is_none()
            && let Some(overlap) = options.semantics_overlap(&p.wire_name)
        {
            notes.push(semantics_note(&at, &p.wire_name, &overlap));
        }
        let method = method(&mut conv, source, m, &at, (p, &placed), options, &mut notes)?;
        let record = namespaces.entry(p.ns.clone()).or_default();
        let methods = record.entry("methods").or_insert_with(|| json!({}));
        methods[p.name.as_str()] = method;
    }
    // Names on the wire that the separator does not give.
    if accord.is_none() {
        for p in placed.iter().filter(|p| {
            format!("{}{}{}", p.ns, options.separator, p.name) != p.wire_name
                && !pubsub.iter().any(|r| r.index == p.index)
        }) {
            let record = namespaces.entry(p.ns.clone()).or_default();
            let wire = record.entry("wire").or_insert_with(|| json!({}));
            if wire.get("methods").is_none() {
                wire["methods"] = json!({});
            }
            wire["methods"][p.name.as_str()] = json!(p.wire_name);
        }
    }

    for (type_name, node) in conv.named_types()? {
        let record = namespaces.entry(type_name.ns.clone()).or_default();
        let types = record.entry("types").or_insert_with(|| json!({}));
        types[type_name.name.as_str()] = node.to_value();
    }

    let mut doc = Map::new();
    doc.insert("schema".to_owned(), json!(accord_schema_model::SCHEMA_VERSION));
    match accord {
        Some(exact) => doc.extend(exact.clone()),
        None => {
            let info = root.get("info").and_then(Value::as_object);
            if let Some(t) = info.and_then(|i| i.get("title")) {
                doc.insert("name".to_owned(), t.clone());
            }
            if let Some(d) = info.and_then(|i| i.get("description")) {
                doc.insert("description".to_owned(), d.clone());
            }
            let mut wire = Map::new();
            wire.insert("separator".to_owned(), json!(options.separator));
            wire.insert(
                "describe".to_owned(),
                options.describe.as_ref().map_or(json!(false), |d| json!(d)),
            );
            if let Some(profile) = &options.profile {
                wire.insert("codes".to_owned(), json!({"profile": profile}));
            }
            doc.insert("wire".to_owned(), Value::Object(wire));
            // The rest of the OpenRPC document, for an export to give back.
            let mut rest = Map::new();
            for (k, v) in root {
                if !matches!(k.as_str(), "methods" | "components") {
                    rest.insert(k.clone(), v.clone());
                }
            }
            if let Some(info) = rest.get_mut("info").and_then(Value::as_object_mut) {
                info.remove("title");
                info.remove("description");
            }
            doc.insert("x-openrpc".to_owned(), Value::Object(rest));
        }
    }
    let namespaces: Map<String, Value> =
        namespaces.into_iter().map(|(k, v)| (k, Value::Object(v))).collect();
    doc.insert("namespaces".to_owned(), Value::Object(namespaces));
    let mut doc = Value::Object(doc);
    conv.refusal()?;
    for (ns, name) in crate::cycles::drop_orphans(&conv, &mut doc) {
        let at = conv.source_pointer(&ns, &name).unwrap_or_default();
        notes.push(Note {
            pointer: at,
            kind: "merged-type",
            detail: format!(
                "`{ns}.{name}` is used only as a part of other types (`allOf`, `$ref` beside assertions), where it is merged; it is not a named type of its own"
            ),
        });
    }
    crate::cycles::break_cycles(&mut conv, &mut doc)?;
    let losses = one_loss_per_unfollowed_ref(conv.take_losses());
    let document = accord_schema_model::Document::from_value(doc)?;
    Ok(Import { document, report: Report::new(losses).with_notes(notes) })
}

/// A method of the source that is part of a subscription API rather than a callable method.
struct PubsubRole {
    index: usize,
    /// A notification (an event); else the subscribe or unsubscribe method.
    event: bool,
    /// For an event subscribed by a method of its own (starknet's `starknet_subscribeEvents` →
    /// `starknet_subscriptionEvents`): its route; `None`: the namespace's pubsub methods.
    route: Option<EventRoute>,
    /// Part of the per-subscription style (one subscribe method per event), not of the
    /// namespace's one `subscribe`/`unsubscribe` pair.
    per_event: bool,
}

/// The wire names of an event's own subscription.
struct EventRoute {
    /// The method that subscribes to it, if the document has one.
    subscribe: Option<String>,
    /// The namespace's unsubscribe method.
    unsubscribe: String,
}

/// The recognition rule (docs/interop.md): in a namespace that has methods named `subscribe`
/// and `unsubscribe` (`eth_subscribe`, `eth_unsubscribe`: geth's pubsub style, the defaults of
/// `wire.pubsub`), every method without `result` (an OpenRPC notification: the server sends
/// it) is an event of that name, whose payload is its one param; the pair is the pubsub wire.
fn subscriptions(
    source: &Value,
    methods: &[Value],
    placed: &[Placed],
    options: &Options,
) -> Vec<PubsubRole> {
    let mut roles = Vec::new();
    let wire_default =
        |p: &Placed| format!("{}{}{}", p.ns, options.separator, p.name) == p.wire_name;
    let mut namespaces: Vec<&str> = placed.iter().map(|p| p.ns.as_str()).collect();
    namespaces.dedup();
    for ns in namespaces {
        let in_ns: Vec<&Placed> = placed.iter().filter(|p| p.ns == ns && wire_default(p)).collect();
        let has = |name: &str| in_ns.iter().any(|p| p.name == name);
        if !has("unsubscribe") {
            continue;
        }
        let notification = |p: &Placed| {
            deref(source, &methods[p.index], "").ok().is_some_and(|m| m.get("result").is_none())
        };
        if has("subscribe") {
            for p in in_ns {
                if p.name == "subscribe" || p.name == "unsubscribe" {
                    roles.push(PubsubRole {
                        index: p.index,
                        event: false,
                        route: None,
                        per_event: false,
                    });
                } else if notification(p) {
                    roles.push(PubsubRole {
                        index: p.index,
                        event: true,
                        route: None,
                        per_event: false,
                    });
                }
            }
            continue;
        }
        let unsubscribe = in_ns.iter().find(|p| p.name == "unsubscribe").expect("checked above");
        let mut any = false;
        for p in &in_ns {
            if !(notification(p) && carries_result(source, &methods[p.index])) {
                continue;
            }
            let subscribe = subscribe_method_of(&p.name, &in_ns);
            if let Some(s) = subscribe {
                roles.push(PubsubRole {
                    index: s.index,
                    event: false,
                    route: None,
                    per_event: true,
                });
            }
            let route = EventRoute {
                subscribe: subscribe.map(|s| s.wire_name.clone()),
                unsubscribe: unsubscribe.wire_name.clone(),
            };
            roles.push(PubsubRole {
                index: p.index,
                event: true,
                route: Some(route),
                per_event: true,
            });
            any = true;
        }
        if any {
            roles.push(PubsubRole {
                index: unsubscribe.index,
                event: false,
                route: None,
                per_event: true,
            });
        }
    }
    roles
}

/// Whether the notification method `m` carries a subscription's payload: a param named
/// `result`, beside the subscription's id (`{"subscription_id": …, "result": …}`).
fn carries_result(source: &Value, m: &Value) -> bool {
    let Ok(m) = deref(source, m, "") else { return false };
    m.get("params").and_then(Value::as_array).is_some_and(|ps| {
        ps.iter().any(|p| {
            deref(source, p, "").ok().and_then(|p| p.get("name")).and_then(Value::as_str)
                == Some("result")
        })
    })
}

/// The subscribe method of the notification `name` in the per-subscription style:
/// `subscriptionNewHeads` ← `subscribeNewHeads` (and `subscriptionNewTransaction` ←
/// `subscribeNewTransactions`, a plural the spec uses).
fn subscribe_method_of<'p>(name: &str, in_ns: &[&'p Placed]) -> Option<&'p Placed> {
    let subject = name.strip_prefix("subscription")?;
    if subject.is_empty() {
        return None;
    }
    let wanted = [format!("subscribe{subject}"), format!("subscribe{subject}s")];
    in_ns.iter().copied().find(|p| wanted.contains(&p.name))
}

/// The event a notification method stands for: its one param's schema as the payload.
fn event(conv: &mut Converter<'_>, m: &Value, at: &str, ns: &str) -> Value {
    let mut out = Map::new();
    if let Some(d) = m.get("description").filter(|d| d.is_string()) {
        out.insert("description".to_owned(), d.clone());
    }
    let params = m.get("params").and_then(Value::as_array).cloned().unwrap_or_default();
    // A subscription's notification (`{"subscription_id": …, "result": …}`) carries its payload
    // as `result`, the id beside it; any other notification's payload is its first param.
    let named_result = params.iter().position(|cd| {
        let cd = cd
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(fragment_pointer)
            .and_then(|p| conv.source().pointer(&p))
            .unwrap_or(cd);
        cd.get("name").and_then(Value::as_str) == Some("result")
    });
    if params.len() > 1 && named_result.is_none() {
        let detail = "a notification with several params: the event's payload is the first".into();
        conv.loss(&format!("{at}/params"), "notification-params", Accepts::Wider, detail);
    }
    let index = named_result.unwrap_or(0);
    let payload = match params.get(index) {
        Some(cd) => {
            let cd_at = format!("{at}/params/{index}");
            let schema = cd
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(fragment_pointer)
                .and_then(|p| conv.source().pointer(&p))
                .unwrap_or(cd)
                .get("schema")
                .cloned()
                .unwrap_or(Value::Bool(true));
            conv.convert(&schema, &format!("{cd_at}/schema"), ns).to_value()
        }
        None => json!({"kind": "null"}),
    };
    out.insert("payload".to_owned(), payload);
    Value::Object(out)
}

/// The note for a method that rules of different semantics match.
fn semantics_note(at: &str, wire_name: &str, overlap: &crate::SemanticsOverlap) -> Note {
    let (value, pattern) = &overlap.applied;
    let others: Vec<String> =
        overlap.overruled.iter().map(|(s, p)| format!("`{s}` (`{p}`)")).collect();
    Note {
        pointer: at.to_owned(),
        kind: "semantics-overlap",
        detail: format!(
            "`{wire_name}` matches `{value}` (`{pattern}`) and later {}; the first rule applies: `{value}`",
            others.join(", ")
        ),
    }
}

/// A file ref the bundler could not follow stays in the document, so the import meets it again
/// (an `external-ref` schema, an `unresolved-ref` error or example): one cause, one loss. The
/// bundler's loss names the path tried; the later one adds only what the contract does instead,
/// which is folded into it.
fn one_loss_per_unfollowed_ref(losses: Vec<crate::Loss>) -> Vec<crate::Loss> {
    let mut out: Vec<crate::Loss> = Vec::with_capacity(losses.len());
    let mut unfollowed: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for loss in losses {
        let own_ref = loss.pointer.strip_suffix("/$ref").unwrap_or(&loss.pointer).to_owned();
        match unfollowed.get(&own_ref) {
            Some(&first) if matches!(loss.kind, "external-ref" | "unresolved-ref") => {
                if let Some((_, instead)) = loss.detail.rsplit_once("; ") {
                    let kept = &mut out[first].detail;
                    if !kept.ends_with(instead) {
                        kept.push_str("; ");
                        kept.push_str(instead);
                    }
                }
            }
            _ => {
                if loss.kind == "unresolved-ref" && loss.pointer.ends_with("/$ref") {
                    unfollowed.entry(own_ref).or_insert(out.len());
                }
                out.push(loss);
            }
        }
    }
    out
}

/// A descriptor with no schema: what an unresolved result stands for.
static NO_SCHEMA: Value = Value::Null;

/// The loss of an OpenRPC object whose reference cannot be followed.
fn unresolved(at: &str, e: &Error, instead: &str) -> crate::Loss {
    crate::Loss {
        pointer: at.to_owned(),
        kind: "unresolved-ref",
        accepts: Accepts::Wider,
        detail: format!("{e}; {instead}"),
    }
}

/// An OpenRPC object that may be a reference object (`{"$ref": "#/components/…"}`).
fn deref<'s>(source: &'s Value, v: &'s Value, at: &str) -> Result<&'s Value, Error> {
    let mut v = v;
    for _ in 0..32 {
        let Some(r) = v.get("$ref").and_then(Value::as_str) else { return Ok(v) };
        let pointer = fragment_pointer(r).ok_or_else(|| Error::Reference {
            reference: r.to_owned(),
            why: "not a local JSON Pointer".to_owned(),
            pointer: at.to_owned(),
        })?;
        v = source.pointer(&pointer).ok_or_else(|| Error::Reference {
            reference: r.to_owned(),
            why: "nothing is there".to_owned(),
            pointer: at.to_owned(),
        })?;
    }
    Err(Error::Reference {
        reference: String::new(),
        why: "a cycle of references".into(),
        pointer: at.to_owned(),
    })
}

/// Members of an OpenRPC object kept as the record's unknown members: everything but `known`
/// and accord's own extensions.
fn kept(m: &Value, known: &[&str]) -> Map<String, Value> {
    m.as_object()
        .into_iter()
        .flatten()
        .filter(|(k, _)| !known.contains(&k.as_str()) && !k.starts_with("x-accord-"))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

fn method(
    conv: &mut Converter<'_>,
    source: &Value,
    m: &Value,
    at: &str,
    (p, placed): (&Placed, &[Placed]),
    options: &Options,
    notes: &mut Vec<Note>,
) -> Result<Value, Error> {
    let mut out = Map::new();
    let semantics = m
        .get("x-accord-semantics")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .or_else(|| options.semantics_of(&p.wire_name).map(str::to_owned));
    if let Some(s) = semantics {
        out.insert("semantics".to_owned(), json!(s));
    }
    if let Some(d) = m.get("description").filter(|d| d.is_string()) {
        out.insert("description".to_owned(), d.clone());
    }
    match (m.get("x-accord-deprecated"), m.get("deprecated")) {
        (Some(exact), _) => {
            out.insert("deprecated".to_owned(), exact.clone());
        }
        (None, Some(Value::Bool(true))) => {
            out.insert("deprecated".to_owned(), json!(true));
        }
        _ => {}
    }
    let structure = m.get("paramStructure").and_then(Value::as_str);
    if let Some(s) = m.get("paramStructure") {
        out.insert("paramStructure".to_owned(), s.clone());
    }
    let mut names = Vec::new();
    let mut params = Vec::new();
    for (i, cd) in m.get("params").and_then(Value::as_array).into_iter().flatten().enumerate() {
        let cd_at = format!("{at}/params/{i}");
        let cd = match deref(source, cd, &cd_at) {
            Ok(cd) => cd,
            Err(e) => {
                let loss = unresolved(&cd_at, &e, "the param is any value, optional");
                conv.add_losses(vec![loss]);
                names.push(format!("param{i}"));
                params.push(
                    json!({"name": format!("param{i}"), "type": {"kind": "any"}, "optional": true}),
                );
                continue;
            }
        };
        let name = cd
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| Error::at("a param has no `name`", &cd_at))?;
        names.push(name.to_owned());
        let schema = cd.get("schema").unwrap_or(&Value::Bool(true));
        let ty = conv.convert(schema, &format!("{cd_at}/schema"), &p.ns).to_value();
        let mut param = Map::new();
        param.insert("name".to_owned(), json!(name));
        param.insert("type".to_owned(), ty);
        match cd.get("x-accord-param").and_then(Value::as_object) {
            Some(exact) => param.extend(exact.clone()),
            None => {
                // OpenRPC: `required` is false when absent.
                if cd.get("required") != Some(&json!(true)) {
                    param.insert("optional".to_owned(), json!(true));
                }
                if let Some(d) = cd.get("description").filter(|d| d.is_string()) {
                    param.insert("description".to_owned(), d.clone());
                }
                if cd.get("deprecated") == Some(&json!(true)) {
                    param.insert("deprecated".to_owned(), json!(true));
                }
                param
                    .extend(kept(cd, &["name", "schema", "required", "description", "deprecated"]));
            }
        }
        params.push(Value::Object(param));
    }
    if m.get("params").is_some() && !(params.is_empty() && m.get("x-accord-no-params").is_some()) {
        out.insert("params".to_owned(), Value::Array(params));
    }
    match m.get("result") {
        Some(r) => {
            let r_at = format!("{at}/result");
            let r = match deref(source, r, &r_at) {
                Ok(r) => r,
                Err(e) => {
                    conv.add_losses(vec![unresolved(&r_at, &e, "the result is any value")]);
                    &NO_SCHEMA
                }
            };
            let schema = r.get("schema").unwrap_or(&Value::Bool(true));
            let ty = conv.convert(schema, &format!("{r_at}/schema"), &p.ns).to_value();
            out.insert("result".to_owned(), ty);
            if m.get("x-accord-semantics").is_none() && m.get("x-accord-namespace").is_none() {
                let descriptor = kept(r, &["schema"]);
                if !descriptor.is_empty() {
                    out.insert("x-openrpc-result".to_owned(), Value::Object(descriptor));
                }
            }
        }
        None => {
            conv.loss(
                at,
                "notification",
                Accepts::Narrower,
                "a method without `result` is a notification; the contract's method answers `null`"
                    .into(),
            );
            out.insert("result".to_owned(), json!({"kind": "null"}));
        }
    }
    let mut errors = Vec::new();
    for (i, e) in m.get("errors").and_then(Value::as_array).into_iter().flatten().enumerate() {
        let e_at = format!("{at}/errors/{i}");
        let e = match deref(source, e, &e_at) {
            Ok(e) => e,
            Err(err) => {
                conv.add_losses(vec![unresolved(&e_at, &err, "the error is not declared")]);
                continue;
            }
        };
        let code = e.get("code").filter(|c| c.is_i64()).ok_or_else(|| {
            Error::at("an error `code` must be an integer", &format!("{e_at}/code"))
        })?;
        let message = e.get("message").and_then(Value::as_str).unwrap_or_default();
        let mut error = Map::new();
        error.insert("code".to_owned(), code.clone());
        error.insert("message".to_owned(), json!(message));
        match e.get("x-accord-error").and_then(Value::as_object) {
            Some(exact) => error.extend(exact.clone()),
            None => {
                // OpenRPC's `data` is a value, the format's a type: the value is kept beside.
                let mut rest = kept(e, &["code", "message"]);
                if let Some(data) = rest.remove("data") {
                    rest.insert("x-openrpc-data".to_owned(), data);
                }
                error.extend(rest);
            }
        }
        errors.push(Value::Object(error));
    }
    match m.get("x-accord-errors") {
        Some(exact) => {
            out.insert("errors".to_owned(), exact.clone());
        }
        None if m.get("errors").is_some() => {
            out.insert("errors".to_owned(), Value::Array(errors));
        }
        None => {}
    }
    let mut examples = Vec::new();
    for (i, x) in m.get("examples").and_then(Value::as_array).into_iter().flatten().enumerate() {
        let x_at = format!("{at}/examples/{i}");
        let x = match deref(source, x, &x_at) {
            Ok(x) => x,
            Err(e) => {
                conv.add_losses(vec![unresolved(&x_at, &e, "the example is left out")]);
                continue;
            }
        };
        if let Some(exact) = x.get("x-accord-example") {
            examples.push(exact.clone());
            continue;
        }
        let mut example = Map::new();
        for k in ["name", "description"] {
            if let Some(v) = x.get(k).filter(|v| v.is_string()) {
                example.insert(k.to_owned(), v.clone());
            }
        }
        let values: Vec<Value> = x
            .get("params")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
            .map(|(j, v)| {
                deref(source, v, &format!("{x_at}/params/{j}"))
                    .map(|v| v.get("value").cloned().unwrap_or(Value::Null))
            })
            .collect::<Result<_, _>>()?;
        let params = if structure == Some("by-name") {
            let named: Map<String, Value> = names.iter().cloned().zip(values).collect();
            Value::Object(named)
        } else {
            Value::Array(values)
        };
        example.insert("params".to_owned(), params);
        if let Some(r) = x.get("result") {
            let r = deref(source, r, &format!("{x_at}/result"))?;
            if let Some(v) = r.get("value") {
                example.insert("result".to_owned(), v.clone());
            }
        }
        example.extend(kept(x, &["name", "description", "params", "result"]));
        examples.push(Value::Object(example));
    }
    match m.get("x-accord-examples") {
        Some(exact) => {
            out.insert("examples".to_owned(), exact.clone());
        }
        None if m.get("examples").is_some() => {
            out.insert("examples".to_owned(), Value::Array(examples));
        }
        None => {}
    }
    if let Some(links) = m.get("links") {
        // A linked method is placed as the methods are: by its wire name.
        let target = |wire: &str| match placed.iter().find(|q| q.wire_name == wire) {
            Some(q) => (q.ns.clone(), q.name.clone()),
            None => match accord_schema_model::split_wire_name(wire, &options.separator) {
                Some((ns, name)) => (ns.to_owned(), name.to_owned()),
                None => (options.default_namespace.clone(), wire.to_owned()),
            },
        };
        let follow = |v: &Value, at: &str| deref(source, v, at).cloned().map_err(|e| e.to_string());
        if let Some(links) = crate::links::import(links, at, &p.ns, follow, target, notes) {
            out.insert("links".to_owned(), links);
        }
    }
    if let Some(causes) = m.get("x-accord-causes") {
        out.insert("causes".to_owned(), causes.clone());
    }
    out.extend(kept(
        m,
        &[
            "name",
            "description",
            "deprecated",
            "paramStructure",
            "params",
            "result",
            "errors",
            "examples",
            "links",
        ],
    ));
    if let Some(unknown) = m.get("x-accord-unknown").and_then(Value::as_object) {
        out.extend(unknown.clone());
    }
    Ok(Value::Object(out))
}
