// A link naming a user's DiskSim disk ("disk=file:x.parv", src/app/url-state.ts and
// config-check.ts): it survives the round trip; where this browser has the disk it is kept,
// where it has not the page says to open the .parv again and keeps the rest of the link.
import { describe, expect, it } from 'vitest';
import type { Catalog, PresetInfo } from '../../src/app/config';
import { sanitizeConfig } from '../../src/app/config-check';
import { parseUrlState, serializeUrlState } from '../../src/app/url-state';

const preset = (name: string): PresetInfo => ({
  name,
  title: name,
  maxQueueDepth: 64,
  ssd: false,
  writePolicy: 'write-through',
});

const catalog = (presets: PresetInfo[]): Catalog => ({
  schedulers: [
    { name: 'none', tunables: [] },
    { name: 'deadline', tunables: [] },
  ],
  queue: [],
  kernels: ['2.6.32'],
  hz: [250],
  presets,
  diskSchedulers: ['fcfs', 'sptf'],
  generators: [],
});

const LESSON = 'seek-rotate-transfer.json';
const link = `?v=1&lesson=${LESSON}&sched=deadline&disk=file%3Ahp_c2247a.parv&qd=4&dsched=sptf`;

describe('a link to a DiskSim disk opened from a file', () => {
  it('reads "file:x.parv" (any file name) and writes it back the same', () => {
    const r = parseUrlState(link);
    expect(r.problems).toEqual([]);
    expect(r.config.run.disk).toBe('file:hp_c2247a.parv');
    expect(serializeUrlState(r.config)).toBe(link);
    const spaced = parseUrlState('?v=1&disk=file%3Amy%20disk%20(v2).parv');
    expect(spaced.config.run.disk).toBe('file:my disk (v2).parv');
    // a path is not a file name, and a preset's name stays a plain name
    expect(parseUrlState('?v=1&disk=file%3A..%2Fx.parv').problems).toHaveLength(1);
    expect(parseUrlState('?v=1&disk=hp%3Ax').problems).toHaveLength(1);
  });

  it('is kept where this browser has the disk', () => {
    const r = parseUrlState(link);
    const cat = catalog([preset('hp-c2247a'), preset('file:hp_c2247a.parv')]);
    const checked = sanitizeConfig(r.config, cat, [LESSON]);
    expect(checked.problems).toEqual([]);
    expect(checked.config.run.disk).toBe('file:hp_c2247a.parv');
  });

  it('where it has not: "open hp_c2247a.parv again", and the rest of the link stays', () => {
    const r = parseUrlState(link);
    const checked = sanitizeConfig(r.config, catalog([preset('hp-c2247a')]), [LESSON]);
    expect(checked.problems).toEqual([
      {
        where: 'disk',
        message:
          "file:hp_c2247a.parv is a DiskSim disk this browser does not have: open hp_c2247a.parv again (Settings → Disk → Open a DiskSim disk, with the files it sources); until then the lesson's disk runs",
      },
    ]);
    expect(checked.config.run).toEqual({
      sched: 'deadline',
      qd: 4,
      dsched: 'sptf',
      tunables: {},
      queue: {},
      gen: {},
    });
    expect(checked.config.lesson).toBe(LESSON);
  });
});
