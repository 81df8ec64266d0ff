//! A usage source read into counts over a window: a Prometheus-compatible query API
//! (`--prometheus URL`: Prometheus, Thanos, Mimir and VictoriaMetrics speak it) or one saved
//! metrics text of a plant (`--metrics FILE`). The metric names are accord-plant's
//! (docs/usage.md).
//!
//! Over the query API, a counter's use in the window is its `increase()` plus, for a series
//! born inside the window (absent at its start), its first value: `increase()` alone would miss
//! the calls counted before a new series' first scrape. A saved text has no window of its own:
//! its counts run from the plant's start, so it covers the window when the plant's uptime is at
//! least the window, and its counts are then at least the window's (never fewer, so an unused
//! member is never claimed unused when it was used).

use std::time::Duration;

use accord_compat_diff::usage::{Coverage, METHOD, TYPES, Usage, Use, ValueUse, VersionUse};
use accord_plant::usage::names;
use serde_json::Value;

use super::exposition;
use super::window::Window;

/// One counted row: namespace, method, a third label (version or member) and the count.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Row {
    pub(crate) namespace: String,
    pub(crate) method: String,
    pub(crate) label: String,
    pub(crate) count: u64,
}

/// What a usage source says about the window.
#[derive(Debug, Clone)]
pub(crate) struct Counts {
    pub(crate) window: Window,
    /// The source, and for the query API the call count's query.
    pub(crate) source: String,
    pub(crate) plants: usize,
    pub(crate) coverage: Coverage,
    /// Calls: (namespace, method, declared version).
    pub(crate) calls: Vec<Row>,
    /// Deprecated params and fields sent: (namespace, method, member); a deprecated field of a
    /// named type is (namespace, `types`, `Type.field`), as compat-diff's [`TYPES`] names it.
    pub(crate) deprecated_uses: Vec<Row>,
    /// Describe calls: (namespace, answer, declared version) in (namespace, method, label).
    pub(crate) describe: Vec<Row>,
    /// Enum values params carried: (namespace, method or `types`, member, value, count).
    pub(crate) values: Vec<ValueUse>,
    /// Deprecated members served: (namespace, method, member), and whether through the window
    /// (fields of named types as in `deprecated_uses`).
    pub(crate) deprecated: Vec<(String, String, String, bool)>,
}

impl Counts {
    fn empty(window: &Window, source: String, coverage: Coverage) -> Counts {
        Counts {
            window: window.clone(),
            source,
            plants: 0,
            coverage,
            calls: Vec::new(),
            deprecated_uses: Vec::new(),
            describe: Vec::new(),
            values: Vec::new(),
            deprecated: Vec::new(),
        }
    }

    /// The counts as compat-diff's evidence: a method's use is its calls over every version,
    /// with the versions that called; a deprecated member's use its count, 0 when none.
    pub(crate) fn to_usage(&self) -> Usage {
        let mut uses: Vec<Use> = Vec::new();
        for row in &self.calls {
            let at =
                uses.iter().position(|u| u.namespace == row.namespace && u.method == row.method);
            let at = at.unwrap_or_else(|| {
                uses.push(Use::new(&row.namespace, &row.method, METHOD, 0, Vec::new()));
                uses.len() - 1
            });
            uses[at].count += row.count;
            if row.count > 0 {
                // The plant's label for no version, as compat-diff names it.
                let version = if row.label == names::UNDECLARED {
                    accord_compat_diff::usage::UNDECLARED.to_owned()
                } else {
                    row.label.clone()
                };
                uses[at].versions.push(version);
            }
        }
        for (ns, method, member, _) in &self.deprecated {
            if member == names::METHOD_MEMBER {
                continue;
            }
            let count: u64 = self
                .deprecated_uses
                .iter()
                .filter(|r| r.namespace == *ns && r.method == *method && r.label == *member)
                .map(|r| r.count)
                .sum();
            uses.push(Use::new(ns, method, member, count, Vec::new()));
        }
        let mut versions: Vec<VersionUse> = Vec::new();
        let mut at = |ns: &str, version: &str| {
            let version = if version == names::UNDECLARED {
                accord_compat_diff::usage::UNDECLARED
            } else {
                version
            };
            match versions.iter().position(|v| v.namespace == ns && v.version == version) {
                Some(i) => i,
                None => {
                    versions.push(VersionUse::new(ns, version, 0, 0, 0));
                    versions.len() - 1
                }
            }
        };
        let mut rows: Vec<(usize, u64, u64, u64)> = Vec::new();
        for r in &self.calls {
            rows.push((at(&r.namespace, &r.label), r.count, 0, 0));
        }
        for r in &self.describe {
            let reduced = if r.method == "reduced" { r.count } else { 0 };
            rows.push((at(&r.namespace, &r.label), 0, r.count, reduced));
        }
        for (i, calls, describe, reduced) in rows {
            versions[i].calls += calls;
            versions[i].describe += describe;
            versions[i].reduced += reduced;
        }
        let mut usage = Usage::unreachable(&self.window.text, &self.source, "");
        usage.versions = versions;
        usage.values.clone_from(&self.values);
        usage.plants = self.plants;
        usage.coverage = self.coverage.clone();
        usage.uses = uses;
        usage.deprecated_through = self
            .deprecated
            .iter()
            .filter(|d| d.3)
            .map(|(n, m, x, _)| (n.clone(), m.clone(), x.clone()))
            .collect();
        usage
    }
}

/// Reads a saved metrics text.
pub(crate) fn from_text(file: &str, text: &str, window: &Window) -> Result<Counts, String> {
    let samples = exposition::parse(text).map_err(|why| format!("{file}: {why}"))?;
    let uptimes: Vec<f64> =
        samples.iter().filter(|s| s.name == names::UPTIME).map(|s| s.value).collect();
    if uptimes.is_empty() {
        return Err(format!(
            "{file}: no `{}` sample: not the metrics text of a plant counting usage (docs/usage.md)",
            names::UPTIME
        ));
    }
    let uptime = uptimes.iter().copied().fold(f64::INFINITY, f64::min);
    let coverage = if uptime >= window.seconds as f64 {
        Coverage::Whole
    } else {
        Coverage::Short { seconds: uptime as u64 }
    };
    let mut counts = Counts::empty(window, file.to_owned(), coverage);
    counts.plants = uptimes.len();
    let through = counts.coverage == Coverage::Whole;
    for s in &samples {
        let row = |third: &str| Row {
            namespace: s.label("namespace").to_owned(),
            method: s.label("method").to_owned(),
            label: s.label(third).to_owned(),
            count: s.value.max(0.0).round() as u64,
        };
        match s.name.as_str() {
            names::CALLS => add(&mut counts.calls, row("declared_version")),
            names::DEPRECATED_USES => add(&mut counts.deprecated_uses, row("member")),
            names::DEPRECATED_FIELD_USES => {
                add(&mut counts.deprecated_uses, Row { count: row("field").count, ..type_field(s) })
            }
            names::ENUM_VALUES => {
                let row = row("member");
                add_value(
                    &mut counts.values,
                    &row.namespace,
                    &row.method,
                    &row.label,
                    s.label("value"),
                    row.count,
                );
            }
            names::ENUM_FIELD_VALUES => {
                let Row { namespace, method, label, .. } = type_field(s);
                let count = row("value").count;
                add_value(&mut counts.values, &namespace, &method, &label, s.label("value"), count);
            }
            names::DEPRECATED_FIELD if s.value >= 1.0 => {
                let Row { namespace, method, label, .. } = type_field(s);
                let key = (namespace, method, label, through);
                if !counts.deprecated.contains(&key) {
                    counts.deprecated.push(key);
                }
            }
            names::DESCRIBE => add(
                &mut counts.describe,
                Row { method: s.label("answer").to_owned(), ..row("declared_version") },
            ),
            names::DEPRECATED if s.value >= 1.0 => {
                let key = (
                    s.label("namespace").to_owned(),
                    s.label("method").to_owned(),
                    s.label("member").to_owned(),
                    through,
                );
                if !counts.deprecated.contains(&key) {
                    counts.deprecated.push(key);
                }
            }
            _ => {}
        }
    }
    Ok(counts)
}

/// A sample labelled by a named type's field, as the row of (namespace, `types`,
/// `Type.field`, or `Type` for the named type itself).
fn type_field(s: &exposition::Sample) -> Row {
    Row {
        namespace: s.label("namespace").to_owned(),
        method: TYPES.to_owned(),
        label: type_member(s.label("type"), s.label("field")),
        count: 0,
    }
}

/// `Type.field`, or `Type` when the field is empty (the named type itself).
fn type_member(name: &str, field: &str) -> String {
    if field.is_empty() { name.to_owned() } else { format!("{name}.{field}") }
}

/// Adds an enum value's count to the same value's (several plants), or appends it.
fn add_value(
    values: &mut Vec<ValueUse>,
    ns: &str,
    method: &str,
    member: &str,
    value: &str,
    n: u64,
) {
    match values
        .iter_mut()
        .find(|v| v.namespace == ns && v.method == method && v.member == member && v.value == value)
    {
        Some(v) => v.count += n,
        None => values.push(ValueUse::new(ns, method, member, value, n)),
    }
}

/// Adds a row to the row of the same labels (several plants in one text), or appends it.
fn add(rows: &mut Vec<Row>, row: Row) {
    match rows
        .iter_mut()
        .find(|r| r.namespace == row.namespace && r.method == row.method && r.label == row.label)
    {
        Some(r) => r.count += row.count,
        None => rows.push(row),
    }
}

/// The use over the window of counter `metric` summed by `by`: `increase()` plus the first
/// value of the series born inside the window.
fn used_query(metric: &str, by: &str, w: &str) -> [String; 2] {
    [
        format!("sum by ({by}) (increase({metric}[{w}]))"),
        format!("sum by ({by}) (min_over_time({metric}[{w}]) unless {metric} offset {w})"),
    ]
}

/// Reads the counts from a Prometheus-compatible query API at `base`.
pub(crate) fn from_prometheus(base: &str, window: &Window) -> Counts {
    let w = format!("{}s", window.seconds);
    let calls_query = used_query(names::CALLS, "namespace, method, declared_version", &w);
    let source = format!("{base}: {}", calls_query[0]);
    let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(e) => {
            let reason = format!("no runtime to query {base} on: {e}");
            return Counts::empty(window, source, Coverage::Unreachable { reason });
        }
    };
    runtime.block_on(async {
        match query_all(base, window, &w).await {
            Ok(mut counts) => {
                counts.source = source;
                counts
            }
            Err(reason) => Counts::empty(window, source, Coverage::Unreachable { reason }),
        }
    })
}

async fn query_all(base: &str, window: &Window, w: &str) -> Result<Counts, String> {
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .map_err(|e| format!("no HTTP client: {e}"))?;
    let api = Api { client, base: base.trim_end_matches('/').to_owned() };
    let uptime = names::UPTIME;
    let now = api.scalar_count(&format!("count({uptime})")).await?;
    let at_start = api.scalar_count(&format!("count({uptime} offset {w})")).await?;
    let coverage = if now == 0 {
        return Err(format!(
            "the source has no `{uptime}` series: no plant counting usage is scraped there (docs/usage.md)"
        ));
    } else if at_start > 0 {
        Coverage::Whole
    } else {
        // The oldest sample in the window, found at most 200 steps apart (the first step with
        // data is at most one step late: the coverage is never overstated).
        let step = (window.seconds / 200).max(1);
        let oldest = api
            .vector(&format!("min(min_over_time(timestamp({uptime})[{w}:{step}s]))"))
            .await?
            .first()
            .map_or(0.0, |(_, v)| *v);
        let newest = api.vector(&format!("max(timestamp({uptime}))")).await?;
        let newest = newest.first().map_or(oldest, |(_, v)| *v);
        Coverage::Short { seconds: (newest - oldest).max(0.0) as u64 }
    };
    let mut counts = Counts::empty(window, String::new(), coverage);
    counts.plants = now as usize;
    counts.calls = api.used(names::CALLS, "declared_version", w).await?;
    counts.deprecated_uses = api.used(names::DEPRECATED_USES, "member", w).await?;
    for q in used_query(names::DEPRECATED_FIELD_USES, "namespace, type, field", w) {
        for (labels, value) in api.vector(&q).await? {
            let row = Row {
                namespace: label(&labels, "namespace"),
                method: TYPES.to_owned(),
                label: type_member(&label(&labels, "type"), &label(&labels, "field")),
                count: value.max(0.0).round() as u64,
            };
            add(&mut counts.deprecated_uses, row);
        }
    }
    let enums = [
        (names::ENUM_VALUES, "namespace, method, member, value"),
        (names::ENUM_FIELD_VALUES, "namespace, type, field, value"),
    ];
    for (metric, by) in enums {
        for q in used_query(metric, by, w) {
            for (labels, value) in api.vector(&q).await? {
                let (method, member) = if metric == names::ENUM_VALUES {
                    (label(&labels, "method"), label(&labels, "member"))
                } else {
                    (
                        TYPES.to_owned(),
                        type_member(&label(&labels, "type"), &label(&labels, "field")),
                    )
                };
                let count = value.max(0.0).round() as u64;
                let ns = label(&labels, "namespace");
                add_value(
                    &mut counts.values,
                    &ns,
                    &method,
                    &member,
                    &label(&labels, "value"),
                    count,
                );
            }
        }
    }
    let describe = used_query(names::DESCRIBE, "namespace, answer, declared_version", w);
    for q in &describe {
        for (labels, value) in api.vector(q).await? {
            let row = Row {
                namespace: label(&labels, "namespace"),
                method: label(&labels, "answer"),
                label: label(&labels, "declared_version"),
                count: value.max(0.0).round() as u64,
            };
            add(&mut counts.describe, row);
        }
    }
    // Deprecated methods, params and fields by method; fields of named types by type.
    let gauges: [(&str, &str, MemberKey); 2] = [
        (names::DEPRECATED, "namespace, method, member", |l| {
            (label(l, "namespace"), label(l, "method"), label(l, "member"))
        }),
        (names::DEPRECATED_FIELD, "namespace, type, field", |l| {
            let member = type_member(&label(l, "type"), &label(l, "field"));
            (label(l, "namespace"), TYPES.to_owned(), member)
        }),
    ];
    for (d, by, key) in gauges {
        let served_now = api.vector(&format!("count by ({by}) ({d})")).await?;
        let served_at_start = api.vector(&format!("count by ({by}) ({d} offset {w})")).await?;
        let served_throughout =
            api.vector(&format!("count by ({by}) (min_over_time({d}[{w}]) >= 1)")).await?;
        for (labels, n) in &served_now {
            let k = key(labels);
            let count_of = |rows: &[(Value, f64)]| {
                rows.iter().find(|(l, _)| key(l) == k).map_or(0.0, |(_, v)| *v)
            };
            // Every plant that serves it now served it deprecated at the window's start and
            // through it, and as many plants did then as now.
            let through = counts.coverage == Coverage::Whole
                && count_of(&served_at_start) >= *n
                && count_of(&served_throughout) >= *n
                && *n as u64 >= now;
            counts.deprecated.push((k.0, k.1, k.2, through));
        }
    }
    Ok(counts)
}

/// A deprecated gauge's sample as (namespace, method or `types`, member).
type MemberKey = fn(&Value) -> (String, String, String);

fn label(labels: &Value, name: &str) -> String {
    labels.get(name).and_then(Value::as_str).unwrap_or_default().to_owned()
}

struct Api {
    client: reqwest::Client,
    base: String,
}

impl Api {
    /// An instant query's vector: each sample's labels and value.
    async fn vector(&self, query: &str) -> Result<Vec<(Value, f64)>, String> {
        let mut url = url::Url::parse(&format!("{}/api/v1/query", self.base))
            .map_err(|e| format!("`{}` is not a URL: {e}", self.base))?;
        url.query_pairs_mut().append_pair("query", query);
        let response = self
            .client
            .get(url.as_str())
            .send()
            .await
            .map_err(|e| format!("{} cannot be reached: {e}", self.base))?;
        let status = response.status();
        let text = response
            .text()
            .await
            .map_err(|e| format!("{}'s answer could not be read: {e}", self.base))?;
        let body: Value = serde_json::from_str(&text).map_err(|_| {
            format!("{} answered HTTP {status}, not a Prometheus query API answer", self.base)
        })?;
        if body["status"] != "success" {
            return Err(format!(
                "{} refused `{query}`: {}",
                self.base,
                body["error"].as_str().unwrap_or("no reason given")
            ));
        }
        let result = body["data"]["result"].as_array().cloned().unwrap_or_default();
        Ok(result
            .iter()
            .map(|s| {
                let value = s["value"][1].as_str().and_then(|v| v.parse().ok()).unwrap_or(0.0);
                (s["metric"].clone(), value)
            })
            .collect())
    }

    /// A `count(...)` query's number (0 when the vector is empty).
    async fn scalar_count(&self, query: &str) -> Result<u64, String> {
        Ok(self.vector(query).await?.first().map_or(0, |(_, v)| v.max(0.0) as u64))
    }

    /// A counter's use in the window, by namespace, method and `third`.
    async fn used(&self, metric: &str, third: &str, w: &str) -> Result<Vec<Row>, String> {
        let mut rows = Vec::new();
        for q in used_query(metric, &format!("namespace, method, {third}"), w) {
            for (labels, value) in self.vector(&q).await? {
                let row = Row {
                    namespace: label(&labels, "namespace"),
                    method: label(&labels, "method"),
                    label: label(&labels, third),
                    count: value.max(0.0).round() as u64,
                };
                add(&mut rows, row);
            }
        }
        Ok(rows)
    }
}
