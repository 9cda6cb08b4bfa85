// Decision records for Kyber (kyber.ts): which domain a request left from and why, a
// refusal when every domain with requests is out of tokens, and each depth scaling of the
// timer. Called only while ctx.recording.
import { MS } from './common';
import type { Adjustment, KyberRule, KyberState } from './kyber-state';
import {
  DOMAIN_NAMES,
  KYBER_BATCH_SIZE,
  KYBER_GOOD_BUCKETS,
  KYBER_NUM_DOMAINS,
} from './kyber-tunables';
import type { Candidate, ElevatorContext } from './types';

function waiting(s: KyberState, d: number): number {
  return s.kcq[d]!.length + s.rqs[d]!.length;
}

/** The head of every other domain with requests, and its tokens. */
function others(s: KyberState, chosen: number): Candidate[] {
  const out: Candidate[] = [];
  for (let d = 0; d < KYBER_NUM_DOMAINS; d++) {
    const head = s.rqs[d]![0] ?? s.kcq[d]![0];
    if (head === undefined || head === chosen) continue;
    out.push({
      slot: head,
      note: `${DOMAIN_NAMES[d]}: ${waiting(s, d)} waiting, tokens ${s.used[d]}/${s.depth[d]}`,
    });
  }
  return out;
}

function tokens(s: KyberState, d: number): string {
  return `${DOMAIN_NAMES[d]} tokens ${s.used[d]}/${s.depth[d]}`;
}

/** Why the batch of domain `from` ended, as kyber_dispatch_request's comment lists. */
function whyEnded(s: KyberState, from: number, batchBefore: number): string {
  if (batchBefore >= KYBER_BATCH_SIZE[from]!)
    return `${DOMAIN_NAMES[from]}'s batch of ${KYBER_BATCH_SIZE[from]} is used up`;
  if (waiting(s, from) === 0) return `${DOMAIN_NAMES[from]} has no requests`;
  return `${DOMAIN_NAMES[from]} is out of tokens (${s.used[from]}/${s.depth[from]})`;
}

export function explainDispatch(
  s: KyberState,
  slot: number,
  rule: KyberRule,
  from: number,
  batchBefore: number,
  ctx: ElevatorContext,
): void {
  const d = s.curDomain;
  const rq = ctx.rq(slot);
  const what = `${rq.write ? 'W' : 'R'} ${rq.sector}+${rq.nSectors}`;
  const text =
    rule === 'continue-batch'
      ? `kyber: ${DOMAIN_NAMES[d]} batch goes on (${s.batching}/${KYBER_BATCH_SIZE[d]}) → ${what} takes a token (${tokens(s, d)})`
      : `kyber: ${whyEnded(s, from, batchBefore)} → new batch from ${DOMAIN_NAMES[d]}, the next domain round robin with a request and a token → ${what} (${tokens(s, d)})`;
  ctx.decide(rule, slot, others(s, slot), text);
}

export function explainRefusal(s: KyberState, ctx: ElevatorContext): void {
  const starved: string[] = [];
  for (let d = 0; d < KYBER_NUM_DOMAINS; d++)
    if (waiting(s, d) > 0) starved.push(`${tokens(s, d)}, ${waiting(s, d)} waiting`);
  if (starved.length === 0) return; // empty, not a refusal
  ctx.decide(
    'throttled' satisfies KyberRule,
    -1,
    others(s, -1),
    `kyber: every domain with requests is out of tokens (${starved.join('; ')}) → wait for a completion to free one`,
  );
}

const ms = (ns: number) => `${+(ns / MS).toFixed(3)} ms`;

/** The latency a bucket reaches up to: (b + 1) quarters of the target. */
function bucketText(s: KyberState, d: number, b: number): string {
  if (b < 0) return 'no figure';
  const bound = ((b + 1) * s.targets[d]!) / 4;
  return b === 7 ? `> ${ms((7 * s.targets[d]!) / 4)}` : `≤ ${ms(bound)}`;
}

export function explainAdjust(s: KyberState, d: number, a: Adjustment, ctx: ElevatorContext): void {
  const rule: KyberRule = a.p99 >= KYBER_GOOD_BUCKETS ? 'scale-up' : 'scale-down';
  const why =
    rule === 'scale-up'
      ? `its total-latency p99 (${bucketText(s, d, a.p99)}) misses the target ${ms(s.targets[d]!)} → throttle less`
      : `congestion (some domain's I/O-latency p90 beyond its target) while its p99 ${bucketText(s, d, a.p99)} meets the target ${ms(s.targets[d]!)} → throttle more`;
  ctx.decide(
    rule,
    -1,
    [],
    `kyber_adjust ${DOMAIN_NAMES[d]}: ${why}: depth ${a.from} × ${a.p99 + 1}/4 → ${a.to}`,
  );
}
