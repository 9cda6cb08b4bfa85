// "none" (src/engine/iosched/none.ts): first in, first out. Its FIFO reuses one array — back
// to the front when drained, compacted in place when a backlog never drains — so these
// check it against a plain queue over long random runs, backlogs of thousands included.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { none } from '../../src/engine/iosched/none';
import type { ElevatorContext } from '../../src/engine/iosched/types';
import type { IoRequest } from '../../src/engine/request';

// none reads nothing of the context but in inspect (not used here)
const ctx = {} as ElevatorContext;
const rq = (slot: number) => ({ slot }) as IoRequest;

describe('none: first in, first out', () => {
  it('dispatches exactly what a plain queue would, through drains and in-place compaction', () => {
    // bursts of adds and dispatches: some drain the queue, some leave thousands waiting
    const burst = fc.record({ adds: fc.nat({ max: 3000 }), dispatches: fc.nat({ max: 3000 }) });
    let compacted = 0;
    fc.assert(
      fc.property(fc.array(burst, { maxLength: 12 }), (bursts) => {
        const s = none.init({}, ctx);
        // the plain queue: requests first..next-1 are waiting, in order
        let first = 0;
        let next = 0;
        for (const b of bursts) {
          for (let k = 0; k < b.adds; k++) none.add(s, rq(next++), ctx);
          const got: number[] = [];
          const want: number[] = [];
          for (let k = 0; k < b.dispatches; k++) {
            const head = s.head;
            got.push(none.dispatch(s, false, ctx));
            want.push(first < next ? first++ : -1);
            if (s.head < head && s.head !== s.tail) compacted++;
          }
          expect(got).toEqual(want);
          expect(none.queued(s)).toBe(next - first);
        }
      }),
      { numRuns: 200, seed: 19 },
    );
    // the runs reached the compaction, not only the drained case
    expect(compacted).toBeGreaterThan(0);
  });
});
