// The last uploaded trace, kept in IndexedDB (persist.ts) so that it survives a reload: the
// file's own bytes (text or gzip, as uploaded) up to MAX_KEPT_BYTES, with its name; above the
// cap nothing is kept and the page says so. Whether the trace view was open is kept too, so a
// reload reopens it.
import { kvDelete, kvGet, kvSet } from './persist';

/** 200 MiB: a larger trace is parsed, not kept (IndexedDB quota and reload time). */
export const MAX_KEPT_BYTES = 200 * 1024 * 1024;

const TRACE_KEY = 'trace.last';
const VIEW_KEY = 'trace.viewOpen';

export interface KeptTrace {
  name: string;
  size: number;
  savedAt: number;
  blob: Blob;
}

export type KeepOutcome = { kept: true } | { kept: false; reason: 'too large' | 'storage refused' };

/** Keep this file as the last trace (replacing the one kept before). */
export async function keepTrace(blob: Blob, name: string): Promise<KeepOutcome> {
  if (blob.size > MAX_KEPT_BYTES) {
    // the earlier trace is no longer the last one uploaded
    await kvDelete(TRACE_KEY);
    return { kept: false, reason: 'too large' };
  }
  const value: KeptTrace = { name, size: blob.size, savedAt: Date.now(), blob };
  return (await kvSet(TRACE_KEY, value))
    ? { kept: true }
    : { kept: false, reason: 'storage refused' };
}

export async function keptTrace(): Promise<KeptTrace | null> {
  const v = await kvGet<KeptTrace>(TRACE_KEY);
  if (v === undefined || v === null || typeof v !== 'object' || !(v.blob instanceof Blob))
    return null;
  return v;
}

export function forgetTrace(): Promise<boolean> {
  return kvDelete(TRACE_KEY);
}

export async function traceViewWasOpen(): Promise<boolean> {
  return (await kvGet<boolean>(VIEW_KEY)) === true;
}

export function rememberTraceView(open: boolean): Promise<boolean> {
  return kvSet(VIEW_KEY, open);
}
