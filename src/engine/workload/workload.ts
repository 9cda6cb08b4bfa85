// Processes that issue I/O: closed-loop issuers (keep N in flight, think between),
// open-loop issuers (Poisson or fixed-rate arrivals), and fixed request lists.
// Each process instance draws from its own named random stream, so adding a process
// never changes what another one does.
import { allocBio } from '../request';
import type { Bio } from '../iosched/types';
import { submitBio } from '../iosched/host';
import { holdTaskPlug, releaseTaskPlug } from '../iosched/plug-task';
import { pushEvent } from '../sim/heap';
import { EventKind, EventPriority } from '../sim/events';
import { createRng, nextExponential, nextFloat, nextInt, type Rng } from '../sim/rng';
import type { WorkloadModel, WorkloadSimulation } from './sim-view';
import type { ProcessSpec, RangeSpec } from './process-spec';
import { createListWaits, listBio, listBioDone, scheduleAfterIssue } from './fixed-list';
import type { ProcInstance } from './instance';
import type { RangeWrite } from '../disk/range';
import { attachRangeWrite } from '../disk/range-pick';
import {
  createGenInstance,
  generatorDone,
  generatorIssue,
  generatorStart,
  generatorWakes,
} from './generators/runtime';
import { createPageCache, type PageCacheState } from './page-cache';
import {
  createFlusher,
  flusherDone,
  flusherWakes,
  startFlusher,
  type FlusherState,
} from './flusher';
import {
  createJournal,
  journalDone,
  journalSeesWriteback,
  journalWakes,
  type JournalState,
} from './journal';
import type { ReiserfsState } from './reiserfs-journal';
import {
  armSyncSupers,
  createReiserfsState,
  reiserContextOf,
  reiserfsDone,
  reiserfsSeesWriteback,
  reiserfsWakes,
} from './reiserfs-threads';
import { generatorFamily } from './generators/index';
import { writerWritebackDone } from './balance-dirty';

const MS = 1e6;

export type { ProcInstance } from './instance';

export interface WorkloadState {
  instances: ProcInstance[];
  /** the page cache and its flusher (model.pageCache), or null */
  pageCache: PageCacheState | null;
  flusher: FlusherState | null;
  /** the kjournald threads' journals (journal.ts), one per journalling generator thread */
  journals: JournalState[];
  /** ReiserFS journals and their threads (reiserfs-journal.ts), or null */
  reiserfs: ReiserfsState | null;
  /** sectors of generator threads' buffered (async) writes not yet completed: the dirty
   * pages balance_dirty_pages counts (generators/runtime.ts) */
  dirtySectors: number;
}

/** The first pid handed out; instances count up from it. */
export const FIRST_PID = 1000;

export function createWorkloadState(model: WorkloadModel): WorkloadState {
  const instances: ProcInstance[] = [];
  const total = model.disk.geometry.totalLbns;
  model.processes.forEach((p, spec) => {
    const span = resolveSpan(p, total);
    for (let k = 0; k < p.count; k++) {
      const name = p.count > 1 ? `${p.name}-${k}` : p.name;
      // Several sequential instances start spread over the span, 4 KiB-aligned.
      const offset = Math.floor((span.sectors * k) / p.count / 8) * 8;
      const rng = createRng(model.seed, `process:${name}`);
      instances.push({
        spec,
        spanStart: span.startSector,
        spanSectors: span.sectors,
        pid: FIRST_PID + instances.length,
        name,
        rng,
        cursor: span.startSector + offset,
        listIndex: 0,
        listWaits: createListWaits(p),
        inFlight: 0,
        issued: 0,
        gen: p.generator ? createGenInstance(p.generator, span, k, p.count, rng) : null,
      });
    }
  });
  const pageCache = model.pageCache
    ? createPageCache(model.pageCache, model.iosched.queue.kernel !== '6.18')
    : null;
  const flusher = pageCache ? createFlusher(instances.length - 1) : null;
  return {
    instances,
    pageCache,
    flusher,
    journals: createJournals(model, instances),
    reiserfs: createReiserfsState(model, instances),
    dirtySectors: 0,
  };
}

/** Instance k of a kjournald process journals for instance k of its generator process. */
function createJournals(model: WorkloadModel, instances: ProcInstance[]): JournalState[] {
  const journals: JournalState[] = [];
  instances.forEach((inst, i) => {
    const served = model.processes[inst.spec]!.kjournald;
    if (served === undefined) return;
    const k = instances.filter((o, n) => n < i && o.spec === inst.spec).length;
    const owner = instances.findIndex((o) => o.spec === served) + k;
    const g = instances[owner]!.gen!;
    const spec = model.processes[served]!.generator!;
    g.journal = journals.length;
    journals.push(createJournal(i, owner, generatorFamily(spec).journalArea!(spec, g.st)));
  });
  return journals;
}

/** The journal a kjournald instance runs, or null for another process. */
function journalOf(sim: WorkloadSimulation, instIndex: number): JournalState | null {
  return sim.state.workload.journals.find((j) => j.inst === instIndex) ?? null;
}

function resolveSpan(p: ProcessSpec, totalLbns: number): { startSector: number; sectors: number } {
  return p.span ?? { startSector: 0, sectors: totalLbns };
}

/** Put every process's first arrivals on the clock. */
export function startWorkload(sim: WorkloadSimulation): void {
  const heap = sim.state.heap;
  sim.state.workload.instances.forEach((inst, i) => {
    const p = sim.model.processes[inst.spec]!;
    if (p.flusher) {
      startFlusher(sim);
    } else if (p.kjournald !== undefined) {
      // kjournald sleeps until a transaction starts (journal.ts)
    } else if (p.reiserfs) {
      // sync_supers' timer runs from the start; reiserfs/0 waits for queued work
      if (p.reiserfs === 'sync') armSyncSupers(sim, 0);
    } else if (p.generator) {
      generatorStart(sim, inst, i, p);
    } else if (p.requests) {
      const first = p.requests[0];
      if (first)
        pushEvent(
          heap,
          (first.thinkTimeMs ?? first.atMs) * MS,
          EventPriority.Issue,
          EventKind.Issue,
          i,
        );
    } else if (p.mode === 'closed') {
      for (let n = 0; n < p.outstanding; n++)
        pushEvent(heap, 0, EventPriority.Issue, EventKind.Issue, i);
    } else {
      pushEvent(heap, interarrivalNs(inst, p), EventPriority.Issue, EventKind.Issue, i);
    }
  });
}

function interarrivalNs(inst: ProcInstance, p: ProcessSpec): number {
  const meanNs = (1000 / p.rateIops) * MS;
  return p.arrival === 'poisson' ? nextExponential(inst.rng, meanNs) : meanNs;
}

const IOPRIO_CLASS = { rt: 1, be: 2, idle: 3 } as const;

/** A process instance issues its next request: the Issue event's handler, registered as it
 * is (`_rq` unused), so the loop calls it with no wrapper call in between. */
export function onIssue(
  sim: WorkloadSimulation,
  instIndex: number,
  _rq: number,
  now: number,
): void {
  const inst = sim.state.workload.instances[instIndex]!;
  const p = sim.model.processes[inst.spec]!;
  if (p.generator) {
    generatorIssue(sim, inst, instIndex, p, now);
    return;
  }
  // explicit tests (`!== null`): a bare truthiness test of a null runs V8's whole ToBoolean
  const bio =
    p.requests !== null
      ? listBio(sim, inst, instIndex, p, now)
      : patternBio(sim, inst, instIndex, p, now);
  // CFQ's default for a process with no ioprio set: best effort, level 4 (LINUX-SCHEDULERS.md §5.2).
  if (p.ioprio !== null) {
    bio.ioprioClass = IOPRIO_CLASS[p.ioprio.class];
    bio.ioprioLevel = p.ioprio.level;
  }
  inst.inFlight++;
  inst.issued++;
  // kernel 6.18: an entry that keeps the plug open holds the process's submission for the next
  let plugged = false;
  if (p.requests !== null) {
    const next = p.requests[inst.listIndex];
    if (next) scheduleAfterIssue(sim, inst, instIndex, next, now);
    plugged = sim.model.iosched.queue.taskPlug && p.requests[inst.listIndex - 1]!.plugged === true;
  } else if (p.mode === 'open') {
    pushEvent(
      sim.state.heap,
      now + interarrivalNs(inst, p),
      EventPriority.Issue,
      EventKind.Issue,
      instIndex,
    );
  }
  if (plugged) holdTaskPlug(sim, inst.pid);
  submitBio(sim, bio, now);
  if (!plugged && p.requests !== null) releaseTaskPlug(sim, inst.pid, now);
}

function patternBio(
  sim: WorkloadSimulation,
  inst: ProcInstance,
  i: number,
  p: ProcessSpec,
  now: number,
): Bio {
  const s = p.sizeKiB;
  // rare: writes, mixes, drawn sizes and sequential runs, kept out so V8 inlines this
  // random-read path into onIssue
  if (p.op !== 'read' || p.pattern === 'sequential' || typeof s !== 'number')
    return otherPatternBio(sim, inst, i, p, now);
  const n = Math.round(s * 2);
  const sector = randomSector(inst, n);
  return allocBio(
    sim.state.bios,
    sim.state.nextBioId++,
    i,
    inst.pid,
    false,
    p.sync ?? true,
    sector,
    n,
    now,
  );
}

/** patternBio for a write, a mix, a drawn size or a sequential run. */
function otherPatternBio(
  sim: WorkloadSimulation,
  inst: ProcInstance,
  i: number,
  p: ProcessSpec,
  now: number,
): Bio {
  const rng = inst.rng;
  const write = p.op === 'write' || (p.op === 'mix' && nextFloat(rng) >= p.readFraction);
  const sync = p.sync ?? !write;
  const n = sizeSectors(rng, p);
  if (write && p.range) return rangeWriteBio(sim, inst, i, p.range, sync, n, now);
  let sector: number;
  if (p.pattern === 'sequential') {
    if (inst.cursor + n > inst.spanStart + inst.spanSectors || inst.cursor < inst.spanStart)
      inst.cursor = inst.spanStart;
    sector = inst.cursor;
    inst.cursor += n;
  } else sector = randomSector(inst, n);
  return allocBio(sim.state.bios, sim.state.nextBioId++, i, inst.pid, write, sync, sector, n, now);
}

/** A random start in the process's span for n sectors. */
function randomSector(inst: ProcInstance, n: number): number {
  // File systems place blocks on 4 KiB boundaries: align when the size allows.
  const align = n % 8 === 0 ? 8 : 1;
  const slots = Math.floor((inst.spanSectors - n) / align) + 1;
  return inst.spanStart + nextInt(inst.rng, slots) * align;
}

/** A range write: `targets` ranges drawn in the span; the bio carries the first range's
 * start as a placeholder until the drive places it (its completion carries the address). */
function rangeWriteBio(
  sim: WorkloadSimulation,
  inst: ProcInstance,
  i: number,
  rg: RangeSpec,
  sync: boolean,
  n: number,
  now: number,
): Bio {
  const align = rg.alignSectors;
  const base = Math.ceil(inst.spanStart / align) * align;
  const room = inst.spanStart + inst.spanSectors - rg.sizeSectors - base;
  const slots = Math.max(1, Math.floor(room / align) + 1);
  const ranges: RangeWrite['ranges'] = [];
  for (let t = 0; t < rg.targets; t++) {
    const begin = base + nextInt(inst.rng, slots) * align;
    ranges.push({ begin, end: begin + rg.sizeSectors });
  }
  // every Nth request of the process is a barrier (inst.issued counts those before it)
  const barrier = rg.barrierEvery > 0 && inst.issued % rg.barrierEvery === 0;
  const bio = allocBio(
    sim.state.bios,
    sim.state.nextBioId++,
    i,
    inst.pid,
    true,
    sync,
    ranges[0]!.begin,
    n,
    now,
  );
  attachRangeWrite(sim, bio.slot, { ranges, align, barrier });
  return bio;
}

function sizeSectors(rng: Rng, p: ProcessSpec): number {
  const s = p.sizeKiB;
  if (typeof s === 'number') return Math.round(s * 2);
  const lo = Math.round(s.min * 2);
  const hi = Math.round(s.max * 2);
  return lo + nextInt(rng, hi - lo + 1);
}

/** The process slept in get_request and now has its request: a generator thread that
 * slept with it goes on (generators/runtime.ts). */
export function noteBioWakes(sim: WorkloadSimulation, bio: Bio, now: number): void {
  const inst = sim.state.workload.instances[bio.proc]!;
  const rc = reiserContextOf(sim, bio);
  if (rc) reiserfsWakes(sim, rc, now);
  else if (inst.gen) generatorWakes(sim, inst, bio.proc, sim.model.processes[inst.spec]!, now);
  else if (sim.model.processes[inst.spec]!.flusher) flusherWakes(sim, now);
  else {
    const j = journalOf(sim, bio.proc);
    if (j) journalWakes(sim, j, now);
  }
}

/** A bio of this process completed: a closed-loop process issues its next one. */
export function noteBioDone(sim: WorkloadSimulation, bio: Bio, now: number): void {
  const inst = sim.state.workload.instances[bio.proc]!;
  inst.inFlight--;
  const p = sim.model.processes[inst.spec]!;
  // rare: the other kinds of process, kept out so V8 inlines this common path
  if (p.flusher || p.kjournald !== undefined || p.reiserfs || p.generator || p.requests !== null)
    otherBioDone(sim, inst, p, bio, now);
  else if (p.mode === 'closed') issueAfterThink(sim, bio.proc, p.thinkTimeMs, now);
}

/** A closed-loop process's next Issue, thinkMs after `now`. With no think time it is `now`
 * itself: the caller's number goes on as it came (a sum would be a new HeapNumber per
 * request, as pushEvent is not inlined into its callers here). */
function issueAfterThink(
  sim: WorkloadSimulation,
  proc: number,
  thinkMs: number,
  now: number,
): void {
  const heap = sim.state.heap;
  if (thinkMs === 0) pushEvent(heap, now, EventPriority.Issue, EventKind.Issue, proc);
  else pushEvent(heap, now + thinkMs * MS, EventPriority.Issue, EventKind.Issue, proc);
}

/** noteBioDone for a flusher, a journal thread, a generator or a fixed list. */
function otherBioDone(
  sim: WorkloadSimulation,
  inst: ProcInstance,
  p: ProcessSpec,
  bio: Bio,
  now: number,
): void {
  if (p.flusher) {
    flusherDone(sim, bio);
    journalSeesWriteback(sim, bio, now);
    if (sim.state.workload.reiserfs) reiserfsSeesWriteback(sim, bio, now);
  } else if (p.kjournald !== undefined) {
    journalDone(sim, journalOf(sim, bio.proc)!, bio, now);
  } else if (p.reiserfs || (p.generator && reiserContextOf(sim, bio))) {
    // sync_supers', reiserfs/0's or the writer's own journal I/O
    reiserfsDone(sim, reiserContextOf(sim, bio)!, bio, now);
  } else if (inst.gen && writerWritebackDone(sim, inst.gen.writer, bio)) {
    // a thread's own writeback in balance_dirty_pages (2.6): the journals see it as the
    // flusher's
    journalSeesWriteback(sim, bio, now);
    if (sim.state.workload.reiserfs) reiserfsSeesWriteback(sim, bio, now);
  } else if (p.generator) {
    generatorDone(sim, inst, bio.proc, p, bio, now);
  } else if (p.requests) {
    listBioDone(sim, inst, bio, now);
  }
}
