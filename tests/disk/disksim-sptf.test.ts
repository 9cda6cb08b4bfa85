// SPTF at depth as DiskSim has it (issue 17, docs/DISKSIM.md "SPTF at depth"): DiskSim's
// validation setups queue and schedule at the host driver, the disk taking one command at
// a time and starting its command overhead only then, and the driver's SPTF estimates from
// the angle the disk last knew. The disk DiskSim's hp_c2247a.parv describes — the hp-c2247a
// preset with `queueing: 'driver'` and the drive's extra write disconnect, as the reader
// gives it — against DiskSim's own sweeps (tests/data/disksim-ref/c2247a-sptf.txt): access,
// seek and rotation within 5% at every depth 1–64. Figures side by side: docs/VALIDATION.md.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileDisk } from '../../src/engine/disk/compile';
import { lbnBounds } from '../../src/engine/disk/geometry';
import { mediaTransfer, newTransferEnd } from '../../src/engine/disk/mechanics';
import { readDiskSim } from '../../src/engine/disk/disksim/reader';
import { getPreset } from '../../src/engine/disk/presets/index';
import { runScenario } from '../../src/engine/run';
import { loadScenario } from '../../src/engine/scenario/load';
import { filesIn, VALIDATION_DIR } from '../helpers/disksim';

interface Figures {
  access: number;
  seek: number;
  rotation: number;
  /** mean response (Spindle's Q2C; DiskSim's "IOdriver Response time average") */
  response: number;
}

const disksim = new Map<string, Figures>(
  readFileSync(new URL('../data/disksim-ref/c2247a-sptf.txt', import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('c2247a-'))
    .map((l) => {
      const [name, access, seek, rotation, , response] = l.split(' ');
      const f = [access, seek, rotation, response].map(Number) as [number, number, number, number];
      return [name!, { access: f[0], seek: f[1], rotation: f[2], response: f[3] }];
    }),
);

const DEPTHS = [1, 2, 4, 8, 16, 32, 64];

/** What the reader takes from DiskSim's C2247A files beyond the preset (disksim-reader.test). */
const fromFiles = readDiskSim('hp_c2247a.parv', filesIn(VALIDATION_DIR())).params;

/** runs by span, op, depth, queueing and disconnect: each test reads the figures it checks */
const runs = new Map<string, Figures>();

function spindle(
  span: 'disk' | 'group0',
  op: 'read' | 'write',
  q: number,
  queueing: string,
  extraWriteDisconnect = true,
): Figures {
  const key = `${span} ${op} ${q} ${queueing} ${extraWriteDisconnect}`;
  const known = runs.get(key);
  if (known) return known;
  const s = loadScenario(
    {
      name: 'sptf-sweep',
      seed: 1,
      disk: {
        preset: 'hp-c2247a',
        queueDepth: q,
        scheduler: 'sptf',
        queueing,
        ...(extraWriteDisconnect
          ? { overheads: { extraWriteDisconnect: fromFiles.overheads.extraWriteDisconnect } }
          : {}),
      },
      workload: {
        processes: [
          {
            name: 'p',
            op,
            sizeKiB: 4,
            outstanding: q,
            ...(span === 'group0' ? { span: { startSector: 0, sectors: 32768 } } : {}),
          },
        ],
      },
      stop: { requests: 20000 },
    },
    'sptf-sweep',
  );
  const summary = runScenario(s).summary;
  const p = summary.positioningMs;
  const got = {
    access: p.seek + p.rotation + p.transfer,
    seek: p.seek,
    rotation: p.rotation,
    response: summary.latencyMs.q2c.mean,
  };
  runs.set(key, got);
  return got;
}

/** The worst relative difference over the sweep, per figure. */
function worst(span: 'disk' | 'group0', op: 'read' | 'write', queueing = 'driver') {
  const w = { access: 0, seek: 0, rotation: 0 };
  for (const q of DEPTHS) {
    const ref = disksim.get(`c2247a-sptf-${span}-${op}-q${q}`)!;
    const got = spindle(span, op, q, queueing);
    for (const k of ['access', 'seek', 'rotation'] as const) {
      w[k] = Math.max(w[k], Math.abs(got[k] / ref[k] - 1));
    }
  }
  return w;
}

const within5 = (span: 'disk' | 'group0', op: 'read' | 'write'): void => {
  const w = worst(span, op);
  expect(w.access).toBeLessThan(0.05);
  expect(w.seek).toBeLessThan(0.05);
  expect(w.rotation).toBeLessThan(0.05);
};

describe("SPTF at depth against DiskSim's sweeps (queueing 'driver')", () => {
  it('whole-disk 4 KiB writes: access, seek and rotation within 5% at every depth', () =>
    within5('disk', 'write'));

  it('block-group 4 KiB writes: access, seek and rotation within 5% at every depth', () =>
    within5('group0', 'write'));

  it('whole-disk 4 KiB reads: access, seek and rotation within 5% at every depth', () =>
    within5('disk', 'read'));

  it('block-group 4 KiB reads: access, seek and rotation within 5% at every depth', () =>
    within5('group0', 'read'));

  /** the worst relative difference of the mean response over the spans, ops and `depths` */
  const worstResponse = (
    depths: number[],
    extraWriteDisconnect: boolean,
    ops = ['read', 'write'],
  ) => {
    let w = 0;
    for (const span of ['disk', 'group0'] as const)
      for (const op of ops as Array<'read' | 'write'>)
        for (const q of depths) {
          const ref = disksim.get(`c2247a-sptf-${span}-${op}-q${q}`)!.response;
          const got = spindle(span, op, q, 'driver', extraWriteDisconnect).response;
          w = Math.max(w, Math.abs(got / ref - 1));
        }
    return w;
  };

  it("mean response within 2% of DiskSim's at every depth, reads and writes", () => {
    expect(worstResponse(DEPTHS, true)).toBeLessThan(0.02); // 1.7% (block-group reads, 32)
  });

  it('the hp-c2247a preset, without the extra write disconnect: mean response within 5%; its writes at depth 2–4% quick', () => {
    // docs/DISKSIM.md: the hand-written preset does not take the disconnect yet (open work:
    // the range-writes reproductions move); on random 4 KiB I/O its block-group writes at
    // depth 64 come back 3.9% early
    expect(worstResponse([1, 4, 16, 64], false)).toBeLessThan(0.05);
    expect(worstResponse([64], false, ['write'])).toBeGreaterThan(0.02);
  });

  it("during read-ahead the estimate starts from the last whole sector's end (DiskSim's angle moves sector by sector)", () => {
    // disk_buffer_sector_done advances mech_state.theta and currtime once per sector; a
    // track switch under way leaves them at the end of the track's last sector
    const d = compileDisk(getPreset('hp-c2247a')!);
    const out = newTransferEnd();
    const sectorNs = d.sectorNs[0]!;
    mediaTransfer(d, 0, 200, 0, false, out, 2.5 * sectorNs);
    expect(out.sectors).toBe(2);
    expect(out.knownNs).toBeCloseTo(2 * sectorNs, 3);
    const trackEnd = lbnBounds(d.geometry, 0)[1] + 1;
    mediaTransfer(d, 0, trackEnd, 0, false, out);
    const endOfTrack = out.endNs;
    expect(out.knownNs).toBe(endOfTrack);
    mediaTransfer(d, 0, 200, 0, false, out, endOfTrack + 0.1e6);
    expect(out.sectors).toBe(trackEnd);
    expect(out.knownNs).toBe(endOfTrack);
  });

  it('depth 2 is no better than depth 1: the driver chooses before the replacement arrives', () => {
    for (const op of ['read', 'write'] as const) {
      const one = spindle('disk', op, 1, 'driver');
      const two = spindle('disk', op, 2, 'driver');
      expect(two.access).toBeCloseTo(one.access, 1);
    }
  });

  it("the drive's own queue (the presets) positions far better than DiskSim's driver at depth", () => {
    // in-drive SPTF overlaps command processing and estimates from the angle when the
    // mechanism is free: rotation falls with depth instead of rising
    const drive = spindle('group0', 'write', 64, 'drive');
    const driver = spindle('group0', 'write', 64, 'driver');
    expect(drive.rotation).toBeLessThan(driver.rotation / 3);
    expect(Math.abs(drive.seek / driver.seek - 1)).toBeLessThan(0.05);
  });
});
