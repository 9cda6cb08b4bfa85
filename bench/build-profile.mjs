// Build a profiling harness (default bench/profile.ts) into dist-cli/ with the bench bundle's
// settings: node bench/build-profile.mjs [entry.ts] [out.mjs]
import { build } from 'vite';
const entry = process.argv[2] ?? 'bench/profile.ts';
const out = process.argv[3] ?? 'profile.mjs';
await build({
  configFile: false,
  logLevel: 'warn',
  publicDir: false,
  build: {
    ssr: entry,
    target: 'node20',
    outDir: 'dist-cli',
    emptyOutDir: false,
    sourcemap: true,
    minify: false,
    // as vite.config.ts's node bundles: top-level const stays const (V8 folds it)
    rolldownOptions: {
      output: { topLevelVar: false, format: 'es', entryFileNames: out, codeSplitting: false },
    },
  },
  ssr: { target: 'node', noExternal: true },
});
