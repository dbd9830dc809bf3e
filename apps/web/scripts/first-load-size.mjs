#!/usr/bin/env node
// How much JavaScript the first page a person opens downloads, gzipped, from the Vite manifest of the
// last build (apps/web/dist/.vite/manifest.json; `npm run size -w @leadex/web` builds first).
//
//   node apps/web/scripts/first-load-size.mjs [--budget KB] [--verbose]
//
// Prints the entry with its static import graph (what index.html loads and modulepreloads), then each
// first page: the entry graph plus the lazy chunks its route loads (/auth: the sign-in page; '/': the
// admin's frame and home). Exits 1 when any of them is over the budget (300 kB gzipped by default;
// kB = 1000 bytes, as Vite prints them), so a change that pulls a heavy library into the entry fails,
// and when chunks import each other in a cycle.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const args = process.argv.slice(2);
const budgetAt = args.indexOf('--budget');
const budgetKb = budgetAt >= 0 ? Number(args[budgetAt + 1]) : 300;
const verbose = args.includes('--verbose');

/** The lazy modules each first page loads, as the manifest names them (source paths). */
const FIRST_PAGES = {
  '/auth (sign-in)': ['src/features/auth/SignInPage.tsx'],
  "/ (admin's home after sign-in)": ['src/app/AppLayout.tsx', 'src/features/home/AdminHomePage.tsx'],
};

let manifest;
try {
  manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
} catch {
  console.error(`No build manifest in ${dist}/.vite: run \`npm run build -w @leadex/web\` first.`);
  process.exit(2);
}

const gzipped = new Map();
/** Gzipped bytes of an emitted file (default level, as Vite's own report and most servers). */
function gzipSize(file) {
  if (!gzipped.has(file)) gzipped.set(file, gzipSync(readFileSync(join(dist, file))).length);
  return gzipped.get(file);
}

/** The JS files a manifest chunk needs before it runs: itself and its static imports, recursively. */
function staticGraph(key, files = new Set()) {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`${key} is not in the build manifest (was it renamed or made static?)`);
  if (files.has(chunk.file)) return files;
  files.add(chunk.file);
  for (const imported of chunk.imports ?? []) staticGraph(imported, files);
  return files;
}

const kb = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
const total = (files) => [...files].reduce((sum, file) => sum + gzipSize(file), 0);

function report(label, files) {
  const size = total(files);
  console.log(`${label}: ${kb(size)} gzipped in ${files.size} JS files`);
  if (verbose) {
    for (const file of [...files].sort((a, b) => gzipSize(b) - gzipSize(a)))
      console.log(`  ${kb(gzipSize(file)).padStart(9)}  ${file}`);
  }
  return size;
}

const entries = Object.keys(manifest).filter((key) => manifest[key].isEntry);
if (entries.length !== 1) throw new Error(`expected one entry in the manifest, found ${entries.length}`);
const entryFiles = staticGraph(entries[0]);

// A cycle between chunks (a vendor group and a screen importing each other) can run a module before
// the one it needs, so a screen fails to load: refuse such a build here rather than in a browser.
function findCycle() {
  const state = new Map();
  const visit = (key, path) => {
    state.set(key, 'open');
    for (const next of manifest[key]?.imports ?? []) {
      if (state.get(next) === 'open') return [...path, key, next];
      if (!state.has(next)) {
        const found = visit(next, [...path, key]);
        if (found) return found;
      }
    }
    state.set(key, 'done');
    return null;
  };
  for (const key of Object.keys(manifest)) {
    const found = !state.has(key) && visit(key, []);
    if (found) return found;
  }
  return null;
}
const cycle = findCycle();
if (cycle) {
  console.error(`The chunks import each other: ${cycle.map((key) => manifest[key]?.file ?? key).join(' -> ')}`);
  process.exit(1);
}

const over = [];
const check = (label, files) => {
  if (report(label, files) > budgetKb * 1000) over.push(label);
};
check('entry and its static imports', entryFiles);
for (const [page, modules] of Object.entries(FIRST_PAGES)) {
  const files = new Set(entryFiles);
  for (const module of modules) staticGraph(module, files);
  check(page, files);
}

const everything = new Set(
  Object.values(manifest)
    .map((chunk) => chunk.file)
    .filter((file) => file.endsWith('.js')),
);
console.log(`all JS of the app (for comparison): ${kb(total(everything))} gzipped in ${everything.size} files`);

if (over.length > 0) {
  console.error(`Over the ${budgetKb} kB gzipped budget: ${over.join(', ')}`);
  process.exit(1);
}
console.log(`Within the ${budgetKb} kB gzipped budget.`);
