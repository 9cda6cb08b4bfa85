// Kernel 6.18's request allocation: blk-mq's one tag pool (src/engine/iosched/tags-mq.ts)
// against the kernel's rules — blk_mq_default_nr_requests (block/blk-mq.h), blk_mq_get_tag
// and bt_wait_ptr (block/blk-mq-tag.c), sbq_calc_wake_batch, sbitmap_queue_wake_up and
// __sbitmap_queue_wake_up (lib/sbitmap.c, 6.17 on), and mq-deadline's dd_limit_depth /
// dd_depth_updated (block/mq-deadline.c, 6.18).
import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '../../src/engine/events';
import {
  FULL_DEPTH,
  SHALLOW,
  createMqTags,
  mqPut,
  mqSleep,
  mqTagDepth,
  mqTryGet,
  mqWaitPtr,
  mqWakeBatch,
  type MqTags,
} from '../../src/engine/iosched/tags-mq';
import { chooseNrRequests, type SchedulerMapping } from '../../src/engine/trace/replay-mapping';
import { actions, loadedIosched, runProcs } from '../helpers/mq-run';
import { rd, wr } from '../helpers/traced-run';

function pool(depth: number, wakeBatch: number): MqTags {
  const t = createMqTags();
  t.depth = depth;
  t.wakeBatch = wakeBatch;
  return t;
}

/** a bio that found no tag goes to sleep as blk_mq_get_tag puts it */
const sleep = (t: MqTags, slot: number) => mqSleep(t, mqWaitPtr(t), slot);

const run = runProcs;

const at = (trace: TraceEvent[], action: string, tNs: number) =>
  trace.filter((e) => e.action === action && e.tNs === tNs);

/** n requests far enough apart that none merges */
const spread = (n: number, op: typeof rd, base: number) =>
  Array.from({ length: n }, (_, k) => op(base + k * 10_000, 0));

describe('kernel 6.18: blk-mq’s tag pool (the rules, on the pool alone)', () => {
  it('blk_mq_default_nr_requests: 2 × min(tag set depth, BLKDEV_DEFAULT_RQ) scheduler tags; none: the tag set’s depth', () => {
    expect(mqTagDepth(1, true, null)).toBe(2);
    expect(mqTagDepth(32, true, null)).toBe(64); // a SATA NCQ queue
    expect(mqTagDepth(1023, true, null)).toBe(256); // an NVMe queue
    expect(mqTagDepth(32, false, null)).toBe(32);
    // nr_requests given (sysfs): the pool is that big, with or without a scheduler
    expect(mqTagDepth(32, true, 100)).toBe(100);
    expect(mqTagDepth(32, false, 256)).toBe(256);
  });

  it('sbq_calc_wake_batch (6.17 on): min(depth, min_shallow_depth) / SBQ_WAIT_QUEUES, within 1 … 8', () => {
    expect(mqWakeBatch(256, 1)).toBe(1); // mq-deadline: blk_mq_set_min_shallow_depth(q, 1)
    expect(mqWakeBatch(1, Infinity)).toBe(1);
    expect(mqWakeBatch(16, Infinity)).toBe(2);
    expect(mqWakeBatch(32, Infinity)).toBe(4);
    expect(mqWakeBatch(128, Infinity)).toBe(8); // SBQ_WAKE_BATCH
  });

  it('sbitmap_queue_wake_up: a tag freed while nobody sleeps is not counted; wake_batch frees wake wake_batch sleepers', () => {
    const t = pool(4, 2);
    for (let k = 0; k < 4; k++) expect(mqTryGet(t, Infinity)).toBe(FULL_DEPTH);
    expect(mqTryGet(t, Infinity)).toBe(-1);
    mqPut(t, FULL_DEPTH); // nobody asleep (ws_active = 0): not counted
    expect(t.freedUnpaid).toBe(0);
    expect(mqTryGet(t, Infinity)).toBe(FULL_DEPTH);
    for (const slot of [10, 11, 12]) sleep(t, slot);
    mqPut(t, FULL_DEPTH);
    expect(t.woken).toEqual([]); // one free of a batch of two: nobody wakes yet
    mqPut(t, FULL_DEPTH);
    expect(t.woken).toEqual([10, 11]);
    expect(t.sleeping).toBe(1);
  });

  it('__sbitmap_queue_wake_up: sleepers take the 8 wait queues in turn; a wake empties up to wake_batch from one queue, oldest first, then the next', () => {
    const t = pool(64, 8);
    for (let slot = 0; slot < 16; slot++) sleep(t, slot); // queue k holds k and k + 8
    for (let k = 0; k < 7; k++) mqPut(t, FULL_DEPTH);
    expect(t.woken).toEqual([]);
    mqPut(t, FULL_DEPTH);
    expect(t.woken).toEqual([0, 8, 1, 9, 2, 10, 3, 11]); // not the order they went to sleep
    expect(t.wakeIndex).toBe(4);
  });

  it('__blk_mq_get_tag: a free tag goes to whoever asks first — a new bio does not queue behind the sleepers', () => {
    const t = pool(2, 2);
    mqTryGet(t, Infinity);
    mqTryGet(t, Infinity);
    sleep(t, 7);
    mqPut(t, FULL_DEPTH); // half a wake batch: the sleeper still sleeps
    expect(mqTryGet(t, Infinity)).toBe(FULL_DEPTH); // a newcomer takes the tag
    expect(t.sleeping).toBe(1);
  });

  it('a shallow depth (limit_depth) caps the tags its requests hold; full-depth requests may take the rest', () => {
    const t = pool(8, 1);
    expect(mqTryGet(t, 2)).toBe(SHALLOW);
    expect(mqTryGet(t, 2)).toBe(SHALLOW);
    expect(mqTryGet(t, 2)).toBe(-1);
    for (let k = 0; k < 6; k++) expect(mqTryGet(t, Infinity)).toBe(FULL_DEPTH);
    expect(mqTryGet(t, Infinity)).toBe(-1);
    mqPut(t, SHALLOW);
    expect(mqTryGet(t, 2)).toBe(SHALLOW);
    // a shallow depth at or above the pool's limits nothing
    expect(mqTryGet(pool(8, 1), 8)).toBe(FULL_DEPTH);
  });
});

describe('kernel 6.18: blk-mq’s tag pool in a run', () => {
  it('one tag space: reads and writes, sync and async, share nr_requests — no per-class pools, no batching, no 3/2 overshoot', () => {
    const procs = [spread(2, rd, 100_000), spread(3, wr, 500_000)];
    const mq = run('mq-deadline', procs, { queue: { nr_requests: 4 } });
    expect(at(mq.trace, 'G', 0)).toHaveLength(4);
    expect(mq.trace.filter((e) => e.action === 'S')).toHaveLength(0); // 6.18 has no S
    expect(mq.trace.filter((e) => e.action === 'G')).toHaveLength(5); // the fifth gets one later
    // 2.6.32's pool: reads (sync) and async writes each have nr_requests
    const old = run('mq-deadline', procs, { kernel: '2.6.32', queue: { nr_requests: 4 } });
    expect(at(old.trace, 'G', 0)).toHaveLength(5);
  });

  it('nr_requests left out: 2 × min(tag set depth, 128) scheduler tags — the host’s tag set, as deep as the drive accepts (hp-c2247a: 64, so 128), whatever queue depth the disk is set to', () => {
    for (const queueDepth of [1, 4]) {
      const r = run('mq-deadline', [spread(130, wr, 100_000)], { queueDepth });
      expect(at(r.trace, 'G', 0)).toHaveLength(128);
      // the 129th bio finds no tag: it flushes its plug (UT) and sleeps
      const seq = actions(r.trace);
      const ut = seq.findIndex((a) => a.startsWith('UT'));
      expect(seq.slice(0, ut).filter((a) => a === 'G')).toHaveLength(128);
    }
    // none: the tag set's 64 driver tags
    const none = run('none', [spread(70, wr, 100_000)]);
    expect(at(none.trace, 'G', 0)).toHaveLength(64);
  });

  it('none with one driver tag (nr_requests 1): the others sleep after flushing the plug (UT1) and wake in turn', () => {
    const sectors = [585608, 48656, 1121192, 1619264];
    const r = run('none', [sectors.map((s) => rd(s, 0))], { queue: { nr_requests: 1 } });
    const seq = actions(r.trace);
    expect(seq.slice(0, 6).join(' ')).toBe('Q G P Q UT1 D');
    expect(seq).not.toContain('S');
    // one sleeper woken per free (wake batch 1), in the order they went to sleep
    expect(r.d.map((e) => e.sector)).toEqual(sectors);
    const cs = r.trace.filter((e) => e.action === 'C');
    const gs = r.trace.filter((e) => e.action === 'G');
    expect(gs.slice(1).map((e) => e.tNs)).toEqual(cs.slice(0, 3).map((e) => e.tNs));
  });

  it('a process asleep in blk_mq_get_tag submits nothing more: its later bios ask for tags, in order, once it wakes', () => {
    // one driver tag under none (nr_requests 1). p0 takes it and sleeps for its second bio;
    // its third waits behind it (not on a wait queue), so p1's bio, a microsecond later,
    // sleeps on the next wait queue and gets a request before p0's third
    const p0 = [rd(100_000, 0), rd(200_000, 0), rd(300_000, 0)];
    const p1 = [rd(400_000, 0.001)];
    const one = { queue: { nr_requests: 1 } };
    const r = run('none', [p0, p1], one);
    expect(r.d.map((e) => e.sector)).toEqual([100_000, 200_000, 400_000, 300_000]);
    expect(actions(r.trace).filter((a) => a.startsWith('U'))).toEqual([
      'UT1', // p0's second bio sleeps: its first request leaves the plug
      'UT1', // woken with a request, p0's third bio sleeps: the second leaves the plug
      'U1', // p1's request, at the end of its submission
      'U1', // p0's third
    ]);
    const again = run('none', [p0, p1], one);
    expect(again.trace).toEqual(r.trace); // same scenario and seed: the same run
  });

  it('mq-deadline dd_limit_depth: writes hold at most async_depth scheduler tags, sync reads are not held back', () => {
    const procs = [spread(4, wr, 500_000), spread(2, rd, 100_000)];
    const limited = run('mq-deadline', procs, {
      queue: { nr_requests: 8 },
      tunables: { async_depth: 2 },
    });
    const g0 = at(limited.trace, 'G', 0);
    expect(g0.filter((e) => e.write)).toHaveLength(2);
    expect(g0.filter((e) => !e.write)).toHaveLength(2);
    // dd_depth_updated: async_depth starts at nr_requests — by default nothing waits
    const free = run('mq-deadline', procs, { queue: { nr_requests: 8 } });
    expect(at(free.trace, 'G', 0)).toHaveLength(6);
  });

  it('the 2.6 kernels keep their pool: async_depth changes nothing there', () => {
    const procs = [spread(4, wr, 500_000), spread(2, rd, 100_000)];
    const o = { kernel: '2.6.32' as const, queue: { nr_requests: 8 } };
    const a = run('mq-deadline', procs, { ...o, tunables: { async_depth: 2 } });
    expect(a.trace).toEqual(run('mq-deadline', procs, o).trace);
  });

  it('a 6.18 scenario leaves nr_requests out unless it is given (the 2.6 kernels default it to 128)', () => {
    const queueOf = (iosched: Record<string, unknown>) => loadedIosched(iosched).queue;
    expect(queueOf({ name: 'mq-deadline' }).nr_requests).toBeUndefined();
    expect(queueOf({ name: 'mq-deadline', queue: { nr_requests: 64 } }).nr_requests).toBe(64);
    expect(queueOf({ name: 'deadline' }).nr_requests).toBe(128);
  });

  it('a replay sizes 6.18’s pool by the traced nr_requests (meta.json), converted between none and a scheduler', () => {
    const m = (traced: string, simulated: string): SchedulerMapping => ({
      traced,
      tracedFrom: 'meta.json',
      simulated,
      note: '',
    });
    const nr = (meta: { nrRequests?: number } | undefined, map: SchedulerMapping, qd = 32) =>
      chooseNrRequests(meta, map, '6.18', qd, undefined)?.value;
    const meta = { nrRequests: 256 };
    expect(nr(meta, m('mq-deadline', 'mq-deadline'))).toBe(256);
    expect(nr(meta, m('none', 'none'))).toBe(256);
    // none's nr_requests is the driver's tag count T; a scheduler gets 2 × min(T, 128)
    expect(nr({ nrRequests: 32 }, m('none', 'mq-deadline'))).toBe(64);
    // a scheduler's default 2 × min(T, 128): the least T that gives it
    expect(nr(meta, m('kyber', 'none'))).toBe(128);
    // no meta.json: the kernel's default for the simulated queue depth
    expect(nr(undefined, m('mq-deadline', 'mq-deadline'), 7)).toBe(14);
    expect(nr(undefined, m('none', 'none'), 7)).toBe(7);
    // given, it wins; the 2.6 kernels keep their own pool
    expect(chooseNrRequests(meta, m('none', 'none'), '6.18', 32, 64)).toEqual({
      value: 64,
      source: '--nr-requests',
    });
    expect(
      chooseNrRequests(meta, m('mq-deadline', 'deadline'), '2.6.32', 32, undefined),
    ).toBeNull();
  });
});
