// Issuing a generator's steps (types.ts): the hooks workload.ts calls for a process with a
// `generator`. A closed-loop thread issues one step per Issue event: after a sync step it
// waits until fewer than `depth` of its sync bios are in flight; after an async step (a
// buffered write) it goes on at once, unless
//  - the bio found no free request (nr_requests are out: the block layer traces S; 6.18:
//    no free tag, untraced): the thread sleeps until the bio gets one, as the kernel's
//    submitter sleeps in get_request_wait (6.18: blk_mq_get_tag). This is what holds a buffered writer back once the disk is the
//    bottleneck, as writeback under congestion does in the kernel (LINUX-SCHEDULERS.md §1);
//  - the buffered writes of all threads not yet completed reach DIRTY_LIMIT_SECTORS (the
//    kernel's balance_dirty_pages: vm.dirty_ratio of memory), until they fall below it;
//  - its family caps its own async bios in flight (`asyncLimit`, e.g. smallfiles).
// With a page cache a buffered step meets it instead (buffered.ts); a write may make the
// thread run balance_dirty_pages before it goes on (2.6, balance-dirty.ts: it writes pages
// back itself, naps, or sleeps for a request with its writeback bio; 6.18, dirty-throttle.ts:
// it pauses).
// An open-loop thread (kbuild) issues a whole operation at each Poisson arrival whatever the
// block layer does (its arrival rate is the workload). Issue events carry the instance index.
import { allocBio } from '../../request';
import type { Bio } from '../../iosched/types';
import { bioSleeps, submitBio } from '../../iosched/host';
import { pushEvent } from '../../sim/heap';
import { EventKind, EventPriority } from '../../sim/events';
import { nextExponential, type Rng } from '../../sim/rng';
import type { WorkloadSimulation } from '../sim-view';
import type { ProcessSpec } from '../process-spec';
import { generatorFamily, type GeneratorSpec } from './index';
import type { GenEnv, GenInstance, Step } from './types';
import { part } from './layout';
import { attachRangeWrite } from '../../disk/range-pick';
import { dropPages, readFilled } from '../page-cache';
import { createPropLocal } from '../bdi-stats';
import { balanceDirtyPages } from '../balance-dirty';
import { createDirtyTask } from '../dirty-throttle';
import { cachedCostNs, throughPageCache } from './buffered';

const MS = 1e6;
/** async bios one thread may have in flight before it waits (dirty-page throttling, chosen) */
/**
 * Buffered-write sectors not yet completed, over all generator threads, at which a writer
 * waits: the kernel's dirty threshold, vm.dirty_ratio = 20% (2.6.32's default) of 1 GiB of
 * memory (chosen: the papers' machines' memory was not available). The request pool
 * (nr_requests) holds a writer back long before, except a sequential one whose pages merge.
 */
export const DIRTY_LIMIT_SECTORS = (0.2 * 2 ** 30) / 512;

/** a family's own cap on one thread's async bios in flight; none by default */
function asyncLimit(spec: GeneratorSpec): number {
  return generatorFamily(spec).asyncLimit?.(spec) ?? Infinity;
}

export type { GenInstance } from './types';

/** The instance's state for instance k of count in the span. */
export function createGenInstance(
  spec: GeneratorSpec,
  span: { startSector: number; sectors: number },
  k: number,
  count: number,
  rng: Rng,
): GenInstance {
  const region = part(span.startSector, span.sectors, k, count);
  const env: GenEnv = {
    spanStart: span.startSector,
    spanSectors: span.sectors,
    k,
    count,
    regionStart: region.start,
    regionSectors: region.sectors,
  };
  return {
    st: generatorFamily(spec).init(spec, env, rng),
    env,
    pending: [],
    syncOut: 0,
    asyncOut: 0,
    blocked: false,
    sleeping: 0,
    armed: false,
    endNs: spec.durationMs === null ? -1 : (spec.startMs + spec.durationMs) * MS,
    cachedOps: 0,
    cachedSectors: 0,
    throttled: false,
    writer: {
      bdp: null,
      dirties: createPropLocal(),
      writebackBios: new Set(),
      task: createDirtyTask(),
    },
    journal: -1,
    reiserJournal: -1,
  };
}

interface Inst {
  rng: Rng;
  pid: number;
  gen: GenInstance | null;
  inFlight: number;
  issued: number;
}

function arm(sim: WorkloadSimulation, g: GenInstance, instIndex: number, atNs: number): void {
  g.armed = true;
  pushEvent(sim.state.heap, atNs, EventPriority.Issue, EventKind.Issue, instIndex);
}

/** The first Issue event of a generator thread. */
export function generatorStart(
  sim: WorkloadSimulation,
  inst: Inst,
  instIndex: number,
  p: ProcessSpec,
): void {
  const spec = p.generator!;
  const g = inst.gen!;
  const mean = generatorFamily(spec).openMeanMs(spec, g.env.count);
  const first = spec.startMs * MS + (mean === null ? 0 : nextExponential(inst.rng, mean * MS));
  arm(sim, g, instIndex, first);
}

function peek(spec: GeneratorSpec, g: GenInstance, rng: Rng): Step {
  if (g.pending.length === 0) generatorFamily(spec).next(spec, g.st, g.env, rng, g.pending);
  return g.pending[0]!;
}

const IOPRIO_CLASS = { rt: 1, be: 2, idle: 3 } as const;

function issueStep(
  sim: WorkloadSimulation,
  inst: Inst,
  instIndex: number,
  p: ProcessSpec,
  step: Step,
  now: number,
): void {
  const g = inst.gen!;
  const bio: Bio = allocBio(
    sim.state.bios,
    sim.state.nextBioId++,
    instIndex,
    inst.pid,
    step.write,
    step.sync,
    step.sector,
    step.nSectors,
    now,
  );
  if (step.range) attachRangeWrite(sim, bio.slot, step.range);
  if (p.ioprio) {
    bio.ioprioClass = IOPRIO_CLASS[p.ioprio.class];
    bio.ioprioLevel = p.ioprio.level;
  }
  if (step.sync) g.syncOut++;
  else {
    g.asyncOut++;
    sim.state.workload.dirtySectors += step.nSectors;
  }
  inst.inFlight++;
  inst.issued++;
  submitBio(sim, bio, now);
  // No request was free: it sleeps in get_request, last in its class's line (the host
  // wakes it through generatorWakes when a request is freed).
  if (bio.rq < 0 && bioSleeps(sim, bio.slot)) g.sleeping++;
}

/** An Issue event for a generator thread. */
export function generatorIssue(
  sim: WorkloadSimulation,
  inst: Inst,
  instIndex: number,
  p: ProcessSpec,
  now: number,
): void {
  const spec = p.generator!;
  const g = inst.gen!;
  g.armed = false;
  // in balance_dirty_pages (its nap is over, or its bio has a request): it goes on there
  if (g.writer.bdp) {
    runBdp(sim, inst, instIndex, p, now);
    return;
  }
  if (g.endNs >= 0 && now >= g.endNs) return; // its time is up: the thread stops issuing
  const family = generatorFamily(spec);
  const mean = family.openMeanMs(spec, g.env.count);
  if (mean !== null) {
    // open loop: the whole operation now, the next one after an exponential gap
    peek(spec, g, inst.rng);
    const steps = g.pending.splice(0);
    arm(sim, g, instIndex, now + nextExponential(inst.rng, mean * MS));
    for (const step of steps) issueStep(sim, inst, instIndex, p, step, now);
    return;
  }
  if (g.sleeping > 0) {
    // its last bio sleeps for a request: so does the thread, until the bio has one
    g.blocked = true;
    return;
  }
  const pc = sim.state.workload.pageCache;
  let step = peek(spec, g, inst.rng);
  // with a journalling thread, kjournald (journal.ts) or ReiserFS's threads write the journal
  while (step.drop || (step.journal && (g.journal >= 0 || g.reiserJournal >= 0))) {
    if (pc && step.drop) dropPages(pc, step.sector, step.nSectors, step.file);
    g.pending.shift();
    step = peek(spec, g, inst.rng);
  }
  g.pending.shift();
  // buffered steps only: an O_SYNC write, a range write or a journal write goes to the disk
  if (pc && !step.range && !step.direct && !(step.write && step.sync)) {
    if (throughPageCache(sim, pc, g, instIndex, step, now)) {
      // its balance_dirty_pages is due (buffered.ts) — after its ReiserFS journal
      // commit if the step began one (then resume starts it)
      if (g.writer.bdp) {
        g.blocked = true;
        if (!g.throttled) runBdp(sim, inst, instIndex, p, now, true);
      }
      if (!g.blocked)
        arm(sim, g, instIndex, now + cachedCostNs(step) + peek(spec, g, inst.rng).thinkMs * MS);
      return;
    }
  }
  // decide before submitting: submitBio may complete nothing synchronously, but keep the
  // order of effects obvious (the thread's state first, then the block layer)
  const wait = step.sync
    ? g.syncOut + 1 >= family.depth(spec)
    : g.asyncOut + 1 >= asyncLimit(spec) ||
      sim.state.workload.dirtySectors + step.nSectors >= DIRTY_LIMIT_SECTORS;
  g.blocked = wait;
  if (!wait) arm(sim, g, instIndex, now + peek(spec, g, inst.rng).thinkMs * MS);
  issueStep(sim, inst, instIndex, p, step, now);
}

/** The thread runs its balance_dirty_pages on; once it returns the thread goes on (at once
 * after its step when it never slept: `inStep`). */
function runBdp(
  sim: WorkloadSimulation,
  inst: Inst,
  i: number,
  p: ProcessSpec,
  now: number,
  inStep = false,
) {
  const g = inst.gen!;
  const prio = p.ioprio ? ([IOPRIO_CLASS[p.ioprio.class], p.ioprio.level] as const) : null;
  const out = balanceDirtyPages(sim, g.writer, i, prio, now);
  if (out === 'sleeping') g.sleeping++;
  else if (out !== 'done') arm(sim, g, i, out);
  else if (inStep) g.blocked = false;
  else resume(sim, inst, i, p.generator!, now);
}

/** A thread held for its ReiserFS journal commit goes on (reiserfs-threads.ts). */
export function generatorRelease(sim: WorkloadSimulation, instIndex: number, now: number): void {
  const inst = sim.state.workload.instances[instIndex]!;
  const spec = sim.model.processes[inst.spec]!.generator!;
  inst.gen!.throttled = false;
  resume(sim, inst, instIndex, spec, now);
}

/** One of a generator thread's bios completed. */
export function generatorDone(
  sim: WorkloadSimulation,
  inst: Inst,
  instIndex: number,
  p: ProcessSpec,
  bio: Bio,
  now: number,
): void {
  const spec = p.generator!;
  const g = inst.gen!;
  const pc = sim.state.workload.pageCache;
  // what it read (or wrote through, O_SYNC) is cached now
  if (pc && (!bio.write || bio.sync)) readFilled(pc, bio.sector, bio.nSectors);
  if (bio.sync) {
    g.syncOut--;
  } else {
    g.asyncOut--;
    const w = sim.state.workload;
    const was = w.dirtySectors;
    w.dirtySectors -= bio.nSectors;
    // below the dirty threshold again: the other writers it held may go on too
    if (was >= DIRTY_LIMIT_SECTORS && w.dirtySectors < DIRTY_LIMIT_SECTORS)
      w.instances.forEach((other, i) => {
        const q = sim.model.processes[other.spec]!;
        if (other.gen && i !== instIndex) resume(sim, other, i, q.generator!, now);
      });
  }
  resume(sim, inst, instIndex, spec, now);
}

/** A blocked thread goes on once nothing holds it: its sync bios under its depth, its
 * async ones under its family's cap, the buffered writes under the dirty threshold, none of
 * its bios sleeping for a request. */
function resume(
  sim: WorkloadSimulation,
  inst: Inst,
  instIndex: number,
  spec: GeneratorSpec,
  now: number,
) {
  const g = inst.gen!;
  if (!g.blocked || g.armed || g.sleeping > 0) return;
  // held until released, while its ReiserFS journal commit runs (reiserfs-threads.ts)
  if (g.throttled) return;
  // in balance_dirty_pages: it goes on there (2.6: submitting; a call held off)
  if (g.writer.bdp) {
    arm(sim, g, instIndex, now);
    return;
  }
  if (g.syncOut >= generatorFamily(spec).depth(spec) || g.asyncOut >= asyncLimit(spec)) return;
  if (sim.state.workload.dirtySectors >= DIRTY_LIMIT_SECTORS) return;
  g.blocked = false;
  if (g.endNs >= 0 && now >= g.endNs) return;
  arm(sim, g, instIndex, now + peek(spec, g, inst.rng).thinkMs * MS);
}

/** One of the thread's bios got the request it slept for: the thread wakes. */
export function generatorWakes(
  sim: WorkloadSimulation,
  inst: Inst,
  instIndex: number,
  p: ProcessSpec,
  now: number,
): void {
  const g = inst.gen!;
  if (g.sleeping === 0) return; // an open-loop thread's, or one woken at once
  g.sleeping--;
  resume(sim, inst, instIndex, p.generator!, now);
}
