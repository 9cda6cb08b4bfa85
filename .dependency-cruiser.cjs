// The import rules `npm test` checks (scripts/test.mjs, step "dependencies"): no import
// circles in src/, the engine apart from the page, and the engine's layers pointing one way
// (docs/ARCHITECTURE.md "Layers"). Type-only imports count like any other, except as the
// no-circular rule says.

/** The engine's layers, lowest first: each may import its own and those before it. */
const CORE = '^src/engine/(sim/|request\\.ts$|events\\.ts$|arrays\\.ts$)';
const METRICS = '^src/engine/metrics/';
// disksim/validate.ts and range-experiments.ts run whole scenarios (DiskSim's validate
// mode, the range-writes paper's sweeps): they sit in disk/ by subject and in the run layer
// by what they import.
const RUN_IN_DISK = '^src/engine/disk/(disksim/validate\\.ts|range-experiments\\.ts)$';
const DISK = '^src/engine/disk/';
const BLOCK = '^src/engine/iosched/';
const WORKLOAD = '^src/engine/workload/';
/** Everything above: scenario/, trace/ and the engine's other files (simulation.ts, run.ts,
 * …); the rules below take CORE's files out of it. */
const RUN = `^src/engine/(scenario/|trace/|[^/]+\\.ts$)|${RUN_IN_DISK}`;

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'No import circles in src/, type-only imports included. The one exception: a circle ' +
        "through a layer's sim-view.ts (the simulation as that layer sees it), which names the " +
        "layer's state types while the layer's functions take it. sim-view.ts holds types " +
        'alone and is imported only as `import type` (the rule below), so such a circle is ' +
        'erased when compiled, and the layer rules keep it inside one layer.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true, viaOnly: { pathNot: '^src/engine/[^/]+/sim-view\\.ts$' } },
    },
    {
      name: 'sim-view-type-only',
      comment: "A layer's sim-view.ts is types alone: import it with `import type`.",
      severity: 'error',
      from: {},
      to: { path: '^src/engine/[^/]+/sim-view\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'engine-not-ui',
      comment: 'The engine never imports the page: not the worker, the app or the components.',
      severity: 'error',
      from: { path: '^src/engine/' },
      to: { path: '^src/(worker|app|components)/' },
    },
    {
      name: 'core-knows-no-layer',
      comment:
        'The event loop (sim/) and the request, trace-event and array basics import no layer: ' +
        'the layers register their event handlers with it (sim/loop.ts).',
      severity: 'error',
      from: { path: CORE },
      to: { path: '^src/', pathNot: CORE },
    },
    {
      name: 'metrics-only-down',
      comment:
        'The figures a run collects build on the core alone (they read a simulation by shape).',
      severity: 'error',
      from: { path: METRICS },
      to: { path: `${DISK}|${BLOCK}|${WORKLOAD}|${RUN}`, pathNot: CORE },
    },
    {
      name: 'disk-only-down',
      comment:
        'The disk builds on the core and the metrics: it knows no block layer, workload or run.',
      severity: 'error',
      from: { path: DISK, pathNot: RUN_IN_DISK },
      to: { path: `${BLOCK}|${WORKLOAD}|${RUN}`, pathNot: CORE },
    },
    {
      name: 'block-only-down',
      comment:
        "The block layer and its schedulers build on the disk's interface: no workload or run " +
        "(a bio's process is told through sim.submitter, which the workload registers).",
      severity: 'error',
      from: { path: BLOCK },
      to: { path: `${WORKLOAD}|${RUN}`, pathNot: CORE },
    },
    {
      name: 'workload-only-down',
      comment:
        "The workload (processes, page cache, journals) builds on the block layer's interface: " +
        'no scenario, trace or run.',
      severity: 'error',
      from: { path: WORKLOAD },
      to: { path: RUN, pathNot: CORE },
    },
  ],
  options: {
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.app.json' },
    doNotFollow: { path: 'node_modules' },
  },
};
