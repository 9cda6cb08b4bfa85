// A 1 GiB trace is processed streaming with bounded memory (issue 4, "speed and scale"):
// 1 GiB of generated blkparse text is piped into the real CLI (`spindle parse -`) running
// with a 96 MiB V8 heap. Holding the text, or anything per event, would exhaust that heap
// and crash the process; the counts it prints must equal what was written.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ParseReport } from '../../src/engine/trace/parse';

const GiB = Number(process.env.SPINDLE_PARSE_BYTES ?? 1024 ** 3);

/** I/Os per generated second: one every 100 µs. */
const PER_SECOND = 10_000;
const SECONDS = '\u0000';

/**
 * One second of trace: each I/O as Q G I D C lines (sequential 4 KiB reads from two
 * processes), with the whole seconds left as a placeholder, so second k's text is
 * `parts.join(String(k))` — cheap enough to write 1 GiB in seconds.
 */
function secondTemplate(): string[] {
  let text = '';
  for (let i = 0; i < PER_SECOND; i++) {
    const t = `${SECONDS}.${String(i * 100_000).padStart(9, '0')}`;
    const sector = 1000 + i * 8;
    const cpu = i & 1;
    const pid = 1000 + cpu;
    const head = (n: number, p: number) => `  8,0 ${cpu} ${5 * i + n} ${t} ${p}`;
    text +=
      `${head(1, pid)}  Q   R ${sector} + 8 [fio]\n` +
      `${head(2, pid)}  G   R ${sector} + 8 [fio]\n` +
      `${head(3, pid)}  I   R ${sector} + 8 [fio]\n` +
      `${head(4, pid)}  D   R ${sector} + 8 [fio]\n` +
      `${head(5, 0)}  C   R ${sector} + 8 [0]\n`;
  }
  return text.split(SECONDS);
}

describe('spindle parse: a 1 GiB trace streams through a 96 MiB heap', () => {
  it('counts every I/O of 1 GiB of text, piped to standard input', async () => {
    const cli = resolve('bin/spindle.mjs');
    const child = spawn(
      process.execPath,
      ['--max-old-space-size=96', cli, 'parse', '-', '--json'],
      {
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    const exited = new Promise<number>((done) => child.on('close', (code) => done(code ?? -1)));

    const parts = secondTemplate();
    let bytes = 0;
    let ios = 0;
    const write = (s: string) =>
      new Promise<void>((done) => {
        if (child.stdin.write(s)) done();
        else child.stdin.once('drain', done);
      });
    for (let k = 0; bytes < GiB; k++) {
      const second = parts.join(String(k));
      bytes += second.length;
      ios += PER_SECOND;
      await write(second);
    }
    child.stdin.end();

    expect(await exited, err).toBe(0);
    const r = JSON.parse(out) as ParseReport;
    expect(r.malformed).toBe(0);
    expect(r.lines).toBe(5 * ios);
    expect(r.reads.queued.count).toBe(ios);
    expect(r.reads.completed).toEqual({ count: ios, kib: 4 * ios });
    expect(r.btt.q2c.n).toBe(ios);
    expect(bytes).toBeGreaterThanOrEqual(GiB);
  }, 600_000);
});
