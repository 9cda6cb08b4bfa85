// Every disk preset (src/engine/disk/presets): it compiles, holds the capacity it claims,
// has contiguous zones over all its cylinders, skews that hide the switches they exist
// for, and a tagged-queue depth in range.
import { describe, expect, it } from 'vitest';
import { compileDisk } from '../../src/engine/disk/compile';
import type { DiskParams } from '../../src/engine/disk/params';
import { getPreset, presetNames } from '../../src/engine/disk/presets/index';
import { seekMs } from '../../src/engine/disk/seek';
import { runScenario } from '../../src/engine/run';
import { proc, scenario } from '../helpers/scenario';

function preset(name: string): DiskParams {
  const p = getPreset(name);
  if (!p) throw new Error(`no preset ${name}`);
  return p;
}

/** The capacity each preset states, in bytes (GB = 10⁹ bytes, GiB = 2³⁰, as on the label). */
const statedBytes: Record<string, number> = {
  'hp-c2247a': 1.052e9, // DiskSim Table 2: 1.05 GB; 2,054,864 × 512
  ostep: 36 * 512, // disk.py: 3 tracks × 12 sectors
  teaching: 280 * 512, // 2 × 5 × 16 + 2 × 5 × 12 sectors
  'cheetah-15k3-18g': 18.4e9,
  'cheetah-15k4-146g': 146e9,
  'cheetah-10k7-300g': 300e9,
  'cheetah-15k5': 146.8e9,
  // DiskSim's validation drives: the reader's block counts (2,054,864 … 17,966,953 × 512)
  'hp-c2490a': 2.13e9,
  'dec-rz26': 1.05e9,
  'quantum-atlas-10k': 9.2e9,
  'cheetah-9lp': 9.2e9,
  'sata-7200-500g': 500e9,
  ssd: 64 * 2 ** 30,
};

/** Presets whose skews are not meant to hide the switches: not a disk, or disk.py's model. */
const noSkewRule: Record<string, string> = {
  ssd: 'no mechanism',
  ostep: "disk.py's default has no skew (its -o flag adds one)",
};

describe('the preset registry', () => {
  it('has the presets ARCHITECTURE.md names, each under its own name', () => {
    expect(presetNames().sort()).toEqual(Object.keys(statedBytes).sort());
    for (const name of presetNames()) expect(preset(name).name).toBe(name);
  });

  it('hands out deep copies', () => {
    const a = preset('teaching');
    a.zones[0]!.sectorsPerTrack = 1;
    a.seek = { type: 'constant', ms: 0 };
    expect(preset('teaching').zones[0]!.sectorsPerTrack).toBe(16);
    expect(getPreset('no-such-disk')).toBeUndefined();
  });

  it('says where its numbers come from', () => {
    for (const name of presetNames()) {
      const p = preset(name);
      expect(p.title.length).toBeGreaterThan(10);
      expect(p.provenance.length).toBeGreaterThan(40);
    }
  });
});

describe.each(presetNames())('preset %s', (name) => {
  const p = preset(name);

  it('compiles', () => {
    const d = compileDisk(p);
    expect(d.revolutionNs).toBeCloseTo((60000 / p.rpm) * 1e6, 6);
    expect(d.seekNs.length).toBe(p.cylinders);
    for (let i = 1; i < d.seekNs.length; i += Math.max(1, Math.floor(p.cylinders / 1000))) {
      expect(Number.isFinite(d.seekNs[i])).toBe(true);
      expect(d.seekNs[i]).toBeGreaterThanOrEqual(0);
    }
    expect(d.geometry.totalLbns).toBeGreaterThan(0);
  });

  it('holds its stated capacity within 1%', () => {
    const bytes = compileDisk(p).geometry.totalLbns * 512;
    const stated = statedBytes[name];
    expect(stated).toBeDefined();
    expect(Math.abs(bytes / stated! - 1)).toBeLessThanOrEqual(0.01);
  });

  it("has zones in order covering every cylinder (DiskSim's Cheetah 9LP leaves two out)", () => {
    expect(p.zones.length).toBeGreaterThan(0);
    expect(p.zones[0]!.firstCylinder).toBe(0);
    expect(p.zones[p.zones.length - 1]!.lastCylinder).toBe(p.cylinders - 1);
    for (let i = 0; i < p.zones.length; i++) {
      const z = p.zones[i]!;
      expect(z.lastCylinder).toBeGreaterThanOrEqual(z.firstCylinder);
      // its model's zones skip one cylinder between most zones (847, 1644, …): no LBN maps there
      const skipped = i > 0 ? z.firstCylinder - p.zones[i - 1]!.lastCylinder - 1 : 0;
      expect(skipped).toBeGreaterThanOrEqual(0);
      expect(skipped).toBeLessThanOrEqual(name === 'cheetah-9lp' ? 1 : 0);
      expect(Number.isInteger(z.sectorsPerTrack) && z.sectorsPerTrack > 0).toBe(true);
      expect(z.firstSectorOffset).toBeGreaterThanOrEqual(0);
      expect(z.firstSectorOffset).toBeLessThan(z.sectorsPerTrack);
      const tracks = (z.lastCylinder - z.firstCylinder + 1) * p.surfaces;
      expect(z.spareTracks).toBeGreaterThanOrEqual(z.slips.length);
      expect(z.spareTracks).toBeLessThan(tracks);
      for (const s of z.slips) expect(s >= 0 && s < tracks).toBe(true);
      // Outer zones hold at least as many sectors per track as inner ones.
      if (i > 0) expect(z.sectorsPerTrack).toBeLessThanOrEqual(p.zones[i - 1]!.sectorsPerTrack);
    }
  });

  // (ssd has no mechanics; ostep is disk.py's unskewed disk: the rule does not apply)
  if (!(name in noSkewRule))
    it('has skews that cover the head switch and the one-cylinder seek', () => {
      const revMs = 60000 / p.rpm;
      const oneCylMs = seekMs(p.seek, 1, p.cylinders);
      for (const z of p.zones) {
        const sectorMs = revMs / z.sectorsPerTrack;
        // A transfer running off a track's last sector finds the next track's first sector
        // skew sectors later: the switch (plus settle, for a write) must be over by then.
        expect(z.trackSkew * sectorMs).toBeGreaterThanOrEqual(
          p.headSwitchMs + p.writeSettleMs - 1e-9,
        );
        expect(z.cylinderSkew * sectorMs).toBeGreaterThanOrEqual(oneCylMs + p.writeSettleMs - 1e-9);
        // … and not by a whole revolution.
        expect(z.trackSkew).toBeLessThan(z.sectorsPerTrack);
        expect(z.cylinderSkew).toBeLessThan(z.sectorsPerTrack);
      }
    });

  it('serves random 4 KiB reads end to end in a plausible time', () => {
    const { summary } = runScenario(
      scenario({ preset: name, processes: [proc({ op: 'read' })], stopRequests: 500 }),
    );
    const mean = summary.latencyMs.q2c.mean;
    const revMs = 60000 / p.rpm;
    if (p.ssd) {
      // latency + 4096 B at the read bandwidth, nothing else (no overheads in this preset)
      expect(mean).toBeCloseTo(p.ssd.readLatencyMs + 4096 / (p.ssd.readMBps * 1e3), 6);
      return;
    }
    // Random reads on a disk: at least some rotation, at most a full stroke, a full turn,
    // the transfer and a few ms of overheads and bus.
    expect(mean).toBeGreaterThan(revMs / 4);
    expect(mean).toBeLessThan(seekMs(p.seek, p.cylinders - 1, p.cylinders) + 2 * revMs + 5);
  });

  it('accepts 1–64 queued commands', () => {
    expect(Number.isInteger(p.maxQueueDepth)).toBe(true);
    expect(p.maxQueueDepth).toBeGreaterThanOrEqual(1);
    expect(p.maxQueueDepth).toBeLessThanOrEqual(64);
  });

  it('has a cache that fits together', () => {
    const c = p.cache;
    if (c.segments === 0) return;
    expect(c.segmentSectors).toBeGreaterThan(0);
    expect(c.readAheadSectors).toBeLessThanOrEqual(c.segmentSectors);
    if (c.writePolicy === 'write-back') expect(c.writeBufferSectors).toBeGreaterThan(0);
    expect(c.writeBufferSectors).toBeLessThanOrEqual(c.segments * c.segmentSectors);
    // dirty segments come out of the buffer's own (DiskSim: 1 ≤ write segments ≤ segments)
    if (c.writePolicy === 'write-back') expect(c.writeSegments).toBeGreaterThan(0);
    expect(c.writeSegments).toBeLessThanOrEqual(c.segments);
  });
});

describe('the issue’s figures', () => {
  it('cheetah-15k5: DiskSim’s 286,749,487 blocks, 4 surfaces, 72,170 cylinders, 15,020 RPM, 32 × 1200 write-back cache', () => {
    const p = preset('cheetah-15k5');
    expect(compileDisk(p).geometry.totalLbns).toBe(286749487);
    expect([p.surfaces, p.cylinders, p.rpm]).toEqual([4, 72170, 15020]);
    expect(p.seek.type).toBe('extracted');
    expect(p.zones[0]!.sectorsPerTrack).toBe(1200);
    expect([p.cache.segments, p.cache.segmentSectors, p.cache.writePolicy]).toEqual([
      32,
      1200,
      'write-back',
    ]);
    // DiskSim's "Maximum number of write segments = 11"
    expect(p.cache.writeSegments).toBe(11);
    expect(p.maxQueueDepth).toBe(64);
  });

  it.each([
    ['cheetah-15k3-18g', 15000, 2, 3.6, 4.0],
    ['cheetah-15k4-146g', 15000, 8, 3.4, 4.0],
    ['cheetah-10k7-300g', 10000, 8, 4.7, 5.3],
  ])(
    '%s: %d RPM, %d surfaces, %f / %f ms seeks, 8 MB cache, 64 commands',
    (name, rpm, surfaces, read, write) => {
      const p = preset(name);
      expect([p.rpm, p.surfaces]).toEqual([rpm, surfaces]);
      expect(p.seek).toMatchObject({ type: 'curve', averageMs: read });
      if (p.seek.type !== 'curve') throw new Error('not a curve');
      expect(p.seek.singleMs).toBeGreaterThanOrEqual(0.2);
      expect(p.seek.singleMs).toBeLessThanOrEqual(0.5);
      expect(p.seek.fullMs / read).toBeGreaterThanOrEqual(2);
      expect(p.seek.fullMs / read).toBeLessThanOrEqual(2.3);
      expect(p.writeSettleMs).toBeCloseTo(write - read, 12);
      expect(p.headSwitchMs).toBeGreaterThanOrEqual(0.3);
      expect(p.headSwitchMs).toBeLessThanOrEqual(0.5);
      expect(p.cache.segments * p.cache.segmentSectors * 512).toBe(8 * 2 ** 20);
      expect(p.maxQueueDepth).toBe(64);
      expect(p.zones.length).toBeGreaterThanOrEqual(10);
      expect(p.zones.length).toBeLessThanOrEqual(14);
    },
  );

  it('sata-7200-500g: 7200 RPM, 8.5 ms average seek, 16 MB cache, NCQ 32', () => {
    const p = preset('sata-7200-500g');
    expect(p.rpm).toBe(7200);
    expect(p.seek).toMatchObject({ type: 'curve', averageMs: 8.5 });
    expect(p.cache.segments * p.cache.segmentSectors * 512).toBe(16 * 2 ** 20);
    expect(p.maxQueueDepth).toBe(32);
  });

  it('teaching: every sector drawable, 100 ms per turn, no cache, no overheads', () => {
    const p = preset('teaching');
    expect(p.surfaces).toBe(2);
    expect(p.cylinders).toBe(10);
    expect(p.zones.map((z) => z.sectorsPerTrack)).toEqual([16, 12]);
    expect(60000 / p.rpm).toBe(100);
    expect(p.cache.segments).toBe(0);
    expect(Object.values(p.overheads).every((v) => v === 0)).toBe(true);
    // The seek is visible: 15 ms for one cylinder, 25 ms across the disk.
    expect(seekMs(p.seek, 1, p.cylinders)).toBeCloseTo(15, 12);
    expect(seekMs(p.seek, 9, p.cylinders)).toBeCloseTo(25, 12);
  });

  it('ssd: an ssd block, no seek, no cache, 64 GiB of LBNs', () => {
    const p = preset('ssd');
    expect(p.ssd).toEqual({
      readLatencyMs: 0.08,
      writeLatencyMs: 0.02,
      readMBps: 250,
      writeMBps: 200,
      channels: 4,
    });
    expect(p.seek).toEqual({ type: 'constant', ms: 0 });
    expect(p.cache.segments).toBe(0);
    expect(compileDisk(p).geometry.totalLbns).toBe(64 * 2 ** 21);
  });
});
