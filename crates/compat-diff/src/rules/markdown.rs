//! The registry as markdown: the text of docs/compat-rules.md.

use super::RULES;

/// The registry as markdown: the text of docs/compat-rules.md.
pub fn rules_markdown() -> String {
    let mut out = String::from(
        "# Compatibility rules\n\n\
         <!-- Generated from crates/compat-diff/src/rules.rs (`rules_markdown`); do not edit. -->\n\n\
         `accord diff OLD NEW` compares two contracts. Every position has a writer and a reader:\n\
         params are written by callers and read by the plant (**input**: safe when the new type\n\
         admits everything the old one did); results, event payloads and error data are written by\n\
         the plant and read by callers (**output**: safe when the new type admits nothing the old one\n\
         did not). Nested positions inherit the polarity; a named type reached from both is checked\n\
         under both.\n\n\
         Two pairings exist during a rollout or a rollback and are judged apart: **old callers × new\n\
         plant** (the level in the column of the position's polarity) and **new callers × old plant**\n\
         (the level in the other column). The exit code follows the first pairing; the second is\n\
         reported when it is risky, breaking or policy, and decides the rollout advice. When both\n\
         pairings are risky or breaking, no deploy order is safe and the advice is expand–migrate–\n\
         contract. A change found once under each polarity (a named type reached from params and\n\
         from results) is one finding per pairing, at its worse level.\n\n\
         Levels: **breaking** (readers or writers that keep running fail), **risky** (some may:\n\
         strict or generated readers, or what the contract cannot prove), **policy** (no reader\n\
         fails, but the release skips the project's discipline: the version bump, deprecation and\n\
         reservation), **safe** (worth a changelog line), **none** (not reported in that pairing).\n\
         `--fail-on` takes `breaking`, `risky` (risky and breaking) and `policy`, comma-separated;\n\
         `breaking` and `risky` do not fail on policy findings.\n\n\
         Where the evolution seed decides a level, the rule's text quotes its words. What the format\n\
         cannot know is not graded: a field whose meaning changes with no change of type, unit,\n\
         format or default (seconds read as milliseconds under an unchanged `unit`-less name,\n\
         \"empty means all\" becoming \"empty means none\") gives no finding; the seed calls it\n\
         \"a breaking change that no type checker, schema validator, or test of the schema itself\n\
         will catch\". Give the new meaning a new name.\n\n\
         Contract-version policy, per namespace: a breaking change needs a major bump of `version`, an\n\
         additive (safe or risky) one a minor bump. In 0.x a breaking change needs a minor bump and an\n\
         additive one a patch bump. `version-not-bumped` states the least next version. The wire's\n\
         plant-wide members (`describe`, `codes`) belong to no namespace and ask for no bump. A `schema`\n\
         (format version) difference is reported apart and is never a contract change.\n\n\
         Usage evidence (`accord check --usage SOURCE --window D`, docs/usage.md): each old-callers\n\
         finding at risky or above about a method or its params, results or errors, a named type or\n\
         one of its fields, the describe method or a namespace, and the `version-not-bumped` policy\n\
         finding, carries what the plants counted over the window (\"called 1,234 times in 30d, by\n\
         callers declaring 2.1.0\", \"no use in 30d on 3 plants\", \"the describe method answered 12\n\
         times in 30d, 3 of them the reduced answer to callers without a credential\", \"callers of\n\
         `meter` in 30d declared 2.0.0 (5 calls, 2 describe)\"); an `enum-value-removed` in params\n\
         carries the count of the removed value. Evidence alone changes no level.\n\
         With `--usage-gate`, one case changes, one way: a removal (`method-removed`,\n\
         `param-removed`, `optional-param-removed`, and the removal of a field that params carry:\n\
         inside a param, or a field of a named type reached from params, which the plants count by\n\
         type whichever method carried it) of a method, param or field that every plant served\n\
         deprecated through the whole window and that no call used in it becomes **safe**, its\n\
         evidence saying so and naming the level it had (`gatedFrom`). Nothing else moves: not a\n\
         narrowing (a used value may still be refused), not a field callers read in a result, error\n\
         data or event (the plant cannot count what callers read: the evidence is the calls of the\n\
         methods that answer with it), not a field the plants did not count because it was never\n\
         deprecated (the evidence is the calls of the methods that carry it), not the describe\n\
         method (it cannot be deprecated: its count, and the reduced answers among it, are evidence\n\
         only), not a namespace, not a member deprecated for less than the window, not a used one,\n\
         and nothing at all when the source cannot be reached or covers less than the window: the\n\
         report says so plainly and the rule's level stands. The new callers × old plant pairing\n\
         and the policy findings (`removed-without-reserving`, `version-not-bumped`) never change.\n\n\
         | rule | category | subject | action | input | output | purpose |\n\
         | --- | --- | --- | --- | --- | --- | --- |\n",
    );
    for r in RULES {
        out.push_str(&format!(
            "| `{}` | {} | {} | {} | {} | {} | {} |\n",
            r.id,
            r.category.as_str(),
            r.subject,
            r.action,
            r.input,
            r.output,
            r.purpose
        ));
    }
    out.push_str("\n## Rules\n");
    for r in RULES {
        out.push_str(&format!(
            "\n### `{}`\n\n{}\n\nInput: {}. Output: {}. {}\n\nFixture: `fixtures/diff/{}/`.\n",
            r.id, r.purpose, r.input, r.output, r.doc, r.id
        ));
    }
    out.push_str(NOT_COVERED);
    out
}

/// The reference table's rules (design/compat-rules.md) that have no id here, and why: either
/// the format has nothing they could apply to, another rule covers them, or they are not done
/// yet (and then they say so).
const NOT_COVERED: &str = "
## Reference rules without an id of their own

| reference rule | why |
| --- | --- |
| `stability-decreased`, `unstable-scope` | does not apply: schema 1 has no stability attribute (a later additive member may add one) |
| `deprecated-field-removed-before-sunset` | does not apply: schema 1 has no sunset date; `removed-without-deprecation` covers removal of what was never deprecated |
| `idempotent-removed`, `readonly-removed` | covered by `semantics-changed`, which grades every move between read, idempotent, write, destructive and undeclared |
| `method-renamed`, `event-renamed`, `field-renamed` | covered by `probable-rename` (a removal and an addition of the same shape); schema 1 has no `renamedFrom` to declare one |
| `positional-optional-appended` / `positional-required-appended` | covered by `param-added-optional` and `param-added-required` (params are positional and named at once) |
| `exclusivity-changed` | covered by `bound-tightened` / `bound-loosened`: a bound that moved between `min` and `exclusiveMin` (or `max` and `exclusiveMax`) is one graded finding (`fixtures/diff/bound-tightened.exclusive/`), not a bound removed plus a bound added |
| `unique-items-added` / `unique-items-removed` | covered by `bound-added` / `bound-removed`: `uniqueItems` is a constraint set or unset |
| `map-key-type-changed` | key types are compared with the map's polarity by the structural comparison, under the rules of their kind (bounds, patterns, formats) |
| `ref-renamed-same-shape`, `ref-retargeted` | refs are resolved and compared structurally: a renamed type with the same shape is no wire change |
| `description/title/examples-changed` | level none: not reported |
";
