/**
 * A crude profiler for the server under test: wall time of every SQL statement by kind and of
 * waiting for a pooled connection. It patches node-postgres in the bench's server process only and
 * records nothing until `enable()` (a short pass after the timed runs), so the timed runs pay one
 * extra function call per query at most.
 */
import type pg from 'pg';

interface Tally {
  count: number;
  totalMs: number;
}

export interface ProfileRow {
  label: string;
  count: number;
  totalMs: number;
  meanMs: number;
}

/** A statement's kind: its first words with literal values dropped, e.g. `insert into "leads"`. */
function labelOf(text: string): string {
  if (text.startsWith('prepared ')) return text;
  const flat = text.replace(/\s+/g, ' ').trim().toLowerCase();
  const table = /\b(?:from|into|update)\s+("?[a-z_]+"?)/.exec(flat)?.[1] ?? '';
  const verb = /^(with|select|insert|update|delete|begin|commit|rollback|savepoint|release)/.exec(flat)?.[1] ?? flat;
  return table ? `${verb} ${table.replaceAll('"', '')}` : verb;
}

export function createProfiler(driver: typeof pg) {
  let enabled = false;
  let queries = new Map<string, Tally>();
  let acquire: Tally = { count: 0, totalMs: 0 };
  const add = (map: Map<string, Tally>, label: string, ms: number) => {
    const t = map.get(label) ?? { count: 0, totalMs: 0 };
    t.count += 1;
    t.totalMs += ms;
    map.set(label, t);
  };
  const since = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

  type QueryFn = (...args: unknown[]) => unknown;
  const proto = driver.Client.prototype as unknown as { query: QueryFn };
  const query = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    if (!enabled) return query.apply(this, args);
    const first = args[0] as string | { text?: string; name?: string } | undefined;
    // A named (prepared) statement is labelled by its name: its text starts alike for several.
    const text = typeof first === 'string' ? first : first?.name ? `prepared ${first.name}` : (first?.text ?? '');
    const start = process.hrtime.bigint();
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      // pg's Pool.query calls the client with a callback, not for a promise.
      args[last] = (error: unknown, ...rest: unknown[]) => {
        add(queries, error ? `${labelOf(text)} (failed)` : labelOf(text), since(start));
        return (callback as QueryFn)(error, ...rest);
      };
      return query.apply(this, args);
    }
    const result = query.apply(this, args);
    if (result && typeof (result as Promise<unknown>).then === 'function') {
      (result as Promise<unknown>).then(
        () => add(queries, labelOf(text), since(start)),
        () => add(queries, `${labelOf(text)} (failed)`, since(start)),
      );
    }
    return result;
  };

  const poolProto = driver.Pool.prototype as unknown as { connect: QueryFn };
  const connect = poolProto.connect;
  poolProto.connect = function (this: unknown, ...args: unknown[]) {
    if (!enabled) return connect.apply(this, args);
    const start = process.hrtime.bigint();
    const done = () => {
      acquire.count += 1;
      acquire.totalMs += since(start);
    };
    const callback = args[0];
    if (typeof callback === 'function') {
      return connect.call(this, (...cbArgs: unknown[]) => {
        done();
        return (callback as QueryFn)(...cbArgs);
      });
    }
    const result = connect.apply(this, args) as Promise<unknown>;
    result.then(done, done);
    return result;
  };

  const rows = (map: Map<string, Tally>): ProfileRow[] =>
    [...map.entries()]
      .map(([label, t]) => ({ label, count: t.count, totalMs: t.totalMs, meanMs: t.totalMs / t.count }))
      .sort((a, b) => b.totalMs - a.totalMs);

  return {
    enable() {
      enabled = true;
    },
    /** What was measured since `enable()`; stops recording. */
    take() {
      enabled = false;
      const out = { queries: rows(queries), acquire: { ...acquire } };
      queries = new Map();
      acquire = { count: 0, totalMs: 0 };
      return out;
    },
  };
}

export type Profile = ReturnType<ReturnType<typeof createProfiler>['take']>;
