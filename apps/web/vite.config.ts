import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const API = 'http://localhost:3000';

/**
 * A vendor chunk of its own for libraries every screen needs and that import nothing of the app's
 * (issue 11): one cached copy, kept across deploys that change only the app. Everything else (Mantine,
 * mantine-datatable, @mantine/dates, the app's screens) is left to the automatic split by use: one
 * Mantine group would capture all of Mantine through its index, so the sign-in page would download
 * every component the app uses; and a group whose library imports modules that only one screen uses
 * makes the group and that screen's chunk import each other (a cycle that breaks the screen).
 */
function vendor(name: string, packages: string[]) {
  const folders = packages.map((p) => `/node_modules/${p}/`);
  return {
    name,
    // CSS stays with the providers that import it, in the entry's stylesheet.
    test: (id: string) => !id.endsWith('.css') && folders.some((f) => id.replaceAll('\\', '/').includes(f)),
  };
}

export default defineConfig({
  plugins: [react()],
  resolve: {
    // mantine-datatable sits at the workspace root and would otherwise resolve a second copy of
    // @mantine/core there; two copies mean two React contexts and "MantineProvider was not found".
    dedupe: ['react', 'react-dom', '@mantine/core', '@mantine/hooks'],
  },
  build: {
    // dist/.vite/manifest.json: scripts/first-load-size.mjs reads the chunk graph from it.
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            vendor('react', [
              'react',
              'react-dom',
              'scheduler',
              'react-router',
              'cookie',
              'set-cookie-parser',
              '@tanstack',
            ]),
            vendor('forms', ['react-hook-form', '@hookform', 'zod']),
            vendor('icons', ['@tabler']),
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': {
        target: API,
        // better-auth rejects cookie-authenticated POSTs from an untrusted Origin; in development the
        // page's origin is Vite's, so present the API's own origin instead.
        configure: (proxy) => proxy.on('proxyReq', (request) => request.setHeader('origin', API)),
      },
    },
  },
});
