// Golden blkparse logs: classic cases exported through the real CLI and compared with
// committed text, line for line. On a mismatch the new output is written beside the golden
// file as <name>-changed.txt, to diff and, if the change is right, to commit in its place.
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { spindle } from '../cli/run-cli';

const DIR = 'tests/iosched/golden';

describe('golden blkparse logs', () => {
  it.each([
    [
      'noop-merge-plug',
      'noop gathers writes while plugged: M, F, the unplug timer (UT, U), one 32-sector D',
    ],
    [
      'cfq-two-readers',
      "CFQ's slices, idling and m messages with two sequential readers and a writer",
    ],
  ])('%s: %s', async (name) => {
    const r = await spindle(['export', `${DIR}/scenarios/${name}.json`, '--format', 'blkparse']);
    expect(r.code).toBe(0);
    const golden = readFileSync(`${DIR}/${name}.txt`, 'utf8');
    if (r.stdout !== golden) writeFileSync(`${DIR}/${name}-changed.txt`, r.stdout);
    expect(r.stdout).toBe(golden);
  });
});
