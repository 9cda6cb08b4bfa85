// The page's trace session: which file is being read (with its progress), the last trace read
// (kept while a later file fails or is cancelled), what is kept in IndexedDB across a reload,
// and the replay under way. Plain state with subscribers (React reads it through
// useSyncExternalStore); the parsing and replay run in the trace worker.
import { useSyncExternalStore } from 'react';
import {
  createTraceHandle,
  type ReplayOutcome,
  type ReplayRequest,
  type TraceHandle,
  type TraceOverview,
} from '../worker/trace-client';
import {
  keepTrace,
  keptTrace,
  MAX_KEPT_BYTES,
  rememberTraceView,
  traceViewWasOpen,
  type KeepOutcome,
} from './trace-persist';
import { stopsInTime, stoppedText } from './cancel-reading';
import { keptDisks } from './disk-persist';

export interface Notice {
  kind: 'error' | 'info';
  text: string;
}

export interface ReplayState {
  busy: boolean;
  request: ReplayRequest | null;
  outcome: ReplayOutcome | null;
  /** the last replay was cancelled */
  cancelled: boolean;
  /** after a cancel, the worker (restarted) reads the trace again before the next replay */
  preparing: boolean;
}

const NO_REPLAY: ReplayState = {
  busy: false,
  request: null,
  outcome: null,
  cancelled: false,
  preparing: false,
};

export interface TraceSessionState {
  /** the file being read, with bytes read of its size (the compressed size for .gz) */
  reading: { name: string; read: number; total: number } | null;
  overview: TraceOverview | null;
  notice: Notice | null;
  /** whether the trace shown is kept for the next visit */
  keep: KeepOutcome | null;
  /** the trace IndexedDB holds (offered as "Reopen" after a reload) */
  kept: { name: string; size: number } | null;
  viewOpen: boolean;
  replay: ReplayState;
}

export function formatBytes(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)} GB`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} MB`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)} kB`;
  return `${n} bytes`;
}

export class TraceSession {
  private state: TraceSessionState = {
    reading: null,
    overview: null,
    notice: null,
    keep: null,
    kept: null,
    viewOpen: false,
    replay: NO_REPLAY,
  };
  private readonly listeners = new Set<() => void>();
  private readonly worker: TraceHandle;
  /** the open() whose outcome counts (a later one supersedes it) */
  private token = 0;
  private restored = false;
  /** the file of the trace shown (read again after a cancelled replay) */
  private source: { blob: Blob; name: string } | null = null;
  /** the file the worker holds read (null after the worker was stopped) */
  private held: Blob | null = null;
  /** the replay whose outcome counts */
  private replayToken = 0;
  /** the worker's open() under way (cancel waits for it, a while) */
  private opening: Promise<unknown> | null = null;

  constructor(worker: TraceHandle = createTraceHandle()) {
    this.worker = worker;
  }

  get = (): TraceSessionState => this.state;

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  private set(patch: Partial<TraceSessionState>): void {
    this.state = { ...this.state, ...patch };
    for (const fn of this.listeners) fn();
  }

  setViewOpen(open: boolean): void {
    if (this.state.viewOpen === open) return;
    this.set({ viewOpen: open });
    void rememberTraceView(open);
  }

  dismissNotice(): void {
    this.set({ notice: null });
  }

  /** Read a file in the worker; on success it becomes the trace shown (and kept). */
  async open(blob: Blob, name: string, opts: { keep?: boolean } = {}): Promise<void> {
    const keep = opts.keep ?? true;
    if (this.state.reading !== null) await this.cancel();
    if (this.state.replay.busy) {
      // a replay runs to its end inside the worker: stop it rather than wait for it
      this.replayToken++;
      this.stopWorker();
      this.set({ replay: NO_REPLAY });
    }
    const mine = ++this.token;
    this.set({ reading: { name, read: 0, total: blob.size }, notice: null, viewOpen: true });
    void rememberTraceView(true);
    let outcome;
    try {
      const opening = this.worker.open(blob, name, (read, total) => {
        if (mine === this.token && this.state.reading !== null)
          this.set({ reading: { name, read, total } });
      });
      this.opening = opening;
      outcome = await opening;
    } catch (e) {
      outcome = {
        kind: 'error' as const,
        message: `${name}: the trace reader stopped (${e instanceof Error ? e.message : String(e)})`,
      };
    }
    if (mine !== this.token) return;
    if (outcome.kind === 'cancelled') {
      this.set({
        reading: null,
        notice: {
          kind: 'info',
          text: `Reading ${name} was cancelled after ${formatBytes(outcome.bytesRead)} of ${formatBytes(blob.size)}.${this.state.overview ? ` Still showing ${this.state.overview.name}.` : ''}`,
        },
      });
      return;
    }
    if (outcome.kind === 'error') {
      this.set({
        reading: null,
        notice: {
          kind: 'error',
          text: `${outcome.message}${this.state.overview ? `\n(Still showing ${this.state.overview.name}.)` : ''}`,
        },
      });
      return;
    }
    this.set({
      reading: null,
      overview: outcome.overview,
      keep: null,
      replay: NO_REPLAY,
    });
    this.source = { blob, name };
    this.held = blob;
    if (keep) {
      const kept = await keepTrace(blob, name);
      if (mine !== this.token) return;
      this.set({ keep: kept, kept: kept.kept ? { name, size: blob.size } : null });
    } else this.set({ keep: { kept: true } });
  }

  /** Stop the reading under way. The worker sees the message between the steps of its
   * reading (trace.worker.ts); one that has not given up within CANCEL_GRACE_MS (stuck in a
   * step) is terminated, and the next replay reads the trace shown into a new one. */
  async cancel(): Promise<void> {
    const reading = this.state.reading;
    const opening = this.opening;
    if (reading === null || opening === null) return;
    const mine = this.token;
    const inTime = await stopsInTime(opening, () => this.worker.get().cancel());
    if (inTime || mine !== this.token || this.state.reading === null) return;
    this.token++;
    this.stopWorker();
    this.set({
      reading: null,
      notice: {
        kind: 'info',
        text: stoppedText(reading.name, this.state.overview?.name ?? null),
      },
    });
  }

  /** After a reload: offer the kept trace, and read it again if its view was open. */
  async restore(): Promise<void> {
    if (this.restored) return;
    this.restored = true;
    const kept = await keptTrace();
    if (kept === null) return;
    this.set({ kept: { name: kept.name, size: kept.size } });
    if (await traceViewWasOpen()) await this.reopenKept();
  }

  async reopenKept(): Promise<void> {
    const kept = await keptTrace();
    if (kept === null) {
      this.set({
        kept: null,
        viewOpen: true,
        notice: { kind: 'error', text: 'The kept trace is no longer in this browser’s storage.' },
      });
      return;
    }
    await this.open(kept.blob, kept.name, { keep: false });
  }

  async replay(request: ReplayRequest): Promise<void> {
    const r = this.state.replay;
    if (r.busy || r.preparing) return;
    // the worker was stopped (a replay cancelled, an upload that failed after it): read the
    // trace shown into the new worker first
    if (this.source !== null && this.held !== this.source.blob) {
      if (!(await this.readAgain(this.source))) return;
    }
    const mine = ++this.replayToken;
    this.set({ replay: { ...NO_REPLAY, busy: true, request, outcome: r.outcome } });
    let outcome: ReplayOutcome;
    try {
      // a DiskSim disk the user opened travels with its kept files: the trace worker reads it
      const kept = request.disk.startsWith('file:')
        ? (await keptDisks()).find((d) => d.name === request.disk)
        : undefined;
      outcome = await this.worker
        .get()
        .replay(kept !== undefined ? { ...request, diskFiles: kept.files } : request);
    } catch (e) {
      outcome = {
        kind: 'error',
        message: `the replay stopped (${e instanceof Error ? e.message : String(e)})`,
      };
    }
    if (mine !== this.replayToken) return;
    this.set({ replay: { ...NO_REPLAY, request, outcome } });
  }

  /** A replay runs to its end inside the worker: cancelling it stops that worker and reads the
   * trace shown again in a new one (its summary stays on screen meanwhile). */
  async cancelReplay(): Promise<void> {
    if (!this.state.replay.busy || this.source === null) return;
    this.replayToken++;
    const source = this.source;
    this.stopWorker();
    this.set({ replay: { ...NO_REPLAY, cancelled: true } });
    await this.readAgain(source);
  }

  private stopWorker(): void {
    this.worker.terminate();
    this.held = null;
  }

  /** The worker was stopped: read the trace shown into the new one (its summary stays). */
  private async readAgain(source: { blob: Blob; name: string }): Promise<boolean> {
    const mine = ++this.token;
    this.set({ reading: null, replay: { ...this.state.replay, preparing: true } });
    let outcome;
    try {
      outcome = await this.worker.open(source.blob, source.name, () => undefined);
    } catch (e) {
      outcome = { kind: 'error' as const, message: e instanceof Error ? e.message : String(e) };
    }
    if (mine !== this.token) return false; // another file was opened meanwhile
    this.set({ replay: { ...this.state.replay, preparing: false } });
    if (outcome.kind === 'ok') {
      this.held = source.blob;
      return true;
    }
    this.set({
      notice: {
        kind: 'error',
        text: `Reading ${source.name} again failed: ${outcome.kind === 'error' ? outcome.message : 'cancelled'}`,
      },
    });
    return false;
  }

  terminate(): void {
    this.token++;
    this.stopWorker();
  }
}

export { MAX_KEPT_BYTES };

export function useTraceSession(session: TraceSession): TraceSessionState {
  return useSyncExternalStore(session.subscribe, session.get);
}
