/**
 * The top functions of a V8 CPU profile (`.cpuprofile`, from `node --cpu-prof` or bench/ping-micro.ts):
 * self and inclusive share of the samples, by function and source line. `npx tsx bench/profile-top.ts
 * FILE [N] [per] [focus]`: N rows (40); `per` = how many requests the profile covers, to print µs per
 * request; `focus` (a regular expression): only the samples with a function matching it on their stack.
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const [file, rows = '40', per = '0', focus] = process.argv.slice(2);
const focusRe = focus ? new RegExp(focus) : null;
if (!file) throw new Error('usage: profile-top.ts FILE [N] [requests]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const short = (url: string) => url.replace(/^file:\/\/.*?\/(node_modules|apps|packages|bench)\//, '$1/');
const keyOf = (n: Node) =>
  `${n.callFrame.functionName || '(anonymous)'} ${short(n.callFrame.url)}:${n.callFrame.lineNumber + 1}:${n.callFrame.columnNumber}`;

// Time per sample: the delta that follows it.
const selfUs = new Map<number, number>();
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i] as number;
  const dt = profile.timeDeltas[i + 1] ?? 0;
  selfUs.set(id, (selfUs.get(id) ?? 0) + dt);
}
const self = new Map<string, number>();
const total = new Map<string, number>();
let all = 0;
let idle = 0;
const stackMatches = (id: number) => {
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur))
    if (focusRe?.test(keyOf(byId.get(cur) as Node))) return true;
  return false;
};
for (const [id, us] of selfUs) {
  const node = byId.get(id) as Node;
  if (focusRe && !stackMatches(id)) {
    if (node.callFrame.functionName !== '(idle)' && node.callFrame.functionName !== '(program)') all += us;
    continue;
  }
  if (node.callFrame.functionName === '(idle)' || node.callFrame.functionName === '(program)') idle += us;
  all += us;
  const key = keyOf(node);
  self.set(key, (self.get(key) ?? 0) + us);
  // Inclusive: each distinct function on the stack once.
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const k = keyOf(byId.get(cur) as Node);
    if (seen.has(k)) continue;
    seen.add(k);
    total.set(k, (total.get(k) ?? 0) + us);
  }
}
const busy = all - idle;
const requests = Number(per);
const fmt = (us: number) =>
  `${((100 * us) / busy).toFixed(1).padStart(5)} %${requests ? ` ${(us / requests).toFixed(2).padStart(7)} µs` : ''}`;
console.log(`busy ${(busy / 1000).toFixed(0)} ms of ${(all / 1000).toFixed(0)} ms sampled`);
console.log('\n-- self --');
for (const [k, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(rows))) console.log(`${fmt(us)}  ${k}`);
console.log('\n-- inclusive --');
for (const [k, us] of [...total].sort((a, b) => b[1] - a[1]).slice(0, Number(rows))) console.log(`${fmt(us)}  ${k}`);
