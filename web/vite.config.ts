import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';

/** Where the dev/preview proxy sends API and IdP calls (LP_API_URL overrides, e.g. for a second server). */
const api = process.env.LP_API_URL ?? 'http://localhost:8080';
// Forwarded headers let the server see the browser's origin (it sets the session cookie there).
const target = { target: api, changeOrigin: false, xfwd: true };
const proxy = { '/api': target, '/oidc': target, '/healthz': target };

/**
 * Heavy libraries get their own chunks so they load only with the routes that import them
 * (every route is React.lazy / route.lazy); the shell needs none of them before first render.
 */
const chunkGroups: Array<{ name: string; test: RegExp }> = [
  {
    name: 'ag-grid',
    test: /[\\/]node_modules[\\/](ag-grid-community|ag-grid-react|ag-charts-types|ag-stack)[\\/]/,
  },
  {
    name: 'charts',
    // recharts' own CommonJS dependencies too: left out, they land in the importing page and make a cycle.
    test: /[\\/]node_modules[\\/](@mantine[\\/]charts|recharts|d3-[a-z-]+|victory-vendor|decimal\.js-light|es-toolkit|@reduxjs|redux|redux-thunk|react-redux|reselect|immer|use-sync-external-store|eventemitter3|react-is)[\\/]/,
  },
  { name: 'dates', test: /[\\/]node_modules[\\/](@mantine[\\/]dates|dayjs)[\\/]/ },
];

export default defineConfig({
  root: import.meta.dirname,
  // Brotli and gzip copies of the built files, served as they are by the server (no compression per request).
  plugins: [react(), compression({ algorithms: ['brotliCompress', 'gzip'] })],
  server: {
    port: 5173,
    proxy,
  },
  preview: {
    port: 4173,
    proxy,
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // The budget that matters (shell before first render) is enforced by bench/bundle-size.ts.
    chunkSizeWarningLimit: 1000,
    rolldownOptions: {
      output: {
        // A group must not drag its dependencies (React, Mantine) along, or the entry would import the group.
        codeSplitting: { groups: chunkGroups, includeDependenciesRecursively: false },
      },
    },
  },
});
