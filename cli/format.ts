// Human-readable output: short aligned tables for `run`, `sweep` and `presets`.
import { processColumns, type RunSummary } from '../src/engine/summary';

/** A number for people: grouped thousands, a few significant decimals — exactly what
 * `x.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d })` gives,
 * without Intl: its first call loads ICU's number formatting, ~10 ms of a 1,000-request
 * `spindle run` (issue 19). Intl rounds the shortest decimal that reads back as x (String(x))
 * half away from zero — 1.005 → "1.01", where toFixed, on the exact binary value, gives
 * "1.00" — so this rounds String(x)'s digits the same way. */
export function num(x: number, decimals = 2): string {
  if (!Number.isFinite(x)) return String(x);
  const digits = String(Math.abs(x));
  if (digits.includes('e') || decimals > 20) return localeNum(x, decimals); // < 1e-6, ≥ 1e21
  const dot = digits.indexOf('.');
  let whole = dot < 0 ? digits : digits.slice(0, dot);
  let frac = dot < 0 ? '' : digits.slice(dot + 1);
  if (frac.length > decimals) {
    const up = frac.charCodeAt(decimals) >= 53; // the first dropped digit is 5 or more
    frac = frac.slice(0, decimals);
    if (up) [whole, frac] = carry(whole, frac);
  }
  frac = frac.padEnd(decimals, '0');
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  return sign + group(whole) + (decimals > 0 ? '.' + frac : '');
}

const localeNum = (x: number, decimals: number): string =>
  x.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });

/** whole.frac plus one unit in frac's last place (decimal strings, any length). */
function carry(whole: string, frac: string): [string, string] {
  const all = (whole + frac).split('');
  let i = all.length - 1;
  for (; i >= 0 && all[i] === '9'; i--) all[i] = '0';
  if (i >= 0) all[i] = String(Number(all[i]) + 1);
  else all.unshift('1');
  const w = all.length - frac.length;
  return [all.slice(0, w).join(''), all.slice(w).join('')];
}

/** "1234567" → "1,234,567" */
function group(whole: string): string {
  let out = '';
  for (let end = whole.length; end > 0; end -= 3)
    out = whole.slice(Math.max(0, end - 3), end) + (out === '' ? '' : ',' + out);
  return out;
}

/** Columns padded to their widest cell. `align` has one letter per column, l or r; by
 * default the first column is left-aligned and the rest (numbers) right-aligned. */
export function table(rows: ReadonlyArray<readonly string[]>, align = ''): string {
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.length)));
  const left = (i: number): boolean => (align[i] ?? (i === 0 ? 'l' : 'r')) === 'l';
  return rows
    .map((r) =>
      r
        .map((c, i) => (left(i) ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

const MAX_PROCESS_ROWS = 20;

export function runReport(s: RunSummary, title: string): string {
  const lat = s.latencyMs;
  const latRow = (name: string, l: RunSummary['latencyMs']['q2c']) => [
    name,
    num(l.mean),
    num(l.p50),
    num(l.p95),
    num(l.p99),
    num(l.max),
  ];
  const p = s.positioningMs;
  const pc = s.pageCache;
  const procs = s.processes
    .slice(0, MAX_PROCESS_ROWS)
    .map((x) => [
      x.name,
      String(x.pid),
      num(x.completed, 0),
      num(x.iops, 1),
      num(x.mbps, 3),
      num(x.q2cMeanMs),
      num(x.q2cMaxMs),
      `${num(x.diskTimeShare * 100, 1)}%`,
      ...(pc ? [x.cached ? num(x.cached.mbps, 3) : '—'] : []),
    ]);
  const more = s.processes.length - procs.length;
  return [
    `${s.scenario} — ${title}`,
    `disk ${s.disk} · drive scheduler ${s.diskScheduler} · queue depth ${s.queueDepth} · I/O scheduler ${s.iosched} · ${s.writePolicy} · seed ${s.seed}`,
    `simulated ${num(s.simulatedTimeMs, 1)} ms · ${num(s.requests.completed, 0)} requests completed` +
      ` (${num(s.requests.cacheHits, 0)} cache hits) · ${num(s.throughput.iops, 1)} IOPS · ${num(s.throughput.mbps, 3)} MB/s`,
    ...(s.budget ? [`note: ${s.budget.note}`] : []),
    '',
    table([
      ['latency (ms)', 'mean', 'p50', 'p95', 'p99', 'max'],
      latRow('Q2C', lat.q2c),
      latRow('Q2D', lat.q2d),
      latRow('D2C', lat.d2c),
    ]),
    '',
    `per request at the media (ms): seek ${num(p.seek)} · rotation ${num(p.rotation)} · transfer ${num(p.transfer)} · overhead ${num(p.overhead)}`,
    ...(pc
      ? [
          `page cache: ${num(pc.readHits, 0)} reads served from memory, ${num(pc.readMisses, 0)} from the disk · ` +
            `${num(pc.pagesDirtied, 0)} pages dirtied, ${num(pc.pagesWritten, 0)} written back ` +
            `(${num(pc.pagesWrittenByWriters, 0)} by the writers themselves), ` +
            `${num(pc.pagesDropped, 0)} dropped dirty, ${num(pc.evicted, 0)} evicted`,
        ]
      : []),
    ...(s.journals ?? []).map(
      (j) =>
        `${'fs' in j ? 'reiserfs journal' : 'ext3 journal (kjournald)'}: ${num(j.commits, 0)} commits` +
        ('fs' in j
          ? ` (sync_supers ${j.bySyncSupers}, reiserfs/0 ${j.byWorkqueue}, the writer ${j.byWriter})`
          : '') +
        ` · ${num(j.orderedPages, 0)} ordered data pages, ${num(j.logBlocks, 0)} log blocks` +
        ('fs' in j
          ? ` · ${num(j.flushes, 0)} in-place flushes (${num(j.inPlaceBlocks, 0)} blocks)`
          : ` · ${num(j.logFull, 0)} overran the log`),
    ),
    '',
    table([processColumns(pc !== undefined), ...procs]),
    ...(more > 0 ? [`… and ${more} more (see --json)`] : []),
  ].join('\n');
}
