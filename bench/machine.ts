/** CPU accounting during a run (Linux /proc): the whole machine, and the bench database's backends. */
import { readFileSync } from 'node:fs';
import type pg from 'pg';

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** Busy and total jiffies of all CPUs. */
function readCpu(): { busy: number; total: number } | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    const f = line.trim().split(/\s+/).slice(1).map(Number);
    const idle = (f[3] ?? 0) + (f[4] ?? 0);
    const total = f.reduce((a, b) => a + b, 0);
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

/** CPU milliseconds a process has used (user + system), or null when it is gone. */
export function processCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * TICK_MS;
  } catch {
    return null;
  }
}

async function backendCpu(admin: pg.Client, database: string): Promise<Map<number, number>> {
  const { rows } = await admin.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [
    database,
  ]);
  const out = new Map<number, number>();
  for (const { pid } of rows) {
    const ms = processCpuMs(pid);
    if (ms !== null) out.set(pid, ms);
  }
  return out;
}

export interface CpuWindow {
  /** Share of all CPUs busy during the window (every process on the machine). */
  machineBusy: number | null;
  /** CPU ms used by the bench database's backends (0 when PostgreSQL is not on this machine). */
  postgresMs: number;
}

/** Starts measuring; call the returned function at the end of the window. */
export async function cpuWindow(admin: pg.Client, database: string): Promise<() => Promise<CpuWindow>> {
  const cpu = readCpu();
  const backends = await backendCpu(admin, database);
  return async () => {
    const end = readCpu();
    const after = await backendCpu(admin, database);
    let postgresMs = 0;
    for (const [pid, ms] of after) postgresMs += ms - (backends.get(pid) ?? 0);
    return {
      machineBusy: cpu && end && end.total > cpu.total ? (end.busy - cpu.busy) / (end.total - cpu.total) : null,
      postgresMs,
    };
  };
}

/** What the bench database's backends were doing, sampled over a run. */
export interface Activity {
  samples: number;
  /** Running a statement (CPU, or waiting on I/O or WAL). */
  active: number;
  /** Inside a transaction, waiting for the app to send the next statement. */
  waitingForApp: number;
  /** Waiting for a lock another transaction holds (hot rows). */
  lockWaits: number;
  /** Waiting on WAL writes / flushes (commits). */
  walWaits: number;
  /** Connected and idle, outside any transaction. */
  idle: number;
}

/** Samples pg_stat_activity every `everyMs` until the returned function is called. */
export function sampleActivity(admin: pg.Client, database: string, everyMs = 200): () => Promise<Activity> {
  const activity: Activity = { samples: 0, active: 0, waitingForApp: 0, lockWaits: 0, walWaits: 0, idle: 0 };
  let running = true;
  const loop = (async () => {
    while (running) {
      const { rows } = await admin.query<{
        state: string | null;
        wait_event_type: string | null;
        wait_event: string | null;
      }>(
        'select state, wait_event_type, wait_event from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [database],
      );
      activity.samples += 1;
      for (const r of rows) {
        if (r.state === 'active') {
          activity.active += 1;
          if (r.wait_event_type === 'Lock') activity.lockWaits += 1;
          else if (r.wait_event?.startsWith('WAL')) activity.walWaits += 1;
        } else if (r.state?.startsWith('idle in transaction')) activity.waitingForApp += 1;
        else activity.idle += 1;
      }
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return async () => {
    running = false;
    await loop;
    return activity;
  };
}
