// `spindle parse <trace.txt|.gz|-> [--device MAJ,MIN] [--json]`: the trace summary —
// blkparse's end-of-run figures and btt's latency rows — read streaming: the file (or stdin)
// is read in chunks (a plain file synchronously, readPlainFile), gunzipped by zlib when it is
// gzip (by name or by its magic bytes), decoded as UTF-8 (ASCII as it is: bytesFeeder) and
// fed to the engine's parser, so memory stays bounded on any size.
import { isAscii } from 'node:buffer';
import { closeSync, createReadStream, openSync, readSync, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { Gunzip } from 'node:zlib';
import { TraceParser, type ParseReport } from '../src/engine/trace/parse';
import { flag, onePositional, parseArgs, single } from './args';
import { TraceInputError, UsageError } from './errors';

export async function parseCommand(
  argv: readonly string[],
  print: (text: string) => void,
  stdin: Readable = process.stdin,
): Promise<void> {
  const a = parseArgs('parse', argv, { json: { value: false }, device: { value: true } });
  const path = onePositional(a, 'parse', 'trace file (or - for standard input)');
  const device = single(a, 'device');
  if (device !== undefined && device !== 'all' && !/^\d+,\d+$/.test(device))
    throw new UsageError(`--device ${device}: give it as MAJOR,MINOR (e.g. 8,0) or "all"`);
  const only = device === undefined || device === 'all' ? undefined : device;

  let st: Stats | null = null;
  if (path !== '-') {
    st = await stat(path).catch((e: NodeJS.ErrnoException) => {
      throw new UsageError(`${path}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`);
    });
    if (st.isDirectory()) throw new UsageError(`${path} is a directory, not a trace file`);
  }
  const parser = new TraceParser(only === undefined ? {} : { device: only });
  // standard input, pipes and gzip files stream; a plain file was read by readPlainFile
  if (st === null || !st.isFile() || !readPlainFile(path, parser)) {
    // zlib is loaded by the commands that read traces, not at every start-up (issue 19)
    const { createGunzip } = await import('node:zlib');
    const source = path === '-' ? stdin : createReadStream(path, { highWaterMark: 1 << 20 });
    await feedStream(source, parser, path, createGunzip);
  }
  const { report, fatal } = parser.end();
  if (fatal !== null) throw new TraceInputError(`${path}: ${fatal}`);
  if (only !== undefined && !report.devices.includes(only)) {
    throw new UsageError(
      `--device ${only}: not in the trace (devices: ${report.devices.join(' ')})`,
    );
  }
  print(flag(a, 'json') ? JSON.stringify(report, null, 1) : text(report, path));
}

/** a plain file's reads: one window of the parser's (ASCII_WINDOW), so that each read's bytes
 * are still in the processor's cache when they are checked, copied and scanned */
const FILE_CHUNK = 1 << 16;

/**
 * A regular file, read synchronously into one reused buffer and fed as it comes (issue 19).
 * The stream it replaces waited for a thread-pool read at every chunk (the process sat idle
 * about a fifth of its time) and filled a new buffer each time. Returns false, having fed
 * nothing, when the file is gzip-compressed: the stream path reads that.
 */
function readPlainFile(path: string, parser: TraceParser): boolean {
  const unreadable = (e: NodeJS.ErrnoException): UsageError =>
    new UsageError(`${path}: ${e.code === 'EACCES' ? 'permission denied' : e.message}`);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    throw unreadable(e as NodeJS.ErrnoException);
  }
  try {
    const buf = Buffer.allocUnsafeSlow(FILE_CHUNK);
    const read = (): number => {
      try {
        return readSync(fd, buf, 0, FILE_CHUNK, null);
      } catch (e) {
        throw unreadable(e as NodeJS.ErrnoException);
      }
    };
    let n = read();
    if (n >= 2 && buf[0] === 0x1f && buf[1] === 0x8b) return false;
    const feed = bytesFeeder(parser);
    // the parser keeps nothing of a chunk's bytes, so the buffer is refilled at once
    for (; n > 0 && parser.fatal === null; n = read()) feed(buf.subarray(0, n));
    feed(null);
    return true;
  } finally {
    closeSync(fd);
  }
}

async function feedStream(
  source: Readable,
  parser: TraceParser,
  path: string,
  createGunzip: (options: { chunkSize: number }) => Gunzip,
): Promise<void> {
  const feedBytes = bytesFeeder(parser);
  let gunzip: Gunzip | null = null;
  let first = true;
  let compressedBytes = 0;
  const done = new Promise<void>((resolve, reject) => {
    const fail = (e: Error): void => reject(e);
    source.on('error', (e: NodeJS.ErrnoException) =>
      fail(new UsageError(`${path}: ${e.code === 'EACCES' ? 'permission denied' : e.message}`)),
    );
    source.on('data', (chunk: Buffer | string) => {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      if (first) {
        first = false;
        if (buf.length >= 2 && buf[0] === 0x1f && buf[1] === 0x8b) {
          gunzip = createGunzip({ chunkSize: 1 << 20 });
          gunzip.on('data', feedBytes);
          gunzip.on('error', (e: NodeJS.ErrnoException) => {
            const why =
              e.code === 'Z_BUF_ERROR' || /unexpected end/i.test(e.message)
                ? 'the gzip file is truncated (it ends in the middle of the compressed data)'
                : `the gzip data is corrupt (${e.message})`;
            fail(new TraceInputError(`${path}: ${why}; the figures would be incomplete`));
          });
          gunzip.on('end', () => resolve());
        }
      }
      if (gunzip) {
        compressedBytes += buf.length;
        if (!gunzip.write(buf)) {
          source.pause();
          gunzip.once('drain', () => source.resume());
        }
      } else {
        feedBytes(buf);
        if (parser.fatal !== null) source.destroy();
      }
    });
    source.on('close', () => {
      if (!gunzip && parser.fatal !== null) resolve();
    });
    source.on('end', () => {
      if (gunzip) gunzip.end();
      else resolve();
    });
  });
  await done;
  void compressedBytes;
  feedBytes(null);
}

/** ASCII chunks go in 64 KiB at a time, as the engine scans a decoded chunk (stream.ts):
 * small strings, collected young, and each window's bytes still in cache when scanned */
const ASCII_WINDOW = 1 << 16;

/**
 * Bytes → the parser. An ASCII chunk (nearly every chunk of every trace) goes in as it is:
 * its bytes are the codes the parser scans and its text a Latin-1 copy (a memcpy), so it
 * is neither UTF-8-decoded nor re-encoded (issue 19). Any other chunk is decoded as UTF-8
 * (bad bytes read as U+FFFD), streaming: a character split between chunks is joined. The
 * decoder holds nothing back after a chunk that ends in an ASCII byte, so an ASCII chunk
 * may skip it only then; one that follows a chunk ending mid-character goes through it.
 * `null`: the input ended.
 */
export function bytesFeeder(parser: TraceParser): (buf: Buffer | null) => void {
  // made at the first non-ASCII chunk; it drops a byte-order mark only at the input's start
  let decoder: InstanceType<typeof TextDecoder> | null = null;
  let decoderEmpty = true;
  let started = false;
  return (buf) => {
    if (parser.fatal !== null) return;
    if (buf === null) {
      if (decoder !== null) parser.feed(decoder.decode());
    } else if (decoderEmpty && isAscii(buf)) {
      const bytes = asPlainBytes(buf);
      for (let at = 0; at < buf.length; at += ASCII_WINDOW) {
        const end = Math.min(buf.length, at + ASCII_WINDOW);
        parser.feedAscii(buf.toString('latin1', at, end), bytes.subarray(at, end));
      }
      started ||= buf.length > 0;
    } else if (buf.length > 0) {
      decoder ??= new TextDecoder('utf-8', { ignoreBOM: started });
      started = true;
      parser.feed(decoder.decode(buf, { stream: true }));
      decoderEmpty = buf[buf.length - 1]! < 0x80;
    }
  };
}

const fmt = (s: number): string => s.toFixed(9);

function text(r: ParseReport, path: string): string {
  const out: string[] = [];
  out.push(`${path}: ${r.lines} lines, ${r.events} events, ${r.malformed} unreadable`);
  out.push(
    `devices: ${r.devices.join(' ')}${r.device === 'all' ? '' : ` (summarising ${r.device})`}`,
  );
  if (r.otherDevices !== null) out.push(r.otherDevices.note);
  const dir = (name: string, d: ParseReport['reads']): string =>
    `${name}: queued ${d.queued.count} (${d.queued.kib} KiB), dispatched ${d.dispatched.count} (${d.dispatched.kib} KiB), completed ${d.completed.count} (${d.completed.kib} KiB), merges ${d.merges}`;
  out.push(dir('reads ', r.reads), dir('writes', r.writes));
  out.push(
    `throughput: ${r.throughputKiBs.read} KiB/s read, ${r.throughputKiBs.write} KiB/s write`,
  );
  const rows = ['q2q', 'q2g', 'g2i', 'q2m', 'i2d', 'm2d', 'd2c', 'q2c'] as const;
  out.push('btt            MIN           AVG           MAX           N');
  for (const k of rows) {
    const row = r.btt[k];
    if (row.n > 0)
      out.push(
        `${k.toUpperCase()}  ${fmt(row.min).padStart(13)} ${fmt(row.avg).padStart(13)} ${fmt(row.max).padStart(13)} ${String(row.n).padStart(11)}`,
      );
  }
  out.push(`merge ratio #Q/#D: ${r.btt.mergeRatio.toFixed(1)} (${r.btt.merge.q}/${r.btt.merge.d})`);
  for (const p of r.problems) out.push(`line ${p.line}: ${p.reason}: ${p.text}`);
  if (r.malformed > r.problems.length)
    out.push(`… and ${r.malformed - r.problems.length} more unreadable lines`);
  return out.join('\n');
}

/** The bytes as a plain Uint8Array view (no copy): the scanners then see one array type
 * (their own buffers are Uint8Arrays), where a Buffer, a subclass, would make them
 * polymorphic. */
const asPlainBytes = (buf: Buffer): Uint8Array =>
  new Uint8Array(buf.buffer, buf.byteOffset, buf.length);
