// The parser's one entry point: feed text in chunks of any size, then end() for the report
// (`spindle parse --json`, ARCHITECTURE.md). Pure TypeScript: the CLI feeds it file chunks
// (gunzipped by Node's zlib), the browser's worker feeds it a DecompressionStream's text.
import { TraceFeeder, type FeedStats } from './stream';
import { TraceSummary, type ParseReport, type SummaryOptions } from './summary';
import { DeviceTable, MAX_DEVICES } from './device-table';
import { DEFAULT_HOLD, TimeOrder } from './time-order';

export type { ParseReport } from './summary';
export type { ParsedEvent } from './parse-line';

export class TraceParser {
  private readonly summary: TraceSummary;
  private readonly order: TimeOrder;
  private readonly feeder: TraceFeeder;

  constructor(opts: SummaryOptions & { maxLineLength?: number } = {}) {
    const table = new DeviceTable(MAX_DEVICES, opts.device);
    this.summary = new TraceSummary(opts, table);
    // the summary keeps nothing of an event and the time-order window trades the one it
    // keeps for a spare: a handful of event objects serve every line
    this.order = new TimeOrder(this.summary, true, DEFAULT_HOLD, table);
    this.feeder = new TraceFeeder(this.order, opts.maxLineLength, true);
  }

  feed(chunk: string): void {
    this.feeder.feed(chunk);
  }

  /** An ASCII chunk and its bytes (`codes[i] === text.charCodeAt(i)`): see TraceFeeder. */
  feedAscii(text: string, codes: Uint8Array): void {
    this.feeder.feedAscii(text, codes);
  }

  /** a reason the input cannot be read at all, as soon as it is known */
  get fatal(): string | null {
    return this.feeder.stats.fatal;
  }

  end(): { report: ParseReport; fatal: string | null; stats: FeedStats } {
    const stats = this.feeder.end();
    this.order.flush();
    const report = this.summary.report(stats, this.order.stats.reordered);
    return { report, fatal: stats.fatal, stats };
  }
}

/** A whole text at once (tests, small uploads). */
export function parseTraceText(
  text: string,
  opts: SummaryOptions = {},
): ParseReport & { fatal: string | null } {
  const p = new TraceParser(opts);
  p.feed(text);
  const { report, fatal } = p.end();
  return { ...report, fatal };
}
