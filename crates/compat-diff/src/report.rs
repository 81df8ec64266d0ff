//! Findings and the report: levels per pairing, the reader/writer story, rollout advice,
//! locations, and the text and JSON renderings.

use std::collections::HashMap;
use std::fmt::Write as _;

use accord_schema_model::SourceMap;
use serde_json::{Value, json};

use crate::compare::{Change, PositionKind};
use crate::rules::{Advice, Level, Polarity, Story};
use crate::{Source, witness};

/// The two pairings that exist while a rollout or a rollback is under way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Pairing {
    /// Old callers against the new plant: the plant was deployed first.
    OldCallersNewPlant,
    /// New callers against the old plant: callers went first, or the plant was rolled back.
    NewCallersOldPlant,
}

impl Pairing {
    /// As written in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Pairing::OldCallersNewPlant => "old-callers-new-plant",
            Pairing::NewCallersOldPlant => "new-callers-old-plant",
        }
    }
}

/// Where a finding stands in a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    /// The file, as the caller named it.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
}

/// One finding: a rule broken (or kept) at a path, for one pairing.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Finding {
    /// The rule id.
    pub rule: &'static str,
    /// The level for this pairing.
    pub level: Level,
    /// The logical path (`pump.start.params.rpm`).
    pub path: String,
    /// The kind of position.
    pub position: PositionKind,
    /// The pairing judged.
    pub pairing: Pairing,
    /// What changed.
    pub message: String,
    /// Who writes, who reads, and what this does to them, in one sentence.
    pub story: String,
    /// Deploy order, or a new name.
    pub advice: String,
    /// A value the writer side accepts and the reader side refuses, when one was found.
    pub witness: Option<Value>,
    /// Where it stands: in the new document, or the old one for removals.
    pub location: Option<Location>,
    /// What a usage source says about its use ([`Report::add_usage`]), when one was given.
    pub evidence: Option<crate::usage::Evidence>,
}

/// A difference of the format version (`schema`): reported apart, never a contract change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaDifference {
    /// The old document's `schema`.
    pub old: u64,
    /// The new document's `schema`.
    pub new: u64,
}

/// Everything a comparison found.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Report {
    /// The findings, both pairings, in file order.
    pub findings: Vec<Finding>,
    /// The `schema` difference, if any.
    pub schema: Option<SchemaDifference>,
}

fn noun(position: PositionKind, polarity: Polarity) -> &'static str {
    match (position, polarity) {
        (PositionKind::Params, _) => "These params are",
        (PositionKind::Result, _) => "This result is",
        (PositionKind::Event, _) => "This event payload is",
        (PositionKind::ErrorData, _) => "This error data is",
        (PositionKind::Surface, Polarity::Input) => "Calls are",
        (PositionKind::Surface, Polarity::Output) => "Events and errors are",
    }
}

/// The finding's story: the rule's own sentence, or who writes and who reads at its position.
fn story(c: &Change, pairing: Pairing, level: Level) -> String {
    if let Story::Fixed(text) = c.rule.story {
        return text.to_owned();
    }
    // Under input polarity the callers write; under output the plant writes.
    let (callers, plant) = match pairing {
        Pairing::OldCallersNewPlant => ("old callers", "the new plant"),
        Pairing::NewCallersOldPlant => ("new callers", "the old plant"),
    };
    let (writer, reader) = match c.polarity {
        Polarity::Input => (callers, plant),
        Polarity::Output => (plant, callers),
    };
    let verdict = match level {
        Level::Breaking => "this change breaks that",
        Level::Risky => "this change may break that",
        Level::Policy => "this change keeps that, but skips a step of the removal discipline",
        Level::Safe | Level::None => "this change keeps that",
    };
    let when = match pairing {
        Pairing::OldCallersNewPlant => "",
        Pairing::NewCallersOldPlant => " (mid-rollout, or after a rollback of the plant)",
    };
    format!(
        "{} written by {writer} and read by {reader}{when}, so {reader} must accept everything {writer} send{}; {verdict}.",
        noun(c.position, c.polarity),
        if writer.ends_with("callers") { "" } else { "s" }
    )
}

/// The finding's advice: the rule's own, or the deploy order its two pairings' levels allow.
fn advice(c: &Change, primary: Level, mirror: Level) -> String {
    let bad = |l: Level| l >= Level::Risky;
    if let Advice::Fixed(text) = c.rule.advice {
        return text.to_owned();
    }
    match (bad(primary), bad(mirror)) {
        (false, false) => "deploy in any order.".to_owned(),
        (false, true) => "deploy the plant first; callers may rely on the change only once every plant runs it, and are rolled back before the plant.".to_owned(),
        (true, false) => "deploy callers first: every caller must run the new version before the plant does.".to_owned(),
        (true, true) => "no deploy order is safe: the change is risky or breaking both for old callers × new plant and for new callers × old plant, so whichever side is deployed ahead, the pairing it leaves behind fails. Expand–migrate–contract instead: add a new field, param or type beside the old one (expand: a new field, rather than a new bound, type or default on the old one), have writers write both and move readers to the new one (migrate), then remove the old one in a later release and reserve its name (contract).".to_owned(),
    }
}

pub(crate) fn build(old: &Source, new: &Source, changes: Vec<Change>) -> Report {
    let old_map = SourceMap::new(&old.text);
    let new_map = SourceMap::new(&new.text);
    // Every finding's place, found in one scan of each document.
    let mut located = vec![None; changes.len()];
    for (on_old, map) in [(true, &old_map), (false, &new_map)] {
        let (at, pointers): (Vec<usize>, Vec<&accord_schema_model::Pointer>) = changes
            .iter()
            .enumerate()
            .filter(|(_, c)| c.on_old == on_old)
            .map(|(i, c)| (i, &c.pointer))
            .unzip();
        for (i, l) in at.into_iter().zip(map.locate_all(&pointers)) {
            located[i] = l;
        }
    }
    // One finding per cause: the same change found under both polarities (a named type
    // reached from params and from results) is one group, judged at its worst in each pairing,
    // so its advice sees both pairings at once instead of one order per polarity.
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut group_of: HashMap<(&'static str, &str, bool, &str), usize> = HashMap::new();
    for (i, c) in changes.iter().enumerate() {
        let key = (c.rule.id, c.path.as_str(), c.on_old, c.message.as_str());
        match group_of.get(&key) {
            Some(&g) => groups[g].push(i),
            None => {
                group_of.insert(key, groups.len());
                groups.push(vec![i]);
            }
        }
    }
    let mut findings = Vec::new();
    for group in groups {
        let first = &changes[group[0]];
        let level_in = |pairing: Pairing, c: &Change| match pairing {
            Pairing::OldCallersNewPlant => c.rule.level(c.polarity),
            Pairing::NewCallersOldPlant => c.rule.level(c.polarity.flip()),
        };
        // The member that is worst in a pairing speaks for the group there.
        let worst = |pairing: Pairing| {
            group.iter().map(|&i| &changes[i]).max_by_key(|c| level_in(pairing, c)).unwrap_or(first)
        };
        let primary = level_in(Pairing::OldCallersNewPlant, worst(Pairing::OldCallersNewPlant));
        let mirror = level_in(Pairing::NewCallersOldPlant, worst(Pairing::NewCallersOldPlant));
        let (src, map) = if first.on_old { (old, &old_map) } else { (new, &new_map) };
        let location = if src.text.is_empty() {
            None
        } else {
            located[group[0]].map(|l| {
                let p = map.position(l.label().start);
                Location { file: src.file.clone(), line: p.line, column: p.column }
            })
        };
        let advice = advice(first, primary, mirror);
        for (pairing, level) in
            [(Pairing::OldCallersNewPlant, primary), (Pairing::NewCallersOldPlant, mirror)]
        {
            // Every level but none and safe is reported in both pairings (safe findings once,
            // for the changelog, under old callers × new plant).
            let keep = match pairing {
                Pairing::OldCallersNewPlant => level > Level::None,
                Pairing::NewCallersOldPlant => level >= Level::Policy,
            };
            if !keep {
                continue;
            }
            let c = worst(pairing);
            let polarity = match pairing {
                Pairing::OldCallersNewPlant => c.polarity,
                Pairing::NewCallersOldPlant => c.polarity.flip(),
            };
            let witness = if level >= Level::Risky {
                c.witness
                    .as_ref()
                    .and_then(|plan| witness::find(plan, polarity, &old.document, &new.document))
            } else {
                None
            };
            let finding = Finding {
                rule: c.rule.id,
                level,
                path: c.path.clone(),
                position: c.position,
                pairing,
                message: c.message.clone(),
                story: story(c, pairing, level),
                advice: advice.clone(),
                witness,
                location: location.clone(),
                evidence: None,
            };
            if !findings.contains(&finding) {
                findings.push(finding);
            }
        }
    }
    findings.sort_by(|a, b| {
        let key = |f: &Finding| {
            (f.pairing, f.location.as_ref().map(|l| (l.file.clone(), l.line, l.column)), f.rule)
        };
        key(a).cmp(&key(b))
    });
    let schema = (old.document.schema != new.document.schema)
        .then_some(SchemaDifference { old: old.document.schema, new: new.document.schema });
    Report { findings, schema }
}

impl Report {
    /// The worst level for `pairing`.
    pub fn worst(&self, pairing: Pairing) -> Level {
        self.findings
            .iter()
            .filter(|f| f.pairing == pairing)
            .map(|f| f.level)
            .max()
            .unwrap_or(Level::None)
    }

    /// Whether the report fails at any of `thresholds` (`--fail-on`): a finding of the
    /// old-callers × new-plant pairing that fails at one of them ([`Level::fails_at`]).
    pub fn fails(&self, thresholds: &[Level]) -> bool {
        self.findings.iter().any(|f| {
            f.pairing == Pairing::OldCallersNewPlant
                && thresholds.iter().any(|&t| f.level.fails_at(t))
        })
    }

    /// `N breaking, N risky, N policy, N safe` for one pairing.
    fn tally(&self, pairing: Pairing) -> String {
        let c = self.counts(pairing);
        format!(
            "{} breaking, {} risky, {} policy, {} safe",
            c["breaking"], c["risky"], c["policy"], c["safe"]
        )
    }

    fn counts(&self, pairing: Pairing) -> Value {
        let n = |l: Level| {
            self.findings.iter().filter(|f| f.pairing == pairing && f.level == l).count()
        };
        json!({
            "breaking": n(Level::Breaking),
            "risky": n(Level::Risky),
            "policy": n(Level::Policy),
            "safe": n(Level::Safe),
        })
    }

    /// The report as text: `file:line:col: level[rule] path: message`, then the story,
    /// advice and witness indented below, then a summary.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        if let Some(s) = &self.schema {
            let _ = writeln!(
                out,
                "schema: the old document is schema {}, the new one schema {} (the format version; not a contract change)",
                s.old, s.new
            );
        }
        let mut last = None;
        for f in &self.findings {
            if last != Some(f.pairing) {
                let _ = writeln!(out, "== {}", pairing_title(f.pairing));
                last = Some(f.pairing);
            }
            let place = f
                .location
                .as_ref()
                .map_or("-".to_owned(), |l| format!("{}:{}:{}", l.file, l.line, l.column));
            let _ = writeln!(out, "{place}: {}[{}] {}: {}", f.level, f.rule, f.path, f.message);
            let _ = writeln!(out, "    {}", f.story);
            let _ = writeln!(out, "    advice: {}", f.advice);
            if let Some(w) = &f.witness {
                let _ = writeln!(out, "    witness: {w}");
            }
            if let Some(e) = &f.evidence {
                let _ = writeln!(out, "    usage: {}", e.text);
            }
        }
        let line = |p: Pairing| self.tally(p);
        let _ = writeln!(
            out,
            "summary: old callers × new plant: {}; new callers × old plant: {}",
            line(Pairing::OldCallersNewPlant),
            line(Pairing::NewCallersOldPlant)
        );
        out
    }

    /// The report as Markdown, for a pull-request comment: the summary first, then one table
    /// per pairing (level, rule, path, place, message), then the story, advice and witness of
    /// every breaking or risky finding, folded.
    pub fn to_markdown(&self) -> String {
        let mut out = String::from("## Contract compatibility\n\n");
        if let Some(s) = &self.schema {
            let _ = writeln!(
                out,
                "The old document is schema {}, the new one schema {}: the format version, not a contract change.\n",
                s.old, s.new
            );
        }
        let line = |p: Pairing| self.tally(p);
        let _ = writeln!(
            out,
            "| pairing | findings |\n| --- | --- |\n| old callers × new plant | {} |\n| new callers × old plant | {} |\n",
            line(Pairing::OldCallersNewPlant),
            line(Pairing::NewCallersOldPlant)
        );
        if self.findings.is_empty() {
            out.push_str("No change that matters to callers or plants.\n");
            return out;
        }
        for pairing in [Pairing::OldCallersNewPlant, Pairing::NewCallersOldPlant] {
            let findings: Vec<&Finding> =
                self.findings.iter().filter(|f| f.pairing == pairing).collect();
            if findings.is_empty() {
                continue;
            }
            let _ = writeln!(out, "### {}\n", pairing_title(pairing));
            out.push_str(
                "| level | rule | path | where | what |\n| --- | --- | --- | --- | --- |\n",
            );
            for f in &findings {
                let place = f
                    .location
                    .as_ref()
                    .map_or("—".to_owned(), |l| format!("`{}:{}:{}`", l.file, l.line, l.column));
                let level = match f.level {
                    Level::Breaking | Level::Risky => format!("**{}**", f.level),
                    _ => f.level.to_string(),
                };
                let _ = writeln!(
                    out,
                    "| {level} | `{}` | `{}` | {place} | {} |",
                    f.rule,
                    cell(&f.path),
                    cell(&f.message)
                );
            }
            out.push('\n');
            for f in findings.iter().filter(|f| f.level >= Level::Policy) {
                let _ = writeln!(
                    out,
                    "<details><summary>{} <code>{}</code> at <code>{}</code></summary>\n",
                    f.level,
                    f.rule,
                    html(&f.path)
                );
                let _ = writeln!(out, "{}\n\n**Advice:** {}\n", f.story, f.advice);
                if let Some(w) = &f.witness {
                    let _ = writeln!(out, "Witness:\n\n```json\n{w}\n```\n");
                }
                if let Some(e) = &f.evidence {
                    let _ = writeln!(out, "**Usage:** {}\n", e.text);
                }
                out.push_str("</details>\n\n");
            }
        }
        out
    }

    /// The report as JSON (`version` 1).
    pub fn to_json(&self) -> Value {
        let findings: Vec<Value> = self
            .findings
            .iter()
            .map(|f| {
                let mut finding = json!({
                    "rule": f.rule,
                    "level": f.level.as_str(),
                    "path": f.path,
                    "position": f.position.as_str(),
                    "message": f.message,
                    "story": f.story,
                    "advice": f.advice,
                    "witness": f.witness,
                    "location": f.location.as_ref().map(|l| json!({"file": l.file, "line": l.line, "column": l.column})),
                    "pairing": f.pairing.as_str(),
                });
                // Present only with a usage source (`check --usage`).
                if let Some(e) = &f.evidence {
                    finding["evidence"] = e.to_json();
                }
                finding
            })
            .collect();
        json!({
            "version": 1,
            "findings": findings,
            "schema": self.schema.as_ref().map(|s| json!({"old": s.old, "new": s.new})),
            "summary": {
                "old-callers-new-plant": self.counts(Pairing::OldCallersNewPlant),
                "new-callers-old-plant": self.counts(Pairing::NewCallersOldPlant),
                "worst": self.worst(Pairing::OldCallersNewPlant).as_str(),
            },
        })
    }
}

fn pairing_title(pairing: Pairing) -> &'static str {
    match pairing {
        Pairing::OldCallersNewPlant => "old callers × new plant",
        Pairing::NewCallersOldPlant => "new callers × old plant",
    }
}

/// Text for a Markdown table cell: a `|` would end the cell, a line break the row.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// Text inside HTML (`<summary>`), where `<` and `&` are markup.
fn html(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}
