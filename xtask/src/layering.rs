//! The layering check: every dependency (normal, build and dev) between workspace packages must
//! be allowed by the table in `docs/ARCHITECTURE.md`, between `<!-- layering:start -->` and
//! `<!-- layering:end -->`. `cargo xtask layering` prints the edges; the `#[test]` below fails
//! the build when the workspace and the table disagree.

use std::{
    collections::{BTreeMap, BTreeSet},
    fs,
    path::Path,
};

use anyhow::{Context, Result, bail};
use serde_json::Value;

use crate::workspace;

/// The file holding the allow-list.
pub(crate) const TABLE_FILE: &str = "docs/ARCHITECTURE.md";
const START: &str = "<!-- layering:start -->";
const END: &str = "<!-- layering:end -->";

/// One row of the table: a package and the workspace packages it may depend on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Row {
    pub(crate) package: String,
    pub(crate) allowed: BTreeSet<String>,
    /// 1-based line in the file, for messages.
    pub(crate) line: usize,
}

/// Workspace packages and the dependencies between them.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Graph {
    pub(crate) packages: BTreeSet<String>,
    /// `(from, to)` to the kinds of the dependency: `normal`, `build`, `dev`.
    pub(crate) edges: BTreeMap<(String, String), BTreeSet<String>>,
}

/// Parses the layering table out of the text of `docs/ARCHITECTURE.md`.
pub(crate) fn parse_table(text: &str) -> Result<Vec<Row>, String> {
    let lines: Vec<&str> = text.lines().collect();
    let find = |marker: &str| -> Result<usize, String> {
        let at: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].trim() == marker).collect();
        match at[..] {
            [i] => Ok(i),
            [] => Err(format!(
                "{TABLE_FILE} has no `{marker}` line: the layering table must sit between `{START}` and `{END}`"
            )),
            _ => Err(format!("{TABLE_FILE} has more than one `{marker}` line")),
        }
    };
    let (start, end) = (find(START)?, find(END)?);
    if end < start {
        return Err(format!("{TABLE_FILE}: `{END}` comes before `{START}`"));
    }

    let mut cells_by_line = Vec::new();
    for (i, line) in lines.iter().enumerate().take(end).skip(start + 1) {
        let line_no = i + 1;
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let Some(inner) = line.strip_prefix('|') else {
            return Err(format!(
                "{TABLE_FILE}:{line_no}: expected a table row starting with `|`, found `{line}`"
            ));
        };
        let inner = inner.strip_suffix('|').unwrap_or(inner);
        let cells: Vec<&str> = inner.split('|').map(str::trim).collect();
        cells_by_line.push((line_no, cells));
    }

    let is_separator = |cells: &[&str]| {
        cells.iter().all(|c| c.contains('-') && c.chars().all(|ch| matches!(ch, '-' | ':' | ' ')))
    };
    let mut rows: Vec<Row> = Vec::new();
    for (k, (line_no, cells)) in cells_by_line.iter().enumerate() {
        let line_no = *line_no;
        let next_is_separator = cells_by_line.get(k + 1).is_some_and(|(_, c)| is_separator(c));
        if is_separator(cells) || (k == 0 && next_is_separator) {
            continue; // separator or header row
        }
        let [package, allowed] = cells[..] else {
            return Err(format!(
                "{TABLE_FILE}:{line_no}: a layering row has two columns (crate, may depend on), found {}",
                cells.len()
            ));
        };
        let package = name_in_backticks(package)
            .ok_or_else(|| format!("{TABLE_FILE}:{line_no}: the first column must be one package name in backticks, found `{package}`"))?;
        let allowed = match allowed {
            "—" | "-" => BTreeSet::new(),
            list => list
                .split(',')
                .map(|entry| {
                    name_in_backticks(entry.trim()).ok_or_else(|| {
                        format!(
                            "{TABLE_FILE}:{line_no}: the second column must be package names in backticks separated by commas, or `—` for none; found `{list}`"
                        )
                    })
                })
                .collect::<Result<_, _>>()?,
        };
        if let Some(first) = rows.iter().find(|r| r.package == package) {
            return Err(format!(
                "{TABLE_FILE}:{line_no}: `{package}` has a second row (the first is on line {})",
                first.line
            ));
        }
        rows.push(Row { package, allowed, line: line_no });
    }
    Ok(rows)
}

fn name_in_backticks(cell: &str) -> Option<String> {
    let name = cell.strip_prefix('`')?.strip_suffix('`')?;
    let ok = !name.is_empty()
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'));
    ok.then(|| name.to_owned())
}

/// The workspace packages and the edges between them, from `cargo metadata --no-deps` output.
pub(crate) fn graph_from_metadata(metadata: &Value) -> Result<Graph, String> {
    let members: BTreeSet<&str> = metadata["workspace_members"]
        .as_array()
        .ok_or("`cargo metadata` output has no `workspace_members`")?
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let packages: Vec<&Value> = metadata["packages"]
        .as_array()
        .ok_or("`cargo metadata` output has no `packages`")?
        .iter()
        .filter(|p| p["id"].as_str().is_some_and(|id| members.contains(id)))
        .collect();
    let mut graph = Graph::default();
    for package in &packages {
        let name = package["name"].as_str().ok_or("a package without a name")?;
        graph.packages.insert(name.to_owned());
    }
    for package in &packages {
        let from = package["name"].as_str().unwrap_or_default();
        for dep in package["dependencies"].as_array().map_or(&[][..], Vec::as_slice) {
            let Some(to) = dep["name"].as_str() else {
                continue;
            };
            if to == from || !graph.packages.contains(to) {
                continue;
            }
            let kind = dep["kind"].as_str().unwrap_or("normal");
            graph
                .edges
                .entry((from.to_owned(), to.to_owned()))
                .or_default()
                .insert(kind.to_owned());
        }
    }
    Ok(graph)
}

/// Every way the workspace and the table disagree.
pub(crate) fn problems(graph: &Graph, rows: &[Row]) -> Vec<String> {
    let mut problems = Vec::new();
    let by_name: BTreeMap<&str, &Row> = rows.iter().map(|r| (r.package.as_str(), r)).collect();
    for package in &graph.packages {
        if !by_name.contains_key(package.as_str()) {
            problems.push(format!(
                "`{package}` has no row: add a row for {package} to the layering table in {TABLE_FILE}"
            ));
        }
    }
    for row in rows {
        for name in std::iter::once(&row.package).chain(&row.allowed) {
            if !graph.packages.contains(name) {
                problems.push(format!(
                    "{TABLE_FILE}:{}: the layering table names `{name}`, which is not a workspace package (remove it, or fix the name)",
                    row.line
                ));
            }
        }
    }
    for ((from, to), kinds) in &graph.edges {
        if let Some(row) = by_name.get(from.as_str())
            && !row.allowed.contains(to)
        {
            problems.push(format!(
                    "`{from}` depends on `{to}` ({}), which its row in {TABLE_FILE} (line {}) does not allow",
                    kinds.iter().cloned().collect::<Vec<_>>().join(", "),
                    row.line
                ));
        }
    }
    problems
}

/// Reads the workspace (`cargo metadata`) and the table; gives the graph and the rows.
fn load(root: &Path) -> Result<(Graph, Vec<Row>)> {
    let mut cmd = workspace::cargo();
    cmd.current_dir(root).args(["metadata", "--format-version", "1", "--no-deps"]);
    let metadata = workspace::stdout_of(&mut cmd)?;
    let metadata: Value =
        serde_json::from_str(&metadata).context("`cargo metadata` printed invalid JSON")?;
    let graph = graph_from_metadata(&metadata).map_err(anyhow::Error::msg)?;
    let text = fs::read_to_string(root.join(TABLE_FILE))
        .with_context(|| format!("could not read {TABLE_FILE}, which holds the layering table"))?;
    let rows = parse_table(&text).map_err(anyhow::Error::msg)?;
    Ok((graph, rows))
}

/// Fails listing every problem.
fn verify(graph: &Graph, rows: &[Row]) -> Result<()> {
    let problems = problems(graph, rows);
    if !problems.is_empty() {
        bail!(
            "the workspace does not follow the layering table in {TABLE_FILE}:\n  {}",
            problems.join("\n  ")
        );
    }
    Ok(())
}

/// `cargo xtask layering`: prints every edge and fails on any problem.
pub(crate) fn run(root: &Path) -> Result<()> {
    let (graph, rows) = load(root)?;
    for package in &graph.packages {
        let deps: Vec<String> = graph
            .edges
            .iter()
            .filter(|((from, _), _)| from == package)
            .map(|((_, to), kinds)| {
                format!("{to} ({})", kinds.iter().cloned().collect::<Vec<_>>().join(", "))
            })
            .collect();
        let deps = if deps.is_empty() { "—".to_owned() } else { deps.join(", ") };
        println!("{package} -> {deps}");
    }
    verify(&graph, &rows)?;
    println!(
        "layering: {} packages, {} edges, all allowed by {TABLE_FILE}",
        graph.packages.len(),
        graph.edges.len()
    );
    // The same file's Code Map names key files: each must exist.
    let text = std::fs::read_to_string(root.join(crate::code_map::MAP_FILE))?;
    let missing = crate::code_map::missing(root, &text);
    if !missing.is_empty() {
        anyhow::bail!(
            "{} names files that are not in the tree:\n  {}",
            crate::code_map::MAP_FILE,
            missing.join("\n  ")
        );
    }
    println!("layering: every file the Code Map names exists");
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    const TABLE: &str = "\
# Architecture

Some prose with a | pipe.

<!-- layering:start -->
| crate | may depend on (workspace crates) |
| --- | --- |
| `accord-schema-model` | — |
| `accord-cli` | `accord-schema-model` |
| `xtask` | `accord-schema-model` |
<!-- layering:end -->

More prose.
";

    fn set(names: &[&str]) -> BTreeSet<String> {
        names.iter().map(|n| (*n).to_owned()).collect()
    }

    fn graph(edges: &[(&str, &str, &str)]) -> Graph {
        let mut graph = Graph {
            packages: set(&["accord-schema-model", "accord-cli", "xtask"]),
            ..Graph::default()
        };
        for (from, to, kind) in edges {
            graph
                .edges
                .entry(((*from).to_owned(), (*to).to_owned()))
                .or_default()
                .insert((*kind).to_owned());
        }
        graph
    }

    #[test]
    fn parses_a_good_table() {
        let rows = parse_table(TABLE).unwrap();
        assert_eq!(
            rows,
            vec![
                Row { package: "accord-schema-model".into(), allowed: set(&[]), line: 8 },
                Row {
                    package: "accord-cli".into(),
                    allowed: set(&["accord-schema-model"]),
                    line: 9
                },
                Row { package: "xtask".into(), allowed: set(&["accord-schema-model"]), line: 10 },
            ]
        );
        let ok = graph(&[
            ("accord-cli", "accord-schema-model", "normal"),
            ("xtask", "accord-schema-model", "normal"),
        ]);
        assert_eq!(problems(&ok, &rows), Vec::<String>::new());
    }

    #[test]
    fn parses_several_allowed_names() {
        let text = "<!-- layering:start -->\n| `accord-cli` | `accord-schema-model`, `accord-validate` |\n<!-- layering:end -->\n";
        let rows = parse_table(text).unwrap();
        assert_eq!(rows[0].allowed, set(&["accord-schema-model", "accord-validate"]));
    }

    #[test]
    fn a_package_without_a_row_is_reported() {
        let rows = parse_table(TABLE).unwrap();
        let mut g = graph(&[]);
        g.packages.insert("accord-validate".into());
        let problems = problems(&g, &rows);
        assert_eq!(
            problems,
            [
                "`accord-validate` has no row: add a row for accord-validate to the layering table in docs/ARCHITECTURE.md"
            ]
        );
    }

    #[test]
    fn a_forbidden_edge_is_reported_with_its_kinds() {
        let rows = parse_table(TABLE).unwrap();
        let g = graph(&[
            ("accord-schema-model", "accord-cli", "dev"),
            ("accord-schema-model", "accord-cli", "build"),
            ("accord-cli", "accord-schema-model", "normal"),
        ]);
        assert_eq!(
            problems(&g, &rows),
            [
                "`accord-schema-model` depends on `accord-cli` (build, dev), which its row in docs/ARCHITECTURE.md (line 8) does not allow"
            ]
        );
    }

    #[test]
    fn an_unknown_package_is_reported_in_either_column() {
        let text = TABLE.replace(
            "| `xtask` | `accord-schema-model` |",
            "| `xtask` | `accord-schema-model`, `accord-serve` |\n| `accord-validate` | — |",
        );
        let rows = parse_table(&text).unwrap();
        let problems = problems(&graph(&[]), &rows);
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(
            problems[0].contains("names `accord-serve`, which is not a workspace package"),
            "{problems:?}"
        );
        assert!(
            problems[1].contains("names `accord-validate`, which is not a workspace package"),
            "{problems:?}"
        );
    }

    #[test]
    fn missing_markers_fail() {
        let no_start = TABLE.replace(START, "");
        assert!(parse_table(&no_start).unwrap_err().contains("layering:start"));
        let no_end = TABLE.replace(END, "");
        assert!(parse_table(&no_end).unwrap_err().contains("layering:end"));
        assert!(parse_table("# Architecture\n").is_err());
        let reversed = format!("{END}\n{START}\n");
        assert!(parse_table(&reversed).unwrap_err().contains("comes before"));
    }

    #[test]
    fn malformed_rows_fail() {
        for bad in [
            "| accord-cli | — |",
            "| `accord-cli` | accord-schema-model |",
            "| `accord-cli` |  |",
            "| `accord-cli` | — | extra |",
            "| `a` `b` | — |",
            "not a row",
        ] {
            let text = format!("{START}\n| crate | may depend on |\n| --- | --- |\n{bad}\n{END}\n");
            assert!(parse_table(&text).is_err(), "{bad:?} was accepted");
        }
        let twice = format!("{START}\n| `a` | — |\n| `a` | — |\n{END}\n");
        assert!(parse_table(&twice).unwrap_err().contains("second row"));
    }

    #[test]
    fn graph_takes_every_dependency_kind_between_workspace_packages() {
        let metadata = json!({
            "workspace_members": ["model-id", "cli-id"],
            "packages": [
                {"id": "model-id", "name": "accord-schema-model", "dependencies": [
                    {"name": "serde", "kind": null},
                ]},
                {"id": "cli-id", "name": "accord-cli", "dependencies": [
                    {"name": "accord-schema-model", "kind": null},
                    {"name": "accord-schema-model", "kind": "dev"},
                    {"name": "anyhow", "kind": null},
                ]},
            ],
        });
        let g = graph_from_metadata(&metadata).unwrap();
        assert_eq!(g.packages, set(&["accord-cli", "accord-schema-model"]));
        assert_eq!(
            g.edges,
            BTreeMap::from([(
                ("accord-cli".to_owned(), "accord-schema-model".to_owned()),
                set(&["dev", "normal"])
            )])
        );
    }

    /// The workspace itself follows the table in docs/ARCHITECTURE.md.
    #[test]
    fn workspace_follows_the_layering_table() {
        if let Err(err) = load(&workspace::root()).and_then(|(graph, rows)| verify(&graph, &rows)) {
            panic!("{err:#}");
        }
    }
}
