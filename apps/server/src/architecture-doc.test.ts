import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md names files and functions; each must exist, so the document cannot name what was
 * moved or removed. The parser is simple and strict:
 * - a path is a backticked token ending in a file extension or `/` (not `../`, not a route `/x`). It is read from the repository root
 *   when it starts with `apps/`, `packages/`, `docs/`, `e2e/` or `bench/`; a migration (`0004_x.sql`)
 *   from `apps/server/drizzle/`; anything else from `apps/server/src/`. Every path must exist.
 * - a name is a backticked identifier (`a.b` and a trailing `()` allowed) a space after a path (then
 *   more, apart by commas, spaces or slashes), or a run of names (`a`, `b` or `a`/`b`) right before
 *   ` in ` a path: `file` `name`, `name2` and `name`, `name2` in `file`. Every part of a dotted name must appear in that file's code (comments stripped).
 */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const DOC = 'docs/architecture.md';

const PATH = /^[\w.\-/]+(\.(ts|tsx|sql|md|json|mjs)|\/)$/;
const NAME = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*(\(\))?$/;

function located(path: string): string {
  if (/^(apps|packages|docs|e2e|bench)\//.test(path)) return path;
  if (/^\d{4}_[\w-]+\.sql$/.test(path)) return `apps/server/drizzle/${path}`;
  return `apps/server/src/${path}`;
}

/** A file's code without its comments, to look names up in. */
function codeOf(path: string): string {
  return readFileSync(`${ROOT}${path}`, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|\s)\/\/.*$/gm, '$1');
}

interface Mention {
  line: number;
  path: string;
  names: string[];
}

/** Every path of the document, with the names it is said to hold. */
function mentionsOf(text: string): Mention[] {
  const mentions: Mention[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    // The line as a list of code spans and the text between them.
    const parts = line.split('`');
    const code = (i: number) => (i % 2 === 1 ? (parts[i] ?? '') : null);
    for (let i = 1; i < parts.length; i += 2) {
      const token = code(i) as string;
      // `../shared/DESIGN.md` is outside the repository; `/openapi.json` is a route.
      if (!PATH.test(token) || token.startsWith('..') || token.startsWith('/')) continue;
      const names: string[] = [];
      // `file` `name`, `name2` / `name3`: names after the path (a space apart), then commas or slashes.
      for (let j = i + 2; j < parts.length && (j === i + 2 ? /^ +$/ : /^[\s,/]*$/).test(parts[j - 1] ?? 'x'); j += 2) {
        const next = code(j) as string;
        if (!NAME.test(next) || PATH.test(next)) break;
        names.push(next);
      }
      // `name`, `name2` in `file`: names before the path, the last one followed by " in ".
      if (/^\s+in\s+$/.test(parts[i - 1] ?? '')) {
        for (let j = i - 2; j >= 1; j -= 2) {
          const previous = code(j) as string;
          if (!NAME.test(previous) || PATH.test(previous)) break;
          names.push(previous);
          if (!/^(\s*,\s*|\s+and\s+|\/)$/.test(parts[j - 1] ?? '')) break;
        }
      }
      mentions.push({ line: index + 1, path: located(token), names });
    }
  }
  return mentions;
}

const mentions = mentionsOf(readFileSync(`${ROOT}${DOC}`, 'utf8'));

describe(`${DOC} names only what exists`, () => {
  it('names files and functions (the parser finds them)', () => {
    expect(mentions.length).toBeGreaterThan(100);
    expect(mentions.filter((m) => m.names.length > 0).length).toBeGreaterThan(50);
  });

  it('names only files and folders that exist', () => {
    const missing = mentions
      .filter(
        ({ path }) =>
          !existsSync(`${ROOT}${path}`) || (path.endsWith('/') && !statSync(`${ROOT}${path}`).isDirectory()),
      )
      .map(({ line, path }) => `line ${line}: ${path}`);
    expect(missing).toEqual([]);
  });

  it('names only functions (and constants) that are in the file it names', () => {
    const missing = mentions
      .filter(({ path }) => existsSync(`${ROOT}${path}`) && !path.endsWith('/'))
      .flatMap(({ line, path, names }) => {
        const code = codeOf(path);
        return names
          .filter((name) =>
            name
              .replace(/\(\)$/, '')
              .split('.')
              .some((part) => !new RegExp(`(?<![\\w$])${part.replace('$', '\\$')}(?![\\w$])`).test(code)),
          )
          .map((name) => `line ${line}: ${name} in ${path}`);
      });
    expect(missing).toEqual([]);
  });
});
