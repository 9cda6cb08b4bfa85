// The anticipatory I/O scheduler (AS) of Linux 2.6.0–2.6.32, rule by rule after
// block/as-iosched.c (LINUX-SCHEDULERS.md §4; docs/iosched/anticipatory.md).
// Deadline-like sync/async batches and FIFO expiry on AS's back-seek elevator, plus
// anticipation: after a process's sync request completes, AS may leave the disk idle
// for up to antic_expire, betting that the same process will soon ask for a nearby block.
// Helpers: anticipatory-state (types, rules), -stats (per-process statistics), -choose
// (as_choose_req), -antic (the anticipation state machine), -dispatch (as_dispatch_request),
// -text (decision texts).
import {
  findBySector,
  fifoRemove,
  jiffiesToMs,
  predecessor,
  sortRemove,
  successor,
} from './common';
import { defaultAt, type Bio, type ElevatorType, type TunableSpec } from './types';
import {
  ASYNC,
  AnticStatus,
  MS,
  SYNC,
  dirName,
  jiffiesNow,
  jiffyNs,
  msToJiffies,
  type AsState,
} from './anticipatory-state';
import { chooseSlot } from './anticipatory-choose';
import {
  anticStop,
  anticTimeout,
  anticipating,
  canBreak,
  noCloseInfo,
  waitNext,
} from './anticipatory-antic';
import {
  addToSortList,
  classOf,
  dispatch,
  record,
  removeQueued,
  updateWriteBatch,
} from './anticipatory-dispatch';
import { estTime, ioContext, putIoContext, updateIoHistory } from './anticipatory-stats';
import { breakText, waitText } from './anticipatory-text';

export type { AsRule, AsState } from './anticipatory-state';
export { updateWriteBatch };
export { AnticStatus } from './anticipatory-state';

/** A jiffy-based default (HZ / n jiffies, at least `min`), in ms at a given HZ. */
function hzDefault(div: number, min = 0) {
  return (hz: number) => jiffiesToMs(Math.max(min, Math.floor(hz / div)), hz);
}

/** The sysfs files of queue/iosched/ (est_time is read-only: see inspect()). */
export const AS_TUNABLES: readonly TunableSpec[] = [
  {
    name: 'read_expire',
    default: 125,
    defaultForHz: hzDefault(8),
    unit: 'ms',
    min: 0,
    max: 2 ** 31 - 1,
    doc: 'How long a sync request (a read, or a sync write) may wait before its FIFO expiry makes it the next one served.',
  },
  {
    name: 'write_expire',
    default: 250,
    defaultForHz: hzDefault(4),
    unit: 'ms',
    min: 0,
    max: 2 ** 31 - 1,
    doc: 'The same for async requests (buffered writes).',
  },
  {
    name: 'read_batch_expire',
    default: 500,
    defaultForHz: hzDefault(2),
    unit: 'ms',
    min: 0,
    max: 2 ** 31 - 1,
    doc: 'How long a sync batch runs before AS turns to waiting async requests.',
  },
  {
    name: 'write_batch_expire',
    default: 125,
    defaultForHz: hzDefault(8),
    unit: 'ms',
    min: 0,
    max: 2 ** 31 - 1,
    doc: 'The target length of an async batch; AS tunes the batch size in requests to meet it.',
  },
  {
    name: 'antic_expire',
    default: 6,
    defaultForHz: hzDefault(150, 1),
    unit: 'ms',
    min: 0,
    max: 2 ** 31 - 1,
    doc: 'How long AS may keep the disk idle after a sync request completes, waiting for the same process to ask again; 0 turns anticipation off (deadline-like).',
  },
];

/** Long before the run: the first FIFO check may happen at once, as on a kernel that has
 * been up a while (its jiffies are far from the zeroed last_check_fifo). */
const LONG_AGO = -1e9;

export const anticipatory: ElevatorType<AsState> = {
  name: 'anticipatory',
  title: 'anticipatory (AS) — Linux 2.6.0–2.6.32: sync/async batches, waits for the reader',
  tunables: AS_TUNABLES,
  dispatchInsert: 'sort',

  init(tunables, ctx) {
    const hz = ctx.hz;
    // A value (ms) as given, else the kernel default at this HZ; kept in jiffies.
    const j = (name: string) =>
      msToJiffies(
        tunables[name] ??
          defaultAt(
            AS_TUNABLES.find((t) => t.name === name)!,
            hz,
          ),
        hz,
      );
    return {
      hz,
      fifoExpireJ: [j('write_expire'), j('read_expire')],
      batchExpireJ: [j('write_batch_expire'), j('read_batch_expire')],
      anticExpireJ: j('antic_expire'),
      sortList: [[], []],
      fifoList: [[], []],
      nextRq: [-1, -1],
      lastSector: [0, 0],
      batchDir: ASYNC,
      currentBatchExpiresJ: jiffiesNow(ctx) + j('read_batch_expire'),
      lastCheckFifoJ: [LONG_AGO, LONG_AGO],
      changedBatch: false,
      newBatch: false,
      writeBatchCount: Math.max(2, Math.floor(j('write_batch_expire') / 10)),
      currentWriteCount: 0,
      writeBatchIdled: false,
      nrDispatched: 0,
      anticStatus: AnticStatus.OFF,
      anticStartJ: 0,
      anticPid: -1,
      iocFinished: false,
      aliasPending: [],
      exitProb: 0,
      exitNoCoop: 0,
      newTtimeTotal: 0,
      newTtimeMeanJ: 0,
      newSeekTotal: 0,
      newSeekMean: 0,
      aic: {},
    };
  },

  // ── merging ──
  frontMergeCandidate(s, bio: Bio, endSector, ctx) {
    // The kernel's quirk: it indexes the sync/async trees by the bio's read/write
    // direction, so a read looks among async requests (never a match: reads are sync)
    // and a write among sync ones (only sync writes can match).
    const slot = findBySector(s.sortList[bio.write ? SYNC : ASYNC], endSector, ctx);
    if (slot < 0) return -1;
    const rq = ctx.rq(slot);
    return rq.mergeable && rq.write === bio.write ? slot : -1;
  },
  merged(s, rq, front, ctx) {
    if (!front) return;
    // The start sector changed: re-sort (next_rq is not adjusted, as in the kernel).
    sortRemove(s.sortList[classOf(rq)], rq.slot);
    addToSortList(s, rq, ctx);
  },
  requestsMerged(s, survivor, absorbed, ctx) {
    const dir = classOf(survivor);
    const fifo = s.fifoList[dir];
    // The earlier FIFO deadline survives, and with it the absorbed request's FIFO place.
    if (classOf(absorbed) === dir && fifo.includes(survivor.slot) && fifo.includes(absorbed.slot))
      if (absorbed.fifoNs < survivor.fifoNs) {
        fifoRemove(fifo, survivor.slot);
        fifo.splice(fifo.indexOf(absorbed.slot) + 1, 0, survivor.slot);
        survivor.fifoNs = absorbed.fifoNs;
      }
    removeQueued(s, absorbed, ctx);
    putIoContext(s, absorbed, jiffiesNow(ctx));
  },
  formerRequest: (s, rq) => predecessor(s.sortList[classOf(rq)], rq.slot),
  latterRequest: (s, rq) => successor(s.sortList[classOf(rq)], rq.slot),

  // ── life cycle ──
  mayQueue: (s, bio) => (anticipating(s) && s.anticPid === bio.pid ? 'must' : 'may'),

  add(s, rq, ctx) {
    const now = jiffiesNow(ctx);
    const dir = classOf(rq);
    const aic = ioContext(s, rq.pid);
    updateIoHistory(s, aic, rq, now);
    aic.nrQueued++;
    let stopped = addToSortList(s, rq, ctx);
    rq.fifoNs = jiffyNs(now + s.fifoExpireJ[dir], s.hz);
    s.fifoList[dir].push(rq.slot);
    // as_update_rq: keep next_rq, and see whether this is what AS has been waiting for.
    s.nextRq[dir] = chooseSlot(s.lastSector[dir], rq.slot, s.nextRq[dir], ctx);
    if (anticipating(s)) {
      const info = ctx.recording ? noCloseInfo() : undefined;
      const why = canBreak(s, rq, now, info);
      if (why) {
        const text = info ? breakText(s, why, rq, info) : '';
        stopped = anticStop(s, ctx);
        record(ctx, s, why, rq.slot, text);
      }
    }
    // as_antic_stop has kblockd run the queue: the framework does not after an add.
    if (stopped) ctx.kick();
  },

  dispatch,

  activate(s, rq) {
    const aic = s.aic[rq.pid];
    if (aic) aic.nrDispatched--;
  },
  deactivate(s, rq) {
    const aic = s.aic[rq.pid];
    if (aic) aic.nrDispatched++;
  },

  completed(s, rq, ctx) {
    const now = jiffiesNow(ctx);
    if (s.changedBatch && s.nrDispatched === 1) {
      // The old batch has drained: the new one's clock starts (a sync one's at its first
      // completion); the framework runs the queue after this.
      s.currentBatchExpiresJ = now + s.batchExpireJ[s.batchDir];
      s.changedBatch = false;
      if (s.batchDir === SYNC) s.newBatch = true;
    }
    s.nrDispatched--;
    if (s.newBatch && s.batchDir === classOf(rq)) {
      updateWriteBatch(s, now);
      s.currentBatchExpiresJ = now + s.batchExpireJ[SYNC];
      s.newBatch = false;
    }
    if (s.anticPid >= 0 && s.anticPid === rq.pid) {
      s.anticStartJ = now;
      s.iocFinished = true;
      if (s.anticStatus === AnticStatus.WAIT_REQ) {
        waitNext(s, ctx);
        if (ctx.recording)
          record(ctx, s, 'anticipation-timing', -1, waitText(s, 'anticipation-timing', ctx));
      }
    }
    putIoContext(s, rq, now);
  },

  timer(s, ctx) {
    const text = ctx.recording ? breakText(s, 'anticipation-timeout', null, null) : '';
    if (anticTimeout(s)) record(ctx, s, 'anticipation-timeout', -1, text);
  },

  queued: (s) => s.fifoList[SYNC].length + s.fifoList[ASYNC].length + s.aliasPending.length,

  inspect(s, ctx) {
    const ids = (slots: number[]) => slots.map((slot) => ctx.rq(slot).id);
    const id = (slot: number) => (slot >= 0 ? ctx.rq(slot).id : null);
    const waitingNext = s.anticStatus === AnticStatus.WAIT_NEXT;
    const ms = (j: number) => jiffyNs(j, s.hz) / MS;
    return {
      anticStatus: s.anticStatus,
      anticStartMs: s.anticPid >= 0 && s.iocFinished ? ms(s.anticStartJ) : null,
      anticExpiresMs: waitingNext ? ms(s.anticStartJ + s.anticExpireJ) : null,
      anticPid: s.anticPid >= 0 ? s.anticPid : null,
      jiffies: jiffiesNow(ctx),
      batchDir: dirName(s.batchDir),
      // (the batch runs until the jiffy counter passes current_batch_expires)
      batchRemainingMs: Math.max(0, jiffyNs(s.currentBatchExpiresJ + 1, s.hz) - ctx.now) / MS,
      changedBatch: s.changedBatch,
      newBatch: s.newBatch,
      writeBatchCount: s.writeBatchCount,
      currentWriteCount: s.currentWriteCount,
      nrDispatched: s.nrDispatched,
      readFifo: ids(s.fifoList[SYNC]),
      writeFifo: ids(s.fifoList[ASYNC]),
      sortSync: ids(s.sortList[SYNC]),
      sortAsync: ids(s.sortList[ASYNC]),
      nextRq: { sync: id(s.nextRq[SYNC]), async: id(s.nextRq[ASYNC]) },
      lastSector: { sync: s.lastSector[SYNC], async: s.lastSector[ASYNC] },
      perProcess: Object.values(s.aic).map((a) => ({
        pid: a.pid,
        thinkMeanMs: ms(a.ttimeMeanJ),
        seekMeanSectors: a.seekMean,
        samples: a.ttimeSamples,
        queued: a.nrQueued,
      })),
      estTime: estTime(s),
    };
  },
};
