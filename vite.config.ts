// One Vite config, three builds chosen by --mode:
//   (default)      the page: index.html → dist/ (relative base, so it works under any sub-path)
//   --mode cli     the `spindle` command: cli/spindle.ts → dist-cli/spindle.cjs, loaded by
//                  dist-cli/spindle.mjs with V8's code cache (codeCache below)
//   --mode bench   the benchmarks:        bench/run.ts   → dist-cli/bench.mjs
// The Node bundles inline every dependency (zod, the engine) and leave only node:* builtins
// external, so `bin/spindle.mjs` loads one file and starts fast. The command's bundle is
// ASCII (a one-byte string for V8 to scan), minified without comments (fewer bytes to read
// and scan); its commands are imported when run (cli/main.ts), so a command runs only its
// modules' code.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type UserConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

/** Node entries built as single-file bundles, keyed by mode. */
const nodeEntries: Record<string, () => UserConfig> = {
  cli: () =>
    nodeBundle('cli/spindle.ts', BUNDLE, {
      format: 'cjs',
      strict: true,
      // import() of a builtin as a lazy require(): node:vm runs the bundle without a loader
      // for import(), and a command loads node:zlib only when it reads a gzip file
      dynamicImportInCjs: false,
      charset: 'ascii',
      comments: false,
      // fewer bytes to read: no whitespace, short local names; function and class names kept
      // (stack traces, with SPINDLE_DEBUG=1, stay readable; spindle.cjs.map has the rest),
      // and no compression, so V8 runs the code as written
      minify: { compress: false, mangle: { keepNames: true }, codegen: { removeWhitespace: true } },
      plugins: [codeCache()],
    }),
  bench: () => nodeBundle('bench/run.ts', 'bench.mjs', { format: 'es' }),
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

// ---- The command's code cache (issue 19) ----------------------------------------------
// Compiling the command's megabyte of JavaScript, and then each function as it is first
// called, was a good part of a short run's time. Node 20 keeps no compile cache for ES
// modules (module.enableCompileCache is Node 22), but node:vm takes V8's code cache for a
// script, so `vite build --mode cli` writes to dist-cli/
//   spindle.cjs           the command, bundled as CommonJS inside Node's module wrapper (a
//                         function expression, wrapBundle)
//   spindle.mjs           the loader: compiles spindle.cjs with the cache and runs it
//   spindle.<hash>.cache  V8's code cache for spindle.cjs, written by the loader after one
//                         warm-up run of a small scenario, so that it holds the functions a
//                         run calls and not only the top level
// V8 takes a cache only if its version, its flags and the source's length match, and
// otherwise compiles as usual (another Node, `node --expose-gc …`); the bundle's hash in the
// cache's name keeps an earlier build's cache from a new bundle of the same length. Nothing
// a command prints depends on the cache: it holds the bytecode V8 compiles from that source.

const BUNDLE = 'spindle.cjs';
/** The bundle is a function expression: Node's CommonJS wrapper around the module's code. */
const WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname) {';
const WRAPPER_TAIL = '})';
const LOADER = 'spindle.mjs';
const CACHE_FILE = /^spindle\.[0-9a-f]+\.cache$/;
/** In the warm-up run's environment: the loader writes the cache when the command exits. */
const WRITE_CACHE = 'SPINDLE_WRITE_CODE_CACHE';

/**
 * When V8 optimizes a hot function, for `spindle run`. V8 11 (Node 20) hands a function to
 * TurboFan after about 3 × 66 KB of its bytecode ran (--interrupt-budget=67584), tuned for a
 * browser's pages. A short run (1,000 requests, a lesson's size) then optimizes the engine's
 * functions and ends before the optimized code has paid for its compiling: 455M instructions
 * for the whole command and 5,500 memory pages touched, against 308M and 4,100 with twice the
 * budget (valgrind and getrusage, 2026-11-29); a 30k- or 1M-request run takes the same time
 * (1M: 7.82G against 7.84G instructions; four times the budget: 8.04G), a 10k one 2% more
 * CPU. Not for the other commands: `spindle parse` of 205 MB took 3% longer with it (its one
 * hot loop is best optimized early). Set after the bundle is compiled: V8 takes a code cache
 * only under the flags it was made with, and the warm-up run that makes it keeps V8's own.
 * Only for the V8 it was measured on: another V8's tiering (Maglev) is not this one.
 */
const TIERED_V8 = '11.';
const TIERED_COMMAND = 'run';
const TIERING_FLAG = '--interrupt-budget=135168';

/** dist-cli/spindle.mjs: runs the bundle as Node runs a CommonJS module, with the cache. */
function loaderSource(cacheName: string): string {
  return `// Written by \`vite build --mode cli\` (vite.config.ts): runs ${BUNDLE}, compiled with
// V8's code cache ${cacheName} when it fits this Node, as usual when not.
// Builtins through require: importing node:fs would build its ES module facade, which reads
// every export (fs.ReadStream's getter loads the streams).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { readFileSync, writeFileSync } = require('node:fs');
const { dirname } = require('node:path');
const { fileURLToPath } = require('node:url');
const { Script } = require('node:vm');

const file = fileURLToPath(new URL('./${BUNDLE}', import.meta.url));
const cacheFile = fileURLToPath(new URL('./${cacheName}', import.meta.url));
let cachedData;
try {
  cachedData = readFileSync(cacheFile);
} catch {
  cachedData = undefined; // compiled as usual
}
// The bundle is ASCII, so latin1 reads it as UTF-8 would, without decoding; it is Node's
// wrapper for a CommonJS module around the module's code (vite.config.ts)
const script = new Script(readFileSync(file, 'latin1'), { filename: file, cachedData });
if (cachedData && script.cachedDataRejected && process.env.SPINDLE_DEBUG === '1')
  process.stderr.write(\`spindle: the code cache \${cacheFile} does not fit this Node; compiled as usual\\n\`);
if (process.env.${WRITE_CACHE} === '1')
  process.on('exit', (code) => code === 0 && writeFileSync(cacheFile, script.createCachedData()));
// Once compiled, for \`spindle ${TIERED_COMMAND}\` on Node 20: twice V8's budget before it optimizes a
// function (vite.config.ts, TIERING_FLAG: a short run ends before optimized code pays off)
else if (process.argv[2] === '${TIERED_COMMAND}' && process.versions.v8.startsWith('${TIERED_V8}'))
  require('node:v8').setFlagsFromString('${TIERING_FLAG}');
const module = { exports: {} };
script.runInThisContext()(module.exports, require, module, file, dirname(file));
`;
}

/** The warm-up run's scenario: the scenario checks, the engine and the report (its text;
 * --json calls no more of our code) — most of what any run calls. */
const WARM_UP_SCENARIO = {
  name: 'code-cache',
  disk: { preset: 'hp-c2247a', queueDepth: 1, scheduler: 'fcfs' },
  workload: { processes: [{ name: 'reader', op: 'read', pattern: 'random', sizeKiB: 4 }] },
  stop: { requests: 1000 },
};

/**
 * Node's wrapper for a CommonJS module around the bundle, in the file itself (on lines of
 * their own; the source map moved a line down to match): the loader compiles the file's text
 * as it is, with no copy of a megabyte to join the wrapper to. (Not rolldown's banner and
 * footer: its dead-code pass drops the function expression they would make.)
 */
function wrapBundle(dir: string): void {
  const code = readFileSync(join(dir, BUNDLE), 'latin1');
  const at = code.lastIndexOf('\n//# sourceMappingURL=');
  const [body, mapComment] = at < 0 ? [code, ''] : [code.slice(0, at), code.slice(at)];
  writeFileSync(
    join(dir, BUNDLE),
    `${WRAPPER_HEAD}\n${body}\n${WRAPPER_TAIL}${mapComment}\n`,
    'latin1',
  );
  const mapFile = join(dir, `${BUNDLE}.map`);
  const map = JSON.parse(readFileSync(mapFile, 'utf8')) as { mappings: string };
  map.mappings = ';' + map.mappings;
  writeFileSync(mapFile, JSON.stringify(map));
}

/** After the bundle is written: the loader, then the cache from a warm-up run. */
function codeCache(): Plugin {
  return {
    name: 'spindle:code-cache',
    apply: 'build',
    writeBundle(options) {
      const dir = options.dir!;
      wrapBundle(dir);
      const hash = createHash('sha256')
        .update(readFileSync(join(dir, BUNDLE)))
        .digest('hex');
      const cacheName = `spindle.${hash.slice(0, 16)}.cache`;
      for (const f of readdirSync(dir)) if (CACHE_FILE.test(f)) rmSync(join(dir, f));
      writeFileSync(join(dir, LOADER), loaderSource(cacheName));

      const tmp = mkdtempSync(join(tmpdir(), 'spindle-code-cache-'));
      try {
        const scenario = join(tmp, 'warm-up.json');
        writeFileSync(scenario, JSON.stringify(WARM_UP_SCENARIO));
        // a plain `node`, as the command is run: V8 flags in NODE_OPTIONS would make a cache
        // that only fits them
        const env: NodeJS.ProcessEnv = { ...process.env, [WRITE_CACHE]: '1' };
        delete env.NODE_OPTIONS;
        const r = spawnSync(process.execPath, [join(dir, LOADER), 'run', scenario], {
          env,
          stdio: ['ignore', 'ignore', 'pipe'],
          encoding: 'utf8',
        });
        // without a cache the command still runs (compiled as usual); its tests will say more
        if (r.status !== 0)
          this.warn(`no code cache: the warm-up run failed (${r.status}): ${r.stderr || r.error}`);
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
    },
  };
}

type OutputOptions = Exclude<
  NonNullable<NonNullable<UserConfig['build']>['rolldownOptions']>['output'],
  unknown[] | undefined
>;

function nodeBundle(entry: string, fileName: string, output: OutputOptions): UserConfig {
  return {
    publicDir: false,
    build: {
      ssr: entry,
      target: 'node20',
      outDir: 'dist-cli',
      emptyOutDir: false, // cli and bench share the folder; each writes fixed file names
      sourcemap: true,
      minify: false,
      rolldownOptions: {
        // topLevelVar off: a module's top-level const stays const, so V8 folds it into the
        // optimized code (as var it reloads and type-checks it at every use on the hot path)
        output: { topLevelVar: false, ...output, entryFileNames: fileName, codeSplitting: false },
      },
    },
    ssr: { target: 'node', noExternal: true },
  };
}

export default defineConfig(({ mode }) => {
  const node = nodeEntries[mode];
  if (node) return node();
  return {
    base: './',
    plugins: [react(), relaxCspInDev(), offline()],
    worker: { format: 'es' },
    build: { target: 'es2022', outDir: 'dist' },
  };
});
