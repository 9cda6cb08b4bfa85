// Opening DiskSim files as the page does (docs/DISKSIM.md "On the page"): a set of files
// picked or unpacked together is the reader's FileSource — a `source` line's file found beside
// the .parv or by its base name — and every .parv in it becomes a user's disk "file:x.parv"
// beside the presets. A missing file names the .parv (or the file sourcing it), the line and
// the file; the reader's own errors come through as they are.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { readDiskSimSet, type SetFile } from '../../src/engine/disk/disksim/file-set';
import { readDiskSim } from '../../src/engine/disk/disksim/reader';
import {
  forgetDisk,
  getPreset,
  presetNames,
  registerDisk,
  userDiskNames,
} from '../../src/engine/disk/presets';
import { runScenario } from '../../src/engine/run';
import { loadScenario, ScenarioError } from '../../src/engine/scenario/load';
import { forgetUserDisk, openDiskFiles, userDiskInfo } from '../../src/worker/disk-files';
import { filesIn, VALIDATION_DIR } from '../helpers/disksim';

const dir = (): string => VALIDATION_DIR();
const file = (name: string, path = name): SetFile => ({
  path,
  text: readFileSync(`${dir()}/${name}`, 'utf8'),
});
const C2247A = ['hp_c2247a.parv', 'hp_c2247a.diskspecs', 'hp_c2247a_validate.model'];
const RZ26 = [
  'dec_rz26.parv',
  'dec_rz26.diskspecs',
  'dec_rz26_validate.model',
  'dec_rz26_validate.seek',
];

afterEach(() => {
  for (const n of userDiskNames()) forgetUserDisk(n);
});

describe('a set of DiskSim files', () => {
  it('reads a .parv picked with its files (by base name) into "file:hp_c2247a.parv"', () => {
    const r = readDiskSimSet(C2247A.map((n) => file(n)));
    expect(r.errors).toEqual([]);
    expect(r.disks.map((d) => d.name)).toEqual(['file:hp_c2247a.parv']);
    const d = r.disks[0]!;
    const direct = readDiskSim('hp_c2247a.parv', filesIn(dir()));
    const { name, title, ...params } = d.disk.params;
    const { name: _n, title: _t, ...directParams } = direct.params;
    expect(params).toEqual(directParams);
    expect(name).toBe('file:hp_c2247a.parv');
    expect(title).toBe('HP_C2247A_validate (DiskSim, hp_c2247a.parv)');
    expect(d.disk.unapplied).toEqual(direct.unapplied);
    // what is kept for the next visit is exactly what was read, and reads the same again
    expect(d.used.map((u) => u.path)).toEqual(C2247A);
    const again = readDiskSimSet(d.used.map((u) => ({ path: u.path, text: u.text })));
    expect(again.disks[0]!.disk.params).toEqual(d.disk.params);
  });

  it('finds sourced files beside the .parv in a folder (a zip), and reads every .parv in the set', () => {
    const set = [
      ...C2247A.map((n) => file(n, `valid/${n}`)),
      ...RZ26.map((n) => file(n, `valid/${n}`)),
    ];
    const r = readDiskSimSet(set);
    expect(r.errors).toEqual([]);
    expect(r.disks.map((d) => [d.name, d.parv, d.disk.diskType])).toEqual([
      ['file:hp_c2247a.parv', 'valid/hp_c2247a.parv', 'HP_C2247A_validate'],
      ['file:dec_rz26.parv', 'valid/dec_rz26.parv', 'DEC_RZ26_validate'],
    ]);
    // the .seek file the .model names is found too
    expect(r.disks[1]!.used.map((u) => u.path)).toEqual(RZ26);
  });

  it('a missing sourced file: the .parv, its line and the file, and what to do', () => {
    const r = readDiskSimSet([file('hp_c2247a.parv'), file('hp_c2247a_validate.model')]);
    expect(r.disks).toEqual([]);
    expect(r.errors).toEqual([
      'hp_c2247a.parv:107: file "hp_c2247a.diskspecs" not found. Open hp_c2247a.diskspecs ' +
        'together with hp_c2247a.parv — pick them in one dialog, drop them together, or put ' +
        'them in one .zip. Opened: hp_c2247a.parv, hp_c2247a_validate.model',
    ]);
  });

  it('a file missing further down names the file that sources it, and its line', () => {
    const model = readDiskSimSet([file('hp_c2247a.parv'), file('hp_c2247a.diskspecs')]);
    expect(model.errors[0]).toMatch(
      /^hp_c2247a\.parv: hp_c2247a\.diskspecs:2: file "hp_c2247a_validate\.model" not found\. Open hp_c2247a_validate\.model together with hp_c2247a\.parv/,
    );
    const seek = readDiskSimSet(RZ26.slice(0, 3).map((n) => file(n)));
    expect(seek.errors[0]).toMatch(
      /^dec_rz26\.parv: dec_rz26_validate\.model:28: seek curve file "dec_rz26_validate\.seek" not found\. Open dec_rz26_validate\.seek together/,
    );
  });

  it('a name that differs only in case is pointed out (DiskSim names are exact)', () => {
    const r = readDiskSimSet([
      file('hp_c2247a.parv'),
      file('hp_c2247a.diskspecs', 'HP_C2247A.diskspecs'),
    ]);
    expect(r.errors[0]).toContain(
      'file "hp_c2247a.diskspecs" not found (there is HP_C2247A.diskspecs: names must match exactly)',
    );
  });

  it('a base name two files share is an error naming both', () => {
    const r = readDiskSimSet([
      file('hp_c2247a.parv', 'a/hp_c2247a.parv'),
      file('hp_c2247a.diskspecs', 'b/hp_c2247a.diskspecs'),
      file('hp_c2247a.diskspecs', 'c/hp_c2247a.diskspecs'),
      file('hp_c2247a_validate.model'),
    ]);
    expect(r.errors).toEqual([
      'hp_c2247a.parv: "hp_c2247a.diskspecs" could be any of b/hp_c2247a.diskspecs, c/hp_c2247a.diskspecs: open the set with one of them only',
    ]);
  });

  it('a set with no .parv, two .parv of one name, a file too large to read', () => {
    expect(readDiskSimSet([file('hp_c2247a.diskspecs')]).errors).toEqual([
      'no .parv among the files opened (hp_c2247a.diskspecs): a DiskSim disk is opened by its .parv, with the files it sources',
    ]);
    const twins = readDiskSimSet([
      ...C2247A.map((n) => file(n, `a/${n}`)),
      file('hp_c2247a.parv', 'b/hp_c2247a.parv'),
    ]);
    expect(twins.errors).toEqual([
      'a/hp_c2247a.parv and b/hp_c2247a.parv have the same name: open them one at a time',
      'b/hp_c2247a.parv and a/hp_c2247a.parv have the same name: open them one at a time',
    ]);
    const big = readDiskSimSet([
      file('hp_c2247a.parv'),
      { path: 'hp_c2247a.diskspecs', text: null, skipped: '40 MiB, too large' },
    ]);
    expect(big.errors).toEqual(['hp_c2247a.parv: hp_c2247a.diskspecs: 40 MiB, too large']);
  });

  it("passes the reader's own errors through as they are (file and line)", () => {
    const broken = file('hp_c2247a.diskspecs');
    broken.text = broken.text!.replace('Model = source', 'Model = = source');
    const r = readDiskSimSet([file('hp_c2247a.parv'), broken, file('hp_c2247a_validate.model')]);
    expect(r.errors).toEqual([
      'hp_c2247a.parv: hp_c2247a.diskspecs:2: expected a value, found "="',
    ]);
  });
});

describe("the user's disks beside the presets", () => {
  it('are named "file:…", which no built-in preset is', () => {
    expect(presetNames().some((n) => n.includes(':'))).toBe(false);
    const params = getPreset('hp-c2247a')!;
    expect(() => registerDisk(params)).toThrow(/named "file:<file>"/);
    expect(() => registerDisk({ ...params, name: 'file:' })).toThrow(/named "file:<file>"/);
  });

  it('run as a preset does once registered, and are gone when forgotten', () => {
    const r = readDiskSimSet(C2247A.map((n) => file(n)));
    registerDisk(r.disks[0]!.disk.params);
    expect(presetNames()).toContain('file:hp_c2247a.parv');
    const scenario = (preset: string) =>
      JSON.parse(readFileSync('public/scenarios/c2247a-random-read.json', 'utf8'), (k, v) =>
        k === 'preset' ? preset : (v as unknown),
      ) as unknown;
    const onFile = runScenario(loadScenario(scenario('file:hp_c2247a.parv'), 't')).summary;
    // the files give the hand-written preset's every number but DiskSim's driver queueing,
    // which at depth 1 changes nothing
    const onPreset = runScenario(loadScenario(scenario('hp-c2247a'), 't')).summary;
    expect(onFile.disk).toBe('file:hp_c2247a.parv');
    expect(onFile.latencyMs).toEqual(onPreset.latencyMs);
    expect(forgetDisk('file:hp_c2247a.parv')).toBe(true);
    expect(getPreset('file:hp_c2247a.parv')).toBeUndefined();
    let err: unknown;
    try {
      loadScenario(scenario('file:hp_c2247a.parv'), 't.json');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ScenarioError);
    expect((err as Error).message).toContain(
      '"file:hp_c2247a.parv" is a DiskSim disk read from hp_c2247a.parv, and it has not been opened here: open hp_c2247a.parv again',
    );
  });
});

describe("the sim worker's openDiskFiles", () => {
  const blob = (name: string) => ({ name, blob: new Blob([readFileSync(`${dir()}/${name}`)]) });

  it('registers each disk read, keeps what it read, and lists what it could not apply', async () => {
    const r = await openDiskFiles([...RZ26.map(blob)]);
    expect(r.errors).toEqual([]);
    expect(r.opened.map((o) => [o.name, o.diskType, o.scheduler])).toEqual([
      ['file:dec_rz26.parv', 'DEC_RZ26_validate', 'fcfs'],
    ]);
    expect(r.opened[0]!.kept.map((k) => k.path)).toEqual(RZ26);
    expect(r.opened[0]!.files).toEqual(RZ26);
    expect(getPreset('file:dec_rz26.parv')?.title).toBe(
      'DEC_RZ26_validate (DiskSim, dec_rz26.parv)',
    );
    const info = userDiskInfo('file:dec_rz26.parv')!;
    expect(info.unapplied.length).toBeGreaterThan(0);
    expect(info.unapplied.every((u) => u.file && u.line > 0 && u.why)).toBe(true);
  });

  it('says which zip is damaged, and reads the plain files given with it', async () => {
    const r = await openDiskFiles([
      { name: 'broken.zip', blob: new Blob([Buffer.from('PK\u0003\u0004 and nothing more')]) },
      ...C2247A.map(blob),
    ]);
    expect(r.errors).toEqual(['broken.zip: not a zip file (no end of central directory)']);
    expect(r.opened.map((o) => o.name)).toEqual(['file:hp_c2247a.parv']);
  });
});
