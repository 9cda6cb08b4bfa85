// What a trace says about kernel 6.18's flush machinery (iosched/blk-flush.ts): which Qs carried
// REQ_PREFLUSH or REQ_FUA (blkparse's RWBS: F first for a flush, the direction, then F for FUA
// — blkparse's fill_rwbs), the flush commands' D→C pairs (D FN, C FN: no sectors), and when
// each flagged Q's sequence ended — the C with no sectors left that blk_mq_end_request prints
// after the last step (`C WSM 2097240 [0]`; an empty flush's `C WS 0 [0]`), which is when its
// process heard of it, after its data's own C and any post-flush.
import type { ParsedEvent } from './parse-line';

export interface RwbsFlags {
  /** REQ_PREFLUSH (or the flush command's REQ_OP_FLUSH): the leading F */
  preflush: boolean;
  /** REQ_FUA: an F after the direction */
  fua: boolean;
  /** the flush command itself: F then N (no data) */
  flushOp: boolean;
}

export function rwbsFlags(rwbs: string): RwbsFlags {
  const lead = rwbs.length > 1 && rwbs.charAt(0) === 'F';
  const main = rwbs.charAt(lead ? 1 : 0);
  return { preflush: lead, fua: rwbs.charAt(lead ? 2 : 1) === 'F', flushOp: lead && main === 'N' };
}

/** A Q whose sequence end is awaited: its time of that end is set on it. */
export interface FlaggedQ {
  sector: number;
  endNs: number;
}

export interface FlushFacts {
  /** the flush commands' dispatch and completion, in dispatch order */
  pairs: Array<{ dNs: number; cNs: number }>;
  /** Qs that carried PREFLUSH or FUA (with data or not) */
  flaggedQs: number;
  /** a FUA write's data went to the device with its F (the device does FUA itself) */
  fuaDispatched: boolean;
  /** FUA Qs with data (a device without FUA shows a flush after each one's data instead) */
  fuaWithData: number;
}

export class FlushCollector {
  readonly facts: FlushFacts = { pairs: [], flaggedQs: 0, fuaDispatched: false, fuaWithData: 0 };
  /** flush commands dispatched and not completed (one at a time per hardware queue) */
  private readonly dispatchedAt: number[] = [];
  /** flagged Qs whose sequence has not ended, by the sector its end prints */
  private readonly waiting = new Map<number, FlaggedQ[]>();

  /** A Q with these flags; an empty flush's end prints sector 0 (its bio's bi_sector). */
  queued(q: FlaggedQ, f: RwbsFlags, hasData: boolean): void {
    if (!f.preflush && !f.fua) return;
    this.facts.flaggedQs++;
    if (f.fua && hasData) this.facts.fuaWithData++;
    const list = this.waiting.get(q.sector);
    if (list === undefined) this.waiting.set(q.sector, [q]);
    else list.push(q);
  }

  dispatched(e: ParsedEvent): void {
    const f = rwbsFlags(e.rwbs);
    if (f.flushOp) this.dispatchedAt.push(e.tNs);
    else if (f.fua && e.nSectors > 0) this.facts.fuaDispatched = true;
  }

  /** A C with no sectors: a flush command's, or a flagged Q's sequence end. */
  completed(e: ParsedEvent): void {
    if (e.nSectors > 0) return;
    if (rwbsFlags(e.rwbs).flushOp) {
      const d = this.dispatchedAt.shift();
      if (d !== undefined) this.facts.pairs.push({ dNs: d, cNs: e.tNs });
      return;
    }
    const list = this.waiting.get(Math.max(0, e.sector));
    const q = list?.shift();
    if (q === undefined) return;
    q.endNs = e.tNs;
    if (list!.length === 0) this.waiting.delete(Math.max(0, e.sector));
  }
}

/** The traced device's write cache and FUA (kernel 6.18's flush machinery), and whence. */
export interface FlushCaps {
  /** null: neither meta.json nor the trace says */
  writeCache: boolean | null;
  fua: boolean | null;
  source: string;
}

/** meta.json's two facts for the flush machinery (replay-mapping.ts TraceMeta's; by shape, as
 * the trace reader imports this file) */
interface FlushMeta {
  writeCache?: string;
  fua?: number;
}

/** meta.json's write_cache and fua when it has them; else what the trace shows: flush
 * commands (D FN) only come from a queue with a write cache; a FUA write's data dispatched
 * with its F only from one that does FUA (without, a flush follows the data instead). */
export function traceFlushCaps(
  dev: { flushes: FlushFacts },
  meta: FlushMeta | undefined,
): FlushCaps {
  const f = dev.flushes;
  const fromMeta = meta?.writeCache !== undefined;
  const writeCache = fromMeta
    ? meta.writeCache === 'write back'
    : f.pairs.length > 0
      ? true
      : f.flaggedQs > 0
        ? false
        : null;
  const fuaFromMeta = meta?.fua !== undefined;
  const fua = fuaFromMeta
    ? meta.fua === 1
    : f.fuaDispatched
      ? true
      : f.fuaWithData > 0 && f.pairs.length > 0
        ? false
        : null;
  const said = (m: boolean, v: boolean | null, what: string, trace: string): string =>
    m
      ? `${what} from meta.json`
      : v === null
        ? `${what} not known (the trace has no preflush or FUA write)`
        : `${what} from the trace (${trace})`;
  return {
    writeCache,
    fua,
    source: [
      said(fromMeta, writeCache, 'write cache', `${f.pairs.length} flush commands`),
      said(
        fuaFromMeta,
        fua,
        'FUA',
        f.fuaDispatched ? 'a FUA write dispatched with its F' : 'FUA writes followed by flushes',
      ),
    ].join('; '),
  };
}
