import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseCircular, parseDependencyTree } from 'dpdm';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The layering of DESIGN.md §3, checked on the import graph of every source file (tests aside):
 * no import circle, and the database layer knows nothing of the modules, the engine or the jobs.
 */
const SRC = fileURLToPath(new URL('.', import.meta.url));
const sources = (readdirSync(SRC, { recursive: true }) as string[])
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
  .map((file) => `${SRC}${file}`);

let tree: Awaited<ReturnType<typeof parseDependencyTree>>;
beforeAll(async () => {
  tree = await parseDependencyTree(sources, { context: SRC, transform: false, include: /\.ts$/ });
}, 60_000);

/** Paths in the tree are relative to src/; anything outside it starts with `..`. */
const inSrc = (file: string) => !file.startsWith('..');
/** The files of src/ a file imports (type imports too). */
const importsOf = (file: string) =>
  (tree[file] ?? []).map((d) => d.id).filter((id): id is string => typeof id === 'string' && inSrc(id));
const edgesFrom = (files: string[]) => files.flatMap((file) => importsOf(file).map((id) => `${file} -> ${id}`));

describe('the server import graph', () => {
  it('reads every source file', () => {
    expect(Object.keys(tree).filter(inSrc).length).toBeGreaterThanOrEqual(sources.length);
  });

  it('has no import circle (type imports included)', () => {
    expect(parseCircular(tree).map((circle) => circle.join(' -> '))).toEqual([]);
  });

  it('keeps db/ below everything: it imports no module, engine or job', () => {
    const upward = edgesFrom(Object.keys(tree).filter((file) => file.startsWith('db/'))).filter((edge) =>
      /-> (modules|distribution|jobs|demo)\//.test(edge),
    );
    expect(upward).toEqual([]);
  });

  it('keeps the engine on the ground: distribution/ imports no module, job, plugin or demo', () => {
    const upward = edgesFrom(Object.keys(tree).filter((file) => file.startsWith('distribution/'))).filter((edge) =>
      /-> (modules|jobs|plugins|demo)\//.test(edge),
    );
    expect(upward).toEqual([]);
  });

  it('lets no route file read the database itself: routes call services', () => {
    const direct = edgesFrom(Object.keys(tree).filter((file) => file.endsWith('.routes.ts'))).filter((edge) =>
      /\.repo\.ts$|-> db\//.test(edge),
    );
    expect(direct).toEqual([]);
  });

  it("lets no module import another module's repository: it goes through that module's service (deps.ts)", () => {
    const moduleOf = (file: string) => /^modules\/([^/]+)\//.exec(file)?.[1];
    const intoRepos = Object.keys(tree)
      .filter((file) => moduleOf(file))
      .flatMap((file) =>
        importsOf(file)
          .filter((id) => id.endsWith('.repo.ts') && moduleOf(id) && moduleOf(id) !== moduleOf(file))
          .map((id) => `${file} -> ${id}`),
      );
    expect(intoRepos).toEqual([]);
  });
});

/** A source file's text, comments kept (a call in a comment is no call: see `callsOf`). */
const textOf = (file: string) => readFileSync(`${SRC}${file}`, 'utf8');
/** Tests are not in `sources`; these are the non-test files under src/ as the tree names them. */
const sourceFiles = () => Object.keys(tree).filter((file) => inSrc(file) && file.endsWith('.ts'));

describe('the layers below the modules (issue 31c)', () => {
  it('keeps lib/ at the bottom: it imports only lib/ and config.ts', () => {
    const upward = edgesFrom(sourceFiles().filter((file) => file.startsWith('lib/'))).filter(
      (edge) => !/-> (lib\/|config\.ts$)/.test(edge),
    );
    expect(upward).toEqual([]);
  });

  it('gives no route file the whole of deps.ts: a route plugin is given the services it uses', () => {
    const whole = edgesFrom(sourceFiles().filter((file) => file.endsWith('.routes.ts'))).filter((edge) =>
      edge.endsWith('-> deps.ts'),
    );
    expect(whole).toEqual([]);
  });

  it('gives no route file the jobs: a route plugin is typed by a port of the service side, deps.ts hands the jobs in', () => {
    const intoJobs = edgesFrom(sourceFiles().filter((file) => file.endsWith('.routes.ts'))).filter((edge) =>
      /-> jobs\//.test(edge),
    );
    expect(intoJobs).toEqual([]);
  });
});

/**
 * A service (a module's service, the engine, the sale, the pinger, the jobs…) is made by a factory:
 * a function `create<Name>` exported from modules/, distribution/ or jobs/ (none is a class). Building
 * one is calling such a factory; only the composition root (deps.ts), main.ts and tests may, so each
 * service exists once per process (the demo's engine on a clock it moves is deps.ts's `exchangeOn`).
 */
const FACTORY_HOMES = /^(modules|distribution|jobs)\//;
const MAY_BUILD = (file: string) => file === 'deps.ts' || file === 'main.ts';

/** The factories a file declares (`export function createX` or `export const createX =`). */
function factoriesOf(file: string): string[] {
  if (!FACTORY_HOMES.test(file)) return [];
  return [...textOf(file).matchAll(/^export (?:async )?(?:function\*? |const )(create[A-Z]\w*)/gm)].map(
    (m) => m[1] as string,
  );
}

/** The names of `names` a file calls (comments stripped; the declaration itself is no call). */
function callsOf(file: string, names: string[]): string[] {
  const code = textOf(file)
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|\s)\/\/.*$/gm, '$1');
  return names.filter((name) => new RegExp(`(?<!function\\*? )\\b${name}\\s*(<[^>]*>)?\\(`).test(code));
}

describe('one composition root (issue 31c)', () => {
  it('finds the factories: every service deps.ts builds is made by one', () => {
    const factories = sourceFiles().flatMap(factoriesOf);
    expect(factories).toEqual(
      expect.arrayContaining(['createBillsService', 'createBillPayments', 'createEngine', 'createJobs']),
    );
    expect(callsOf('deps.ts', factories)).toEqual(
      expect.arrayContaining(['createBillsService', 'createBillPayments', 'createEngine', 'createJobs']),
    );
  });

  it('lets nothing but deps.ts, main.ts and tests build a service (the demo neither)', () => {
    const builders = sourceFiles()
      .filter((file) => !MAY_BUILD(file))
      .flatMap((file) => {
        // A file can call only the factories of the files it imports, and its own.
        const reachable = [file, ...importsOf(file)].flatMap(factoriesOf);
        return callsOf(file, reachable).map((name) => `${file} calls ${name}`);
      });
    expect(builders).toEqual([]);
  });
});

/**
 * The engine in files of one responsibility each (issue 31): no source file of distribution/ (tests
 * aside) is over 300 lines, but the sale's SQL, which sale.repo.ts keeps in one place on purpose.
 */
const MAX_ENGINE_FILE_LINES = 300;
const LONG_ON_PURPOSE = new Set(['distribution/sale/sale.repo.ts']);
/** Lines as `wc -l` counts them (a last line without its newline counts too). */
const linesOf = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

describe('the engine in files of one responsibility (issue 31)', () => {
  it(`keeps every file of distribution/ at ${MAX_ENGINE_FILE_LINES} lines or fewer, but sale.repo.ts`, () => {
    const engineFiles = (readdirSync(`${SRC}distribution`, { recursive: true }) as string[])
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .map((file) => `distribution/${file}`);
    expect(engineFiles).toEqual(expect.arrayContaining(['distribution/engine.ts', ...LONG_ON_PURPOSE]));
    const long = engineFiles
      .filter((file) => !LONG_ON_PURPOSE.has(file))
      .map((file) => ({ file, lines: linesOf(textOf(file)) }))
      .filter(({ lines }) => lines > MAX_ENGINE_FILE_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(long).toEqual([]);
  });
});
