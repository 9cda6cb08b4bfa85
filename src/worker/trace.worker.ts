// The worker that reads an uploaded trace (issue 5 item 8, issue 4 item 6): a thin adapter
// from messages to the engine's trace reader and replay (STYLE.md habit 1). The page talks to
// it through comlink (./trace-client.ts).
//   open(blob, name, onProgress) → the parse summary, per-device LBA pictures, what replay
//                                  needs to offer; the file is streamed in chunks (File.stream),
//                                  gunzipped by DecompressionStream when it starts with gzip's
//                                  magic bytes, decoded as UTF-8 and fed to the engine's reader
//   cancel()                     → the open() under way stops at its next step (a slice of
//                                  text, the end-of-file work, a device's picture); the
//                                  page terminates a worker that does not (trace-session.ts)
//   replay(options)              → the engine's replay of the last trace read, measured vs
//                                  simulated
// The reading is kept here (never sent whole to the page) until the next successful open().
import { expose } from 'comlink';
import {
  elevatorNames,
  presetNames,
  replayTrace,
  ReplayError,
  ReplayReader,
  SCHEDULER_MAP,
  ScenarioError,
  TraceParser,
  type ParseReport,
  type ReplayMode,
  type ReplayReport,
  type TraceMeta,
  type TraceReading,
} from '../engine';
import { readDiskSimSet } from '../engine/disk/disksim/file-set';
import { registerDisk } from '../engine/disk/presets';

/** The LBA-over-time picture's grid: every request lands in one cell, so the picture is
 * bounded whatever the trace's size. */
export const PICTURE_WIDTH = 720;
export const PICTURE_HEIGHT = 240;

export interface LbaPicture {
  width: number;
  height: number;
  /** cell flags, row 0 at the top (highest sectors): 1 = a read, 2 = a write */
  cells: Uint8Array;
  /** the time axis, seconds in the trace's own clock */
  t0: number;
  t1: number;
  /** the sector axis [s0, s1) */
  s0: number;
  s1: number;
  /** requests drawn (Qs the kernel dispatched), reads and writes */
  reads: number;
  writes: number;
  /** Qs with data never seen dispatched (not drawn) */
  undispatched: number;
}

/** Above this many bytes of text a trace is read for its summary only, in bounded memory:
 * replay and the LBA picture keep every request of the trace (a few hundred bytes each). */
export const FULL_READ_LIMIT = 400_000_000;

export interface TraceOverview {
  name: string;
  /** bytes of the file as uploaded */
  bytes: number;
  gzip: boolean;
  /** characters of text parsed */
  chars: number;
  parseMs: number;
  report: ParseReport;
  /** "all" and each device */
  pictures: Record<string, LbaPicture>;
  /** why only the summary was computed (a trace over FULL_READ_LIMIT), or null */
  summaryOnly: string | null;
  /** devices with a Q carrying data: what replay can run */
  replayable: string[];
  /** the scheduler the trace's message lines name, and the nearest Spindle one */
  tracedScheduler: string | null;
  suggestedScheduler: string | null;
  /** each traced scheduler Spindle maps → its nearest Spindle one (for a meta.json added) */
  nearestScheduler: Record<string, string>;
  schedulers: string[];
  presets: string[];
}

export type OpenOutcome =
  | { kind: 'ok'; overview: TraceOverview }
  | { kind: 'error'; message: string }
  | { kind: 'cancelled'; bytesRead: number };

export interface ReplayRequest {
  device: string;
  scheduler: string;
  /** 'traced' (the device fitted to the trace) or a preset */
  disk: string;
  /** the block layer's kernel */
  kernel: '2.6.32' | '6.18';
  mode: ReplayMode;
  /** the facts of a meta.json the user added beside the trace (traceMetaOf), or none */
  meta: TraceMeta | null;
  /** a DiskSim disk the user opened ("file:x.parv"): the files it was read from (kept in
   * IndexedDB, app/disk-persist.ts), read here into this worker's disks before the replay */
  diskFiles?: Array<{ path: string; text: string }>;
}

export type ReplayOutcome =
  { kind: 'ok'; report: ReplayReport } | { kind: 'error'; message: string };

export type ProgressFn = (bytesRead: number, totalBytes: number) => void;

let current: TraceReading | null = null;
/** each open() gets a number; cancel() marks the one under way */
let generation = 0;
let cancelled = -1;

const PROGRESS_EVERY_MS = 50;
/** characters fed to the reader at a time (a few ms of parsing) */
const SLICE = 1 << 18;

async function open(blob: Blob, name: string, onProgress?: ProgressFn): Promise<OpenOutcome> {
  const mine = ++generation;
  const started = performance.now();
  const total = blob.size;
  if (total === 0) return { kind: 'error', message: `${name}: the file is empty` };
  const magic = new Uint8Array(await blob.slice(0, 2).arrayBuffer());
  const gzip = magic[0] === 0x1f && magic[1] === 0x8b;

  let bytesRead = 0;
  const counter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, out) {
      bytesRead += chunk.byteLength;
      out.enqueue(chunk);
    },
  });
  const raw = blob.stream().pipeThrough(counter);
  const gunzip = new DecompressionStream('gzip') as unknown as TransformStream<
    Uint8Array,
    Uint8Array
  >;
  const text = gzip ? raw.pipeThrough(gunzip) : raw;
  const chunks = text.getReader();
  const decoder = new TextDecoder('utf-8');
  // the text's size: the file's, or gzip's trailer (ISIZE: the size mod 2^32); where that is
  // implausible (over 4 GiB, wrapped) blkparse text's usual 8:1 ratio stands in
  const isize = gzip ? await gzipSize(blob) : 0;
  const textBytes = !gzip ? total : isize >= total ? isize : total * 8;
  const summaryOnly =
    textBytes > FULL_READ_LIMIT
      ? `the trace is about ${Math.round(textBytes / 1e6)} MB of text, over the ${FULL_READ_LIMIT / 1e6} MB that replay and the LBA picture can hold in the browser (they keep every request): read for its summary only — the CLI's \`spindle replay\` takes any size`
      : null;
  const reader: Reader = summaryOnly === null ? new ReplayReader() : new SummaryReader();
  let lastReport = 0;
  try {
    for (;;) {
      if (cancelled === mine) {
        await chunks.cancel().catch(() => undefined);
        return { kind: 'cancelled', bytesRead };
      }
      const { done, value } = await chunks.read();
      if (done) break;
      // A chunk (a DecompressionStream's may be megabytes of text) is fed in slices, and
      // the worker looks at its messages between them every PROGRESS_EVERY_MS: a stream's
      // buffered chunks resolve read() as microtasks, so without the yield a cancel()
      // message would wait for the file's end.
      const text = decoder.decode(value, { stream: true });
      for (let at = 0; at < text.length && reader.fatal === null; at += SLICE) {
        reader.feed(text.length <= SLICE ? text : text.slice(at, at + SLICE));
        const now = performance.now();
        if (now - lastReport >= PROGRESS_EVERY_MS) {
          lastReport = now;
          tell(onProgress, bytesRead, total);
          await yieldToMessages();
          if (cancelled === mine) break;
        }
      }
      if (reader.fatal !== null) {
        await chunks.cancel().catch(() => undefined);
        break;
      }
    }
  } catch (e) {
    if (cancelled === mine) return { kind: 'cancelled', bytesRead };
    const why = e instanceof Error ? e.message : String(e);
    if (gzip) {
      const truncated = bytesRead >= total || /truncat|unexpected end|incomplete/i.test(why);
      return {
        kind: 'error',
        message: truncated
          ? `${name}: the gzip file is truncated (it ends in the middle of the compressed data); the figures would be incomplete`
          : `${name}: the gzip data is corrupt (${why}); the figures would be incomplete`,
      };
    }
    return { kind: 'error', message: `${name}: the file could not be read (${why})` };
  }
  if (reader.fatal === null) reader.feed(decoder.decode());
  if (cancelled === mine) return { kind: 'cancelled', bytesRead };
  // the end-of-file work (the last windows released, the summary, replay's requests, the
  // pictures) in steps, with the messages looked at between them
  const reading = reader.end();
  await yieldToMessages();
  if (cancelled === mine) return { kind: 'cancelled', bytesRead };
  if (reading.fatal !== null) return { kind: 'error', message: `${name}: ${reading.fatal}` };
  tell(onProgress, total, total);
  const drawn = summaryOnly === null ? await pictures(reading, () => cancelled === mine) : {};
  if (drawn === null) return { kind: 'cancelled', bytesRead };

  // a later open() has begun: it, not this one, is the trace the page will show
  if (mine !== generation) return { kind: 'cancelled', bytesRead };
  current = summaryOnly === null ? reading : null;
  const traced = reading.messageScheduler;
  return {
    kind: 'ok',
    overview: {
      name,
      bytes: total,
      gzip,
      chars: reading.stats.chars,
      parseMs: performance.now() - started,
      report: reading.report,
      summaryOnly,
      pictures: drawn,
      replayable: [...reading.devices.values()].filter((d) => d.qs.length > 0).map((d) => d.dev),
      tracedScheduler: traced,
      suggestedScheduler: traced !== null ? (SCHEDULER_MAP[traced]?.simulated ?? null) : null,
      nearestScheduler: Object.fromEntries(
        Object.entries(SCHEDULER_MAP).map(([k, v]) => [k, v.simulated]),
      ),
      schedulers: elevatorNames(),
      presets: presetNames(),
    },
  };
}

interface Reader {
  feed(chunk: string): void;
  readonly fatal: string | null;
  end(): TraceReading;
}

/** The summary alone (TraceParser, bounded memory), in the shape of a reading with no requests. */
class SummaryReader implements Reader {
  private readonly parser = new TraceParser();
  feed(chunk: string): void {
    this.parser.feed(chunk);
  }
  get fatal(): string | null {
    return this.parser.fatal;
  }
  end(): TraceReading {
    const { report, fatal, stats } = this.parser.end();
    return { report, stats, fatal, devices: new Map(), messageScheduler: null };
  }
}

/** gzip's ISIZE trailer: the uncompressed size mod 2^32 */
async function gzipSize(blob: Blob): Promise<number> {
  if (blob.size < 18) return 0;
  const tail = new DataView(await blob.slice(blob.size - 4).arrayBuffer());
  return tail.getUint32(0, true);
}

/** Let queued messages (cancel) run: a MessageChannel round trip, no timer clamping. */
function yieldToMessages(): Promise<void> {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      ch.port1.close();
      resolve();
    };
    ch.port2.postMessage(null);
  });
}

/** Progress to the page, not awaited (its answer is not needed to go on). */
function tell(onProgress: ProgressFn | undefined, read: number, total: number): void {
  if (onProgress === undefined) return;
  void Promise.resolve(onProgress(read, total)).catch(() => undefined);
}

/** Each Q with data at the time the kernel dispatched it (its first D), by sector; a device
 * at a time, the worker's messages looked at between them (null: cancelled meanwhile). */
async function pictures(
  reading: TraceReading,
  stop: () => boolean,
): Promise<Record<string, LbaPicture> | null> {
  const out: Record<string, LbaPicture> = {};
  const devs = [...reading.devices.values()];
  const draw = (list: typeof devs): LbaPicture => {
    let t0 = Infinity;
    let t1 = -Infinity;
    let s0 = Infinity;
    let s1 = -Infinity;
    let undispatched = 0;
    for (const d of list)
      for (const q of d.qs) {
        if (q.dispatchedNs < 0) {
          undispatched++;
          continue;
        }
        if (q.dispatchedNs < t0) t0 = q.dispatchedNs;
        if (q.dispatchedNs > t1) t1 = q.dispatchedNs;
        if (q.sector < s0) s0 = q.sector;
        if (q.sector + q.nSectors > s1) s1 = q.sector + q.nSectors;
      }
    const w = PICTURE_WIDTH;
    const h = PICTURE_HEIGHT;
    const cells = new Uint8Array(w * h);
    let reads = 0;
    let writes = 0;
    if (t1 >= t0) {
      const tSpan = Math.max(t1 - t0, 1);
      const sSpan = Math.max(s1 - s0, 1);
      for (const d of list)
        for (const q of d.qs) {
          if (q.dispatchedNs < 0) continue;
          const x = Math.min(w - 1, Math.floor(((q.dispatchedNs - t0) / tSpan) * w));
          const y = h - 1 - Math.min(h - 1, Math.floor(((q.sector - s0) / sSpan) * h));
          cells[y * w + x]! |= q.write ? 2 : 1;
          if (q.write) writes++;
          else reads++;
        }
    } else {
      t0 = t1 = s0 = s1 = 0;
    }
    return {
      width: w,
      height: h,
      cells,
      t0: t0 / 1e9,
      t1: t1 / 1e9,
      s0,
      s1,
      reads,
      writes,
      undispatched,
    };
  };
  out.all = draw(devs);
  for (const d of devs) {
    await yieldToMessages();
    if (stop()) return null;
    out[d.dev] = draw([d]);
  }
  return out;
}

function cancel(): void {
  cancelled = generation;
}

function replay(req: ReplayRequest): ReplayOutcome {
  if (current === null) return { kind: 'error', message: 'no trace has been read yet' };
  if (req.diskFiles !== undefined) {
    const read = readDiskSimSet(req.diskFiles);
    const disk = read.disks.find((d) => d.name === req.disk);
    if (disk === undefined)
      return {
        kind: 'error',
        message: `the disk ${req.disk} could not be read again: ${read.errors.join('; ') || 'its .parv is not among its kept files'}`,
      };
    registerDisk(disk.disk.params);
  }
  try {
    const report = replayTrace(current, {
      device: req.device,
      scheduler: req.scheduler,
      disk: req.disk,
      kernel: req.kernel,
      mode: req.mode,
      ...(req.meta !== null ? { meta: req.meta } : {}),
    });
    return { kind: 'ok', report };
  } catch (e) {
    if (e instanceof ReplayError || e instanceof ScenarioError)
      return { kind: 'error', message: e.message.replace(/--device /g, 'device ') };
    return {
      kind: 'error',
      message: `the replay failed: ${e instanceof Error ? e.message : String(e)}`,
    };
  }
}

const api = { open, cancel, replay };
export type TraceApi = typeof api;
expose(api);
