// Parses each file named on the command line with mermaid's own parser (the
// npm package, under jsdom for the DOM it expects), printing `ok TYPE` or the
// parser's error per file; exit 1 when one fails. Run with the directory that
// holds node_modules/{mermaid,jsdom} as the working directory.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const modules = join(process.cwd(), 'node_modules');
const { JSDOM } = createRequire(join(modules, 'jsdom', 'package.json'))('jsdom');
const dom = new JSDOM('<!doctype html><html><body></body></html>');
globalThis.window = dom.window;
globalThis.document = dom.window.document;
const { default: mermaid } = await import(
  pathToFileURL(join(modules, 'mermaid', 'dist', 'mermaid.core.mjs')).href
);
let failed = false;
for (const file of process.argv.slice(2)) {
  try {
    const parsed = await mermaid.parse(readFileSync(file, 'utf8'));
    console.log(`ok ${parsed.diagramType} ${file}`);
  } catch (error) {
    failed = true;
    console.log(`error ${file}: ${String(error.message).split('\n').join(' ')}`);
  }
}
process.exit(failed ? 1 : 0);
