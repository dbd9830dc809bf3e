import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A request a local HTTP receiver got. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * What the receiver answers a request on a path: a status (with `{"ok": status < 300}`), a status
 * and body of its own, or `hang` (never answers).
 */
export type Reply = number | 'hang' | { status: number; body: string; contentType?: string };

/** A local HTTP server standing in for a buyer's endpoint; `replies[path]` scripts its answers. */
export async function startHttpReceiver() {
  const received: Received[] = [];
  const scripts = new Map<string, Reply[]>();
  const fallback = new Map<string, Reply>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const reply = scripts.get(path)?.shift() ?? fallback.get(path) ?? 200;
      if (reply === 'hang') return;
      if (typeof reply === 'object') {
        res.writeHead(reply.status, { 'content-type': reply.contentType ?? 'application/json' });
        res.end(reply.body);
        return;
      }
      res.writeHead(reply, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: reply < 300 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    received,
    on: (path: string) => received.filter((r) => r.path === path),
    /** Answers the next requests on `path` in turn, then `then` (200 by default). */
    script(path: string, replies: Reply[], then: Reply = 200) {
      scripts.set(path, [...replies]);
      fallback.set(path, then);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A mail a local SMTP server accepted. */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/** A local SMTP server (no TLS, no auth) that accepts every message. */
export async function startSmtpReceiver() {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, mails, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** Polls `check` until it answers something truthy, or fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T> | T, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
