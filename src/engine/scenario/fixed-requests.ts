// A process's fixed request list: its entries' schema and the checks across entries (times
// in order, one way of timing each, afterDone pointing back, sectors on the disk).
import * as z from 'zod/mini';
import type { FixedRequest } from './types';
import { bool, intIn, numIn, object, oneOf, problem, type Path, type Problem } from './checks';

const MAX_KIB = 65536;
const SIZE_PHRASE = `must be a size in KiB greater than 0 and at most ${MAX_KIB}, a multiple of 0.5 (one sector)`;
/** a request size in KiB (a process's sizeKiB too); its checks given at once (checks.ts) */
export const kib = () => {
  const e = { error: SIZE_PHRASE };
  return z.number(e).check(z.gt(0, e), z.lte(MAX_KIB, e), z.multipleOf(0.5, e));
};

let fixedRequestSchema: ReturnType<typeof buildFixedRequest> | undefined;
/** One entry of a fixed request list; built when a scenario first gives one (checks.ts,
 * optionalKeys), then kept. */
export const fixedRequest = () => (fixedRequestSchema ??= buildFixedRequest());

const buildFixedRequest = () =>
  object(
    {
      sector: intIn(0, 1e12, 'must be a sector number (an integer from 0)'),
      // 0 only for an empty flush (preflush with no data: checked below)
      sizeKiB: z.union([z.literal(0), kib()], { error: SIZE_PHRASE }),
      op: oneOf(['read', 'write']),
      atMs: z.optional(numIn(0, 1e12, 'must be a time in ms from 0')),
      thinkTimeMs: z.optional(z.nullable(numIn(0, 1e9, 'must be null or a time in ms from 0'))),
      afterDone: z.optional(intIn(0, 1e9, 'must be the index of an earlier request of the list')),
      gapMs: z.optional(numIn(0, 1e9, 'must be a time in ms from 0')),
      serviceMs: z.optional(
        z.nullable(numIn(0, 1e9, 'must be null or a service time in ms from 0')),
      ),
      sync: z.optional(z.nullable(bool('must be true, false or null'))),
      plugged: z.optional(bool()),
      preflush: z.optional(bool()),
      fua: z.optional(bool()),
    },
    'an object {"sector", "sizeKiB", "op", "atMs", "thinkTimeMs" (optionally with "afterDone") or "gapMs", optionally "serviceMs", "sync", "plugged", "preflush", "fua"}',
  );

type RawFixed = z.infer<ReturnType<typeof fixedRequest>>;

export function checkFixed(
  list: readonly RawFixed[],
  totalLbns: number,
  diskName: string,
  at: (...keys: Array<string | number>) => Path,
  problems: Problem[],
): FixedRequest[] {
  let lastMs = 0;
  return list.map((q, j) => {
    const r: FixedRequest = {
      sector: q.sector,
      sizeKiB: q.sizeKiB,
      op: q.op,
      atMs: q.atMs ?? 0,
      thinkTimeMs: q.thinkTimeMs ?? null,
      ...(q.afterDone !== undefined ? { afterDone: q.afterDone } : {}),
      ...(q.gapMs !== undefined ? { gapMs: q.gapMs } : {}),
      ...(q.serviceMs != null ? { serviceMs: q.serviceMs } : {}),
      ...(q.sync != null ? { sync: q.sync } : {}),
      ...(q.plugged === true ? { plugged: true } : {}),
      ...(q.preflush === true ? { preflush: true } : {}),
      ...(q.fua === true ? { fua: true } : {}),
    };
    // an empty bio makes sense only as a flush (blk-flush.c: "If a request doesn't have
    // data, only REQ_PREFLUSH makes sense")
    if (r.sizeKiB === 0 && !(r.preflush === true && r.op === 'write'))
      problems.push(
        problem(
          at('requests', j, 'sizeKiB'),
          `${SIZE_PHRASE} (0 only for a write with "preflush": an empty flush)`,
        ),
      );
    const n = r.sizeKiB * 2;
    if (totalLbns > 0 && r.sector + n > totalLbns) {
      problems.push(
        problem(
          at('requests', j, 'sector'),
          `${r.sector} + ${n} sectors runs past the disk's end (${diskName} has ${totalLbns} sectors: 0 to ${totalLbns - 1})`,
        ),
      );
    }
    if (q.atMs !== undefined && r.thinkTimeMs !== null) {
      problems.push(
        problem(at('requests', j, 'thinkTimeMs'), 'give "atMs" or "thinkTimeMs", not both'),
      );
    }
    if (r.gapMs !== undefined) {
      if (q.atMs !== undefined || r.thinkTimeMs !== null)
        problems.push(
          problem(
            at('requests', j, 'gapMs'),
            'give one of "atMs", "thinkTimeMs" and "gapMs", not several',
          ),
        );
      if (j === 0)
        problems.push(
          problem(
            at('requests', j, 'gapMs'),
            'is the time after the previous request was issued, and the first request has none: give "atMs"',
          ),
        );
    }
    if (r.afterDone !== undefined) {
      if (r.thinkTimeMs === null)
        problems.push(
          problem(
            at('requests', j, 'afterDone'),
            'needs "thinkTimeMs" (how long after that request completes this one is issued)',
          ),
        );
      if (r.afterDone >= j)
        problems.push(
          problem(
            at('requests', j, 'afterDone'),
            j === 0
              ? 'must point to an earlier request of the list, and the first request has none'
              : `must point to an earlier request of the list (0 to ${j - 1}) (got ${r.afterDone})`,
          ),
        );
    }
    // a held plug is flushed by the next issue: it must come, and not wait for a completion
    // (the process would wait with its requests unsent)
    if (r.plugged) {
      const next = list[j + 1];
      if (next === undefined || (next.thinkTimeMs != null && next.gapMs === undefined))
        problems.push(
          problem(
            at('requests', j, 'plugged'),
            next === undefined
              ? 'keeps the plug open for the next entry, and this is the last one'
              : 'keeps the plug open for the next entry, which waits for a completion: give the next one "atMs" or "gapMs"',
          ),
        );
    }
    // issued after a completion or after the previous issue: no clock time to order
    if (r.thinkTimeMs !== null || r.gapMs !== undefined) return r;
    if (r.atMs < lastMs) {
      problems.push(
        problem(
          at('requests', j, 'atMs'),
          `must not be earlier than the timed request before it (${lastMs}) (got ${r.atMs})`,
        ),
      );
    }
    lastMs = r.atMs;
    return r;
  });
}

/** An empty flush (sizeKiB 0, preflush) needs kernel 6.18's flush machinery: the 2.6 block
 * layers here model no barriers, and would send the device a request without sectors. */
export function checkEmptyFlushes(
  processes: ReadonlyArray<{ requests: FixedRequest[] | null }> | null,
  kernel: string | undefined,
  problems: Problem[],
): void {
  if (kernel === undefined || kernel === '6.18') return;
  processes?.forEach((p, i) =>
    p.requests?.forEach((r, j) => {
      if (r.sizeKiB === 0)
        problems.push(
          problem(
            ['workload', 'processes', i, 'requests', j, 'sizeKiB'],
            `is 0 (an empty flush), which only kernel 6.18's flush machinery replays (the kernel is ${kernel})`,
          ),
        );
    }),
  );
}
