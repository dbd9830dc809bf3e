import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** Where `vite build` puts the SPA, relative to this file in src/ or in the bundled dist/. */
export function defaultWebDist(): string | undefined {
  for (const relative of ['../../../web/dist', '../../web/dist']) {
    const dir = fileURLToPath(new URL(relative, import.meta.url));
    if (existsSync(`${dir}/index.html`)) return dir;
  }
  return undefined;
}

/**
 * A request for a file rather than a screen: anything under /assets/ (the build's hashed chunks) or
 * a name with a static file's extension. Client routes never end so (ids hold letters, digits, `_`).
 */
export function isAssetPath(url: string): boolean {
  const path = url.split('?')[0] ?? '';
  return (
    path.startsWith('/assets/') ||
    /\.(?:m?js|css|map|json|png|jpe?g|gif|svg|ico|webp|avif|woff2?|ttf|otf|txt|webmanifest|wasm)$/i.test(path)
  );
}

/**
 * Serves the built SPA: its files as they are, and index.html for every other non-API path, so
 * client-side routes survive a refresh or a deep link. Unknown /api paths answer a JSON 404, and so
 * does a missing file (issue 27 item 8): a tab opened before a deploy that asks for a chunk the new
 * build no longer has must fail to load it (the app then reloads itself, main.tsx), not receive
 * index.html as JavaScript and go blank.
 */
export async function registerSpa(app: FastifyInstance, webDist: string | undefined): Promise<void> {
  const root = webDist && existsSync(`${webDist}/index.html`) ? webDist : undefined;
  if (root) {
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      setHeaders(reply, path) {
        // Hashed assets never change; index.html must be fetched fresh to pick up a new build.
        reply.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || request.url === '/api' || request.method !== 'GET') {
      return reply.status(404).send({ ok: false, message: `No route ${request.method} ${request.url.split('?')[0]}` });
    }
    if (isAssetPath(request.url)) {
      reply.header('cache-control', 'no-store');
      return reply
        .status(404)
        .type('text/plain; charset=utf-8')
        .send(`Not found: ${request.url.split('?')[0]}`);
    }
    if (!root) return reply.status(503).type('text/plain').send('The web app is not built: run `npm run build`.');
    reply.header('cache-control', 'no-cache');
    return reply.sendFile('index.html');
  });
}
