// The deadline I/O scheduler (src/engine/iosched/deadline.ts), LINUX-SCHEDULERS.md §3.2,
// §3.1, §3.3 and §1.4: its tunables and contract with the block layer, and how it files an
// inserted request (deadline, FIFO, sort list, alias). The scene is deadline-harness.ts's.
import { declared, docTunables } from '../helpers/doc-tunables';
import { describe, expect, it } from 'vitest';
import { jiffiesToMs } from '../../src/engine/iosched/common';
import { deadline } from '../../src/engine/iosched/deadline';
import { proc } from '../helpers/scenario';
import { BUSY, rd, wr } from '../helpers/traced-run';
import { MS, picks, reads, run, simAt, stateOf, syncWrites, view } from './deadline-harness';

const INT_MAX = 2147483647;

describe('deadline: tunables and contract (§3.2)', () => {
  it('§3.2 tunables: the kernel’s defaults, units and sysfs limits', () => {
    expect(deadline.tunables.map((t) => [t.name, t.default, t.unit, t.min, t.max])).toEqual([
      ['read_expire', 500, 'ms', 0, INT_MAX],
      ['write_expire', 5000, 'ms', 0, INT_MAX],
      ['fifo_batch', 16, 'requests', 0, INT_MAX],
      ['writes_starved', 2, 'count', -2147483648, INT_MAX],
      ['front_merges', 1, 'bool', 0, 1],
    ]);
    // The kernel writes the expiries in jiffies, HZ/2 and 5*HZ: the same ms at every HZ.
    for (const hz of [100, 250, 1000]) {
      expect(jiffiesToMs(hz / 2, hz)).toBe(deadline.tunables[0]!.default);
      expect(jiffiesToMs(5 * hz, hz)).toBe(deadline.tunables[1]!.default);
    }
    for (const t of deadline.tunables) expect(t.doc).toMatch(/^[A-Z].+\.$/);
  });

  it('§3.2 tunables: docs/iosched/deadline.md lists them exactly as declared', () => {
    const { rows } = docTunables('deadline.md');
    expect(rows).toEqual(declared(deadline.tunables));
  });

  it('§3.2 tunables: ms values become ns; out-of-range values clamp as STORE_FUNCTION does', () => {
    const s = stateOf(
      simAt(
        [reads(BUSY)],
        { read_expire: 20, write_expire: 7.9, fifo_batch: -3, writes_starved: -1, front_merges: 5 },
        0,
      ),
    );
    expect(s).toMatchObject({
      readExpireNs: 20 * MS,
      writeExpireNs: 7 * MS,
      fifoBatch: 0,
      writesStarved: -1,
      frontMerges: true,
    });
    const d = stateOf(simAt([reads(BUSY)], {}, 0));
    expect(d).toMatchObject({ readExpireNs: 500 * MS, writeExpireNs: 5000 * MS, fifoBatch: 16 });
  });

  it('§1.5: appends to the dispatch queue; no timer, never idles (dispatch −1 only when empty)', () => {
    expect(deadline.dispatchInsert).toBe('append');
    expect(deadline.timer).toBeUndefined();
    expect(deadline.passthrough).toBeFalsy();
    // Each completion with requests waiting is followed by a dispatch at the same instant.
    const r = run(
      [reads(BUSY, rd(1000, 1), rd(9000, 2), rd(5000, 3)), syncWrites(wr(3000, 4), wr(7000, 5))],
      { fifo_batch: 1 },
    );
    const completions = r.trace.filter((e) => e.action === 'C');
    for (const c of completions.slice(0, -1)) {
      expect(r.d.some((e) => e.tNs === c.tNs)).toBe(true);
    }
    expect(r.d).toHaveLength(6);
  });
});

describe('deadline: insertion (§3.1, §3.3, §1.4)', () => {
  it('§3.3 insert: deadline = insertion time + read_expire / write_expire, FIFO in arrival order', () => {
    const procs = [reads(BUSY, rd(9000, 1), rd(1000, 3)), syncWrites(wr(5000, 2), wr(3000, 4))];
    const sim = simAt(procs, { read_expire: 100, write_expire: 300 }, 10);
    const v = view(sim);
    // ids in arrival order: BUSY 0, R9000 1, W5000 2, R1000 3, W3000 4
    expect(v.readFifo).toEqual([
      { rq: 1, sector: 9000, nSectors: 8, deadlineMs: 101 },
      { rq: 3, sector: 1000, nSectors: 8, deadlineMs: 103 },
    ]);
    expect(v.writeFifo).toEqual([
      { rq: 2, sector: 5000, nSectors: 8, deadlineMs: 302 },
      { rq: 4, sector: 3000, nSectors: 8, deadlineMs: 304 },
    ]);
    expect(v.sortRead).toEqual([3, 1]);
    expect(v.sortWrite).toEqual([4, 2]);
  });

  it('§3.1: requests are classified by direction (READ/WRITE), not by sync', () => {
    const sim = simAt(
      [
        proc({ name: 'async-reads', sync: false, requests: [BUSY, rd(1000, 1)] }),
        proc({ name: 'sync-writes', sync: true, requests: [wr(2000, 1)] }),
      ],
      { read_expire: 100, write_expire: 300 },
      10,
    );
    const v = view(sim);
    expect(v.readFifo.map((e) => [e.sector, e.deadlineMs])).toEqual([[1000, 101]]);
    expect(v.writeFifo.map((e) => [e.sector, e.deadlineMs])).toEqual([[2000, 301]]);
  });

  it('§1.4 alias rule: a request sorted at the same start sector moves straight to dispatch', () => {
    // R1000 (id 1) is aliased by the later R1000 (id 3): it leaves first, before R500.
    const r = run([reads(BUSY, rd(1000, 1), rd(500, 2), rd(1000, 3, 8))]);
    expect(r.d.map((e) => [e.rq, e.sector])).toEqual([
      [0, BUSY.sector],
      [1, 1000],
      [2, 500],
      [3, 1000],
    ]);
    const alias = picks(r).find((d) => d.chosen === 1)!;
    expect(alias.rule).toBe('alias');
    expect(alias.text).toMatch(/request 3 .*same start sector as R 1000\+8/);
    // Meanwhile it is held for dispatch, outside the sort list and FIFO.
    const v = view(simAt([reads(BUSY, rd(1000, 1), rd(500, 2), rd(1000, 3, 8))], {}, 10));
    expect(v.dispatch).toEqual([1]);
    expect(v.sortRead).toEqual([2, 3]);
    expect(v.readFifo.map((e) => e.rq)).toEqual([2, 3]);
  });
});
