// `spindle run --disk-file X.parv` (cli/disksim.ts diskFileSetting): the DiskSim disk read
// from X.parv and the files beside it runs under the page's name for it, "file:X.parv"; what
// Spindle does not apply is counted on stderr; a scenario naming a file disk without it says
// how to give it.
import { writeFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../../src/engine/summary';
import type { ReplayReport } from '../../src/engine/trace/replay';
import { dataPath } from '../helpers/data';
import { SCENARIOS, spindle } from './run-cli';

const RANDOM_READ = `${SCENARIOS}/c2247a-random-read.json`;
const PARV = dataPath('disksim-validation', 'hp_c2247a.parv');

describe('spindle run --disk-file', () => {
  it('runs on the disk the .parv describes, named file:hp_c2247a.parv', async () => {
    const onFile = await spindle(['run', RANDOM_READ, '--disk-file', PARV, '--json']);
    expect(onFile.code).toBe(0);
    expect(onFile.stderr).toBe(
      `spindle: note: ${PARV}: 5 DiskSim parameters are not applied (spindle disksim-read ${PARV} lists them)\n`,
    );
    const s = JSON.parse(onFile.stdout) as RunSummary;
    expect(s.disk).toBe('file:hp_c2247a.parv');
    // the files give the hand-written preset's numbers (disksim-reader.test.ts); one request
    // at a time, DiskSim's driver queueing changes nothing
    const onPreset = JSON.parse(
      (await spindle(['run', RANDOM_READ, '--json'])).stdout,
    ) as RunSummary;
    expect(s.latencyMs).toEqual(onPreset.latencyMs);
    expect(s.positioningMs).toEqual(onPreset.positioningMs);
  });

  it('a scenario naming a file disk without --disk-file, and a .parv that is not there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spindle-disk-file-'));
    const path = join(dir, 's.json');
    const raw = JSON.parse(readFileSync(RANDOM_READ, 'utf8')) as { disk: { preset: string } };
    raw.disk.preset = 'file:hp_c2247a.parv';
    writeFileSync(path, JSON.stringify(raw));
    const r = await spindle(['run', path]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(
      '"file:hp_c2247a.parv" is a DiskSim disk read from hp_c2247a.parv, and it has not been opened here: open hp_c2247a.parv again (the page: Settings → Disk; spindle run: --disk-file hp_c2247a.parv)',
    );
    const ok = await spindle(['run', path, '--disk-file', PARV]);
    expect(ok.code).toBe(0);
    const gone = await spindle(['run', RANDOM_READ, '--disk-file', join(dir, 'nosuch.parv')]);
    expect(gone.code).not.toBe(0);
    expect(gone.stderr).toContain(`--disk-file ${join(dir, 'nosuch.parv')}: no such file`);
  });
});

describe('spindle replay --disk-file', () => {
  const trace = dataPath('linux-6.18', 'none_randread_4k', 'trace.txt.gz');
  const atlas = dataPath('disksim-validation', 'atlas10k.parv');

  it('replays a trace on the disk a .parv describes (the Atlas 10K: zones with gaps, sector sparing)', async () => {
    const r = await spindle(['replay', trace, '--mode', 'closed', '--disk-file', atlas, '--json']);
    expect(r.stderr).toMatch(/atlas10k\.parv: \d+ DiskSim parameters are not applied/);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as ReplayReport;
    expect(report.disk.preset).toBe('file:atlas10k.parv');
    expect(report.fit).toBeNull();
    expect(report.simulated.perRequest.count).toBe(8192);
  });

  it('refuses --disk beside --disk-file', async () => {
    const r = await spindle(['replay', trace, '--disk', 'ssd', '--disk-file', atlas]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('--disk and --disk-file both name the simulated device: give one');
  });
});
