// Kyber's inspection view (kyber.ts): per domain its tokens in use and depth (debugfs
// <domain>_tokens), the requests in the software queue and flushed (<domain>_rqs), and the
// window's latency percentiles against the target — the p90 of the I/O latency and the
// p99 of the total latency as the next timer run would read them, as bucket bounds.
import { MS } from './common';
import { percentileBucket, type KyberState } from './kyber-state';
import {
  DOMAIN_NAMES,
  KYBER_BATCH_SIZE,
  KYBER_IO_LATENCY,
  KYBER_LATENCY_BUCKETS,
  KYBER_NUM_DOMAINS,
  KYBER_OTHER,
  KYBER_TOTAL_LATENCY,
} from './kyber-tunables';
import type { ElevatorContext } from './types';

export interface KyberDomainView {
  name: (typeof DOMAIN_NAMES)[number];
  tokensInUse: number;
  depth: number;
  /** request ids in the software queue (mergeable) and flushed to the hardware context */
  queued: number[];
  flushed: number[];
  /** dispatch attempts refused for want of a token (trace_kyber_throttled) */
  throttled: number;
  /** READ, WRITE, DISCARD: the latency target and this window's figures */
  latency?: {
    targetMs: number;
    samples: number;
    /** the percentile's bucket as a bound, e.g. "≤ 1.5 ms" or "> 3.5 ms"; null: no samples */
    ioP90: string | null;
    totalP99: string | null;
    meetsTarget: boolean | null;
    /** the p99 bucket kept for the next congested window (domain_p99), −1 none */
    rememberedP99: number;
    lastAdjust: { atMs: number; from: number; to: number } | null;
  };
}

export type KyberView = {
  domains: KyberDomainView[];
  curDomain: (typeof DOMAIN_NAMES)[number];
  batching: string;
  /** null on the 2.6 block layer, which has no tag pool */
  asyncDepth: number | null;
  timerAtMs: number | null;
};

function bound(target: number, b: number): string | null {
  if (b < 0) return null;
  const ms = (q: number) => `${+((q * target) / 4 / MS).toFixed(3)} ms`;
  return b === KYBER_LATENCY_BUCKETS - 1 ? `> ${ms(b)}` : `≤ ${ms(b + 1)}`;
}

export function kyberView(s: KyberState, ctx: ElevatorContext): KyberView {
  const ids = (list: number[]) => list.map((slot) => ctx.rq(slot).id);
  const domains: KyberDomainView[] = [];
  for (let d = 0; d < KYBER_NUM_DOMAINS; d++) {
    const v: KyberDomainView = {
      name: DOMAIN_NAMES[d]!,
      tokensInUse: s.used[d]!,
      depth: s.depth[d]!,
      queued: ids(s.kcq[d]!),
      flushed: ids(s.rqs[d]!),
      throttled: s.throttled[d]!,
    };
    if (d < KYBER_OTHER) {
      const window = (t: number) => s.buckets[d]![t]!.map((n, b) => n + s.cpuBuckets[d]![t]![b]!);
      const total = window(KYBER_TOTAL_LATENCY);
      const p99 = percentileBucket(total, 99);
      const a = s.lastAdjust[d];
      v.latency = {
        targetMs: s.targets[d]! / MS,
        samples: total.reduce((x, y) => x + y, 0),
        ioP90: bound(s.targets[d]!, percentileBucket(window(KYBER_IO_LATENCY), 90)),
        totalP99: bound(s.targets[d]!, p99),
        meetsTarget: p99 < 0 ? null : p99 < 4,
        rememberedP99: s.domainP99[d]!,
        lastAdjust: a ? { atMs: (a.jiffy * 1000) / s.hz, from: a.from, to: a.to } : null,
      };
    }
    domains.push(v);
  }
  return {
    domains,
    curDomain: DOMAIN_NAMES[s.curDomain]!,
    batching: `${s.batching}/${KYBER_BATCH_SIZE[s.curDomain]}`,
    asyncDepth: Number.isFinite(s.asyncDepth) ? s.asyncDepth : null,
    timerAtMs: s.timerJ < 0 ? null : (s.timerJ * 1000) / s.hz,
  };
}
