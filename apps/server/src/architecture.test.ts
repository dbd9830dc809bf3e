import { readdirSync } from 'node:fs';
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
