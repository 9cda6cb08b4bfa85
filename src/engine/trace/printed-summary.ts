// blkparse's own summary block at the end of its output (§6.6), read back as printed: per
// device, its per-CPU and Total blocks of counts and KiB, the throughput line, the event
// count and skips. Kept beside Spindle's own figures, which must equal them.
import type { SummaryLine } from './parse-line';

/** blkparse's printed summary block, when the input carries one (§6.6). */
export interface PrintedSummary {
  /** "CPU0", "Total" → field name → {count, kib?, printed?} */
  blocks: Record<string, Record<string, { count: number; kib?: number; printed?: string }>>;
  device?: string;
  throughput?: { read: number; write: number; raw: string };
  events?: number;
  skips?: string;
}

/** The printed blocks, line by line (a header opens a block, its fields fill it). */
export class PrintedSummaries {
  readonly byDevice: Record<string, PrintedSummary> = {};
  private scope: Record<string, { count: number; kib?: number; printed?: string }> | null = null;
  private cur: PrintedSummary | null = null;

  add(s: SummaryLine): void {
    switch (s.kind) {
      case 'header': {
        const cur = (this.byDevice[s.dev] ??= { blocks: {}, device: s.dev });
        this.cur = cur;
        this.scope = cur.blocks[s.scope] = {};
        break;
      }
      case 'fields':
        if (this.scope)
          for (const f of s.fields) {
            const v: { count: number; kib?: number; printed?: string } = { count: f.count };
            if (f.kib !== undefined) v.kib = f.kib;
            if (f.printed !== undefined) v.printed = f.printed;
            this.scope[f.name] = v;
          }
        break;
      case 'throughput':
        if (this.cur) this.cur.throughput = { read: s.read, write: s.write, raw: s.raw };
        break;
      case 'events': {
        const cur = (this.byDevice[s.dev] ??= { blocks: {}, device: s.dev });
        cur.events = s.entries;
        if (s.skips !== undefined) cur.skips = String(s.skips);
        this.cur = cur;
        this.scope = null;
        break;
      }
      case 'skips':
        if (this.cur) this.cur.skips = s.raw;
        break;
    }
  }
}
