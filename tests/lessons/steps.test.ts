// The lessons as walkthroughs (issue #16 item 1): every lesson proposes at least two `Try:`
// steps, each a well-formed page link (app/lesson-steps.ts) whose every column the engine's
// loader accepts; the terminal commands live in `$ ` lines and the steps' own command lines,
// not in the prose; and the figures the steps' sentences add are the engine's.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyOverrides } from '../../src/app/config';
import { lessonComparison, lessonSteps } from '../../src/app/lesson-steps';
import { loadScenario } from '../../src/engine/scenario/load';
import { runScenario } from '../../src/engine/run';
import '../../src/engine/iosched/registry';

const dir = join(__dirname, '../../public/scenarios');
const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as {
  lessons: Array<{ file: string }>;
};
const read = (file: string) =>
  JSON.parse(readFileSync(join(dir, file), 'utf8')) as { lesson: string };
const files = index.lessons.map((l) => l.file);

describe.each(files)('%s', (file) => {
  const raw = read(file);
  const steps = lessonSteps(raw.lesson);
  it('has at least two Try: steps, each a link the page reads without a problem', () => {
    expect(steps.length).toBeGreaterThanOrEqual(2);
    for (const s of steps) expect(s.problems, s.label).toEqual([]);
  });
  it('every step (every column of a compare step) loads in the engine', () => {
    for (const s of steps)
      for (const o of s.compare ?? [s.run])
        expect(() => loadScenario(applyOverrides(raw, o, s.seed), file), s.label).not.toThrow();
  });
  it('names no --set in its prose (terminal lines are `$ ` paragraphs)', () => {
    const prose = raw.lesson
      .split(/\n\s*\n/)
      .filter((p) => !p.startsWith('$ '))
      .join('\n');
    expect(prose).not.toMatch(/--set|--decisions|spindle run /);
  });
});

describe('the lessons’ comparisons', () => {
  it('the range-write lessons compare range writes against fixed targets, disk.py the drive’s schedulers', () => {
    expect(lessonComparison(read('range-writes-journal.json').lesson)?.[0]?.ranges).toBe(false);
    expect(
      lessonComparison(read('range-writes-small-files.json').lesson)?.[0]?.gen[
        'smallfiles.rangeWrites'
      ],
    ).toBe('false');
    expect(lessonComparison(read('ostep-fifo-vs-satf.json').lesson)?.map((c) => c.dsched)).toEqual([
      'fcfs',
      'sptf',
    ]);
  });
});

describe('the figures the steps add', () => {
  const total = (file: string, dsched: string, qd: number) => {
    const raw = read(file) as unknown as { disk: Record<string, unknown> };
    const s = loadScenario(
      { ...raw, disk: { ...raw.disk, scheduler: dsched, queueDepth: qd } },
      file,
    );
    return Math.round(runScenario(s).summary.simulatedTimeMs * 10) / 10;
  };
  it('seek-rotate-transfer: FCFS and SPTF 268.8 ms, SSTF 250.0 ms', () => {
    expect(total('seek-rotate-transfer.json', 'fcfs', 1)).toBe(268.8);
    expect(total('seek-rotate-transfer.json', 'sptf', 4)).toBe(268.8);
    expect(total('seek-rotate-transfer.json', 'sstf', 4)).toBe(250);
  });
  it('c2247a-block-group-writes with range writes on: 2.8 ms a write (seek 0.6, rotation 0.2)', () => {
    const file = 'c2247a-block-group-writes.json';
    const on = lessonSteps(read(file).lesson).find((s) => s.run.ranges === true)!;
    const { summary } = runScenario(loadScenario(applyOverrides(read(file), on.run), file));
    const round = (v: number) => Math.round(v * 10) / 10;
    expect(round(summary.latencyMs.q2c.mean)).toBe(2.8);
    expect(round(summary.positioningMs.seek)).toBe(0.6);
    expect(round(summary.positioningMs.rotation)).toBe(0.2);
  });
  it('disk.py -a 7,30,8: SSTF finds SPTF’s order (375 ms)', () => {
    expect(total('ostep-fifo-vs-satf.json', 'sstf', 3)).toBe(375);
    expect(total('ostep-fifo-vs-satf.json', 'sptf', 3)).toBe(375);
  });
});
