import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const API = 'http://localhost:3000';

export default defineConfig({
  plugins: [react()],
  resolve: {
    // mantine-datatable sits at the workspace root and would otherwise resolve a second copy of
    // @mantine/core there; two copies mean two React contexts and "MantineProvider was not found".
    dedupe: ['react', 'react-dom', '@mantine/core', '@mantine/hooks'],
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
