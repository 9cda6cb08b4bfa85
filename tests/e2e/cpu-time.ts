// CPU time of the browser this test process started, from Linux /proc, and of the page's
// longest main-thread task, from Chromium's trace: figures the machine's
// load does not stretch (wall-clock frame and task times do, on a shared machine). A
// renderer's main thread is its process's first thread (tid = pid), so the page's main-thread
// CPU is read apart from its compositor, raster and worker threads and the other processes.
import { readdirSync, readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';

/** /proc's clock ticks per second (USER_HZ, 100 on Linux). */
const TICK_MS = 10;

export interface BrowserCpu {
  /** ms of CPU of every renderer's main thread (one page open: the page's main thread) */
  main: number;
  /** ms of CPU of every process of the browser (renderer, GPU/viz, network, workers) */
  all: number;
}

function read(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null; // the process or thread has gone
  }
}

/** utime + stime of a /proc stat line, in ticks (fields 14 and 15; the name may hold spaces). */
function ticks(stat: string): number {
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(f[11]) + Number(f[12]);
}

/** The processes descended from this one (the browser and its children). */
function descendants(): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = read(`/proc/${name}/stat`);
    if (!stat) continue;
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    parent.set(Number(name), Number(f[1]));
  }
  const out: number[] = [];
  const isOurs = (pid: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p))
      if (p === process.pid) return true;
    return false;
  };
  for (const pid of parent.keys()) if (isOurs(pid)) out.push(pid);
  return out;
}

/** CPU used so far by the browser's processes and its renderers' main threads; null where
 * there is no /proc (not Linux). */
export function browserCpu(): BrowserCpu | null {
  if (read('/proc/self/stat') === null) return null;
  let main = 0;
  let all = 0;
  for (const pid of descendants()) {
    const stat = read(`/proc/${pid}/stat`);
    if (!stat) continue;
    all += ticks(stat);
    if (!read(`/proc/${pid}/cmdline`)?.includes('--type=renderer')) continue;
    const t = read(`/proc/${pid}/task/${pid}/stat`);
    if (t) main += ticks(t);
  }
  return { main: main * TICK_MS, all: all * TICK_MS };
}

/** CPU used between two readings (ms). */
export function cpuBetween(a: BrowserCpu | null, b: BrowserCpu | null): BrowserCpu | null {
  return a && b ? { main: b.main - a.main, all: b.all - a.all } : null;
}

interface TraceEvent {
  name: string;
  cat?: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/** One top-level task of the page's main thread, from Chromium's trace (ms; `start` on the
 * trace's clock, comparable only with the same trace's marks). */
export interface MainTask {
  start: number;
  wall: number;
  cpu: number;
}

/**
 * Run `act` under a Chromium trace of top-level tasks and user-timing marks. Returns the
 * page's main-thread tasks, and the trace-clock time (ms) of each `performance.mark()` the
 * page made meanwhile, by name, so a test can tell its own actions (screenshots) apart.
 */
export async function mainTasksTraced(
  browser: Browser,
  page: Page,
  act: () => Promise<void>,
): Promise<{ tasks: MainTask[]; marks: Map<string, number[]> }> {
  await browser.startTracing(page, { categories: ['toplevel', 'blink.user_timing'] });
  await act();
  const trace = JSON.parse((await browser.stopTracing()).toString()) as {
    traceEvents: TraceEvent[];
  };
  const ev = trace.traceEvents;
  const mains = ev.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const tasks: MainTask[] = [];
  const marks = new Map<string, number[]>();
  for (const e of ev) {
    if (e.cat === 'blink.user_timing' && (e.ph === 'R' || e.ph === 'I' || e.ph === 'n')) {
      marks.set(e.name, [...(marks.get(e.name) ?? []), e.ts / 1000]);
      continue;
    }
    if (e.ph !== 'X' || (e.name !== 'RunTask' && e.name !== 'ThreadControllerImpl::RunTask'))
      continue;
    if (!mains.some((m) => m.pid === e.pid && m.tid === e.tid)) continue;
    tasks.push({ start: e.ts / 1000, wall: (e.dur ?? 0) / 1000, cpu: (e.tdur ?? 0) / 1000 });
  }
  return { tasks, marks };
}

/**
 * Run `act` under a Chromium trace of top-level tasks and return the page's longest
 * main-thread task in it: its wall time and its thread (CPU) time, ms. The CPU time is what
 * the task cost, whatever the machine's load; the wall time is what a user waited.
 */
export async function longestTaskTraced(
  browser: Browser,
  page: Page,
  act: () => Promise<void>,
): Promise<{ wall: number; cpu: number }> {
  const { tasks } = await mainTasksTraced(browser, page, act);
  return {
    wall: Math.max(0, ...tasks.map((t) => t.wall)),
    cpu: Math.max(0, ...tasks.map((t) => t.cpu)),
  };
}
