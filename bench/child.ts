/** The bench server's process (bench/server.ts): started with the app's database, stopped over IPC. */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ServerMessage } from './server';

/**
 * Starts the server under test in its own process, so the load generator does not share its event
 * loop; resolves with its port once it listens. `nodeArgs`: extra node flags (a CPU profile);
 * `env`: what else the server reads (BENCH_* settings).
 */
export function startBenchServer(
  url: string,
  secret: string,
  options: { nodeArgs?: string[]; env?: Record<string, string> } = {},
): Promise<{ child: ChildProcess; port: number; poolSize: number }> {
  const child = fork(fileURLToPath(new URL('./server.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx', ...(options.nodeArgs ?? [])],
    env: { ...process.env, ...options.env, NODE_ENV: 'production', BENCH_DB_URL: url, BENCH_SECRET: secret },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) =>
      reject(new Error(`the bench server exited (code ${code}) before listening`));
    child.once('exit', onExit);
    child.on('message', (message: ServerMessage) => {
      if (message.type === 'ready') {
        child.off('exit', onExit);
        resolve({ child, port: message.port, poolSize: message.poolSize });
      }
    });
  });
}

/** Stops the server: asked over IPC, killed after 10 s if it does not exit. */
export async function stopBenchServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  if (child.connected) child.send({ type: 'stop' });
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
