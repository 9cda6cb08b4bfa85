// One Vite config, three builds chosen by --mode:
//   (default)      the page: index.html → dist/ (relative base, so it works under any sub-path)
//   --mode cli     the `spindle` command: cli/spindle.ts → dist-cli/spindle.mjs
//   --mode bench   the benchmarks:        bench/run.ts   → dist-cli/bench.mjs
// The Node bundles inline every dependency (zod, the engine) and leave only node:* builtins
// external, so `bin/spindle.mjs` loads one file and starts fast.
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type UserConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

/** Node entries built as single-file ESM bundles, keyed by mode. */
const nodeEntries: Record<string, { entry: string; fileName: string }> = {
  cli: { entry: 'cli/spindle.ts', fileName: 'spindle.mjs' },
  bench: { entry: 'bench/run.ts', fileName: 'bench.mjs' },
};

/**
 * The dev server needs an inline React Refresh preamble and a WebSocket, which the page's
 * strict Content-Security-Policy forbids; drop that meta tag in `vite` (serve) only.
 * Built pages (`vite build`, `vite preview`, the e2e test) keep it.
 */
function relaxCspInDev(): Plugin {
  return {
    name: 'spindle:relax-csp-in-dev',
    apply: 'serve',
    transformIndexHtml: (html) =>
      html.replace(/\s*<meta http-equiv="Content-Security-Policy"[^>]*>/, ''),
  };
}

/**
 * The page works offline after one visit (a classroom that loses its network must still
 * reload and switch lessons): Workbox, through vite-plugin-pwa, writes a service worker that
 * precaches every built file — the page, its workers and chunks, every lesson's scenario —
 * and answers any navigation (the address carries the configuration in its query) with the
 * cached index.html. src/main.tsx registers it; the dev server has none.
 */
function offline(): Plugin[] {
  return VitePWA({
    injectRegister: false,
    registerType: 'autoUpdate',
    manifest: false,
    workbox: {
      globPatterns: ['**/*.{js,css,html,json}'],
      navigateFallback: 'index.html',
      cleanupOutdatedCaches: true,
      // control the page that installed it, so the first visit's lesson switches work offline
      clientsClaim: true,
      skipWaiting: true,
    },
  });
}

function nodeBundle(entry: string, fileName: string): UserConfig {
  return {
    publicDir: false,
    build: {
      ssr: entry,
      target: 'node20',
      outDir: 'dist-cli',
      emptyOutDir: false, // cli and bench share the folder; each writes one fixed file name
      sourcemap: true,
      minify: false,
      rolldownOptions: {
        output: { format: 'es', entryFileNames: fileName, codeSplitting: false },
      },
    },
    ssr: { target: 'node', noExternal: true },
  };
}

export default defineConfig(({ mode }) => {
  const node = nodeEntries[mode];
  if (node) return nodeBundle(node.entry, node.fileName);
  return {
    base: './',
    plugins: [react(), relaxCspInDev(), offline()],
    worker: { format: 'es' },
    build: { target: 'es2022', outDir: 'dist' },
  };
});
