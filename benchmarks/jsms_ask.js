#!/usr/bin/env node
// Ask JSMinesweeper's analyser about many positions from one node process.
//
//   node benchmarks/jsms_ask.js PATH/TO/jsms_harness.js [--no-move]   (JSMS_DIR as for the harness)
//
// Reads position files (the harness's `probs` format), one path per line on stdin, and
// writes for each the harness's own `probs FILE --move --always-tiebreak` answer, one JSON
// line on stdout. It runs the shared harness's code unchanged, with JSMinesweeper loaded
// once instead of once per question: loading costs about a second, most questions a few
// milliseconds. Nothing of JSMinesweeper is here; the harness loads it from the checkout.
// benchmarks/losses.py (and versus_value.py through it) talks to it.
//
// With --no-move it asks `probs FILE` alone: the probabilities, without the slower search
// for the analyser's move (benchmarks/versus_engines.py). A position the harness rejects
// ends this process after its answer line, as it ends the harness: start another.

"use strict";

const fs = require("fs");
const path = require("path");
const readline = require("readline");
const Module = require("module");

const harness = path.resolve(process.argv[2] || "");
if (!process.argv[2] || !fs.existsSync(harness)) {
    process.stderr.write("jsms_ask: give the path of jsms_harness.js\n");
    process.exit(2);
}
const move = !process.argv.slice(3).includes("--no-move");
process.argv.push("--always-tiebreak");  // read by the harness when it is loaded

let src = fs.readFileSync(harness, "utf8").replace(/^#!.*\n/, "");
const run = /\nmain\(\)\.catch\([^\n]*\s*$/;
if (!run.test(src)) {
    process.stderr.write("jsms_ask: the harness does not end with main().catch(...) as expected\n");
    process.exit(2);
}
src = src.replace(run, "\n") + `
loadJSMS = ((load) => { let once = null; return (verbose) => (once ??= load(verbose)); })(loadJSMS);
module.exports = { probs };
`;
const mod = new Module(harness, module);
mod.filename = harness;
mod.paths = Module._nodeModulePaths(path.dirname(harness));
mod._compile(src, harness);
const { probs } = mod.exports;

(async () => {
    const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
    for await (const line of lines) {
        const file = line.trim();
        if (file) await probs({ _: ["probs", file], move });
    }
})().catch(e => { process.stderr.write(((e && e.stack) || String(e)) + "\n"); process.exit(1); });
