// The built command compiles its bundle from V8's code cache (vite.config.ts, codeCache): the
// cache is made under the loader's own V8 flags, so the node that built it takes it. A
// rejected cache runs the same code, only slower to start; SPINDLE_DEBUG=1 says so.
import { describe, expect, it } from 'vitest';
import { SCENARIOS, spindle } from './run-cli';

const REJECTED = /code cache .* does not fit this Node/;

describe('the code cache', () => {
  it('fits the node that built it', async () => {
    // no NODE_OPTIONS: flags there would change V8's flags and so the cache's fit
    const r = await spindle(['run', `${SCENARIOS}/c2247a-random-read.json`, '--json'], {
      SPINDLE_DEBUG: '1',
      NODE_OPTIONS: '',
    });
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(REJECTED);
  });

  it('is reported, and the run goes on, when it does not fit', async () => {
    const r = await spindle(['run', `${SCENARIOS}/c2247a-random-read.json`, '--json'], {
      SPINDLE_DEBUG: '1',
      NODE_OPTIONS: '--max-old-space-size=3000', // another V8 flag: the cache no longer fits
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(REJECTED);
    expect(JSON.parse(r.stdout)).toHaveProperty('requests');
  });
});
