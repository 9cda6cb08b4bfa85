// A trace's meta.json (the shared corpus's, tests/data/linux-6.18/*/meta.json): the facts
// about the traced system beside the text that replay takes from it. The CLI reads the file
// beside the trace; the page reads one the user adds beside the upload. Both parse it here,
// and the page says, fact by fact, what a replay without it uses instead.
import type { TraceMeta } from './replay-mapping';

/** The facts replay takes from a parsed meta.json; anything else in it is ignored. */
export function traceMetaOf(json: unknown): TraceMeta {
  if (typeof json !== 'object' || json === null) return {};
  const o = json as {
    scheduler?: unknown;
    device?: {
      rotational?: unknown;
      max_sectors_kb?: unknown;
      nr_requests?: unknown;
      write_cache?: unknown;
      fua?: unknown;
    };
  };
  const meta: TraceMeta = {};
  if (typeof o.scheduler === 'string') meta.scheduler = o.scheduler;
  if (typeof o.device?.rotational === 'number') meta.rotational = o.device.rotational;
  if (typeof o.device?.max_sectors_kb === 'number') meta.maxSectorsKb = o.device.max_sectors_kb;
  if (typeof o.device?.nr_requests === 'number') meta.nrRequests = o.device.nr_requests;
  const wc = o.device?.write_cache;
  if (wc === 'write back' || wc === 'write through') meta.writeCache = wc;
  if (o.device?.fua === 0 || o.device?.fua === 1) meta.fua = o.device.fua;
  return meta;
}

export interface MetaFact {
  key: keyof TraceMeta;
  /** where it is in meta.json */
  field: string;
  /** what replay does with it */
  sets: string;
  /** what a replay without it uses */
  without: string;
}

export const META_FACTS: readonly MetaFact[] = [
  {
    key: 'scheduler',
    field: 'scheduler',
    sets: 'the traced scheduler, and the nearest Spindle one replayed by default',
    without: 'the trace’s own BFQ or CFQ messages if it has them, else unknown',
  },
  {
    key: 'rotational',
    field: 'device.rotational',
    sets: 'whether the traced device rotates (the fitted device’s model, the preset for a trace too short to fit)',
    without: 'taken as rotating',
  },
  {
    key: 'maxSectorsKb',
    field: 'device.max_sectors_kb',
    sets: 'the largest request: bios split and merges stop at it',
    without: 'Spindle’s default, 512 KiB',
  },
  {
    key: 'nrRequests',
    field: 'device.nr_requests',
    sets: 'kernel 6.18’s tag pool',
    without: 'the kernel’s default for the queue depth',
  },
  {
    key: 'writeCache',
    field: 'device.write_cache',
    sets: 'whether the fitted device has a volatile write cache: preflush and FUA writes go through kernel 6.18’s flush machinery',
    without: 'a write cache if the trace has flush commands (D FN), else none',
  },
  {
    key: 'fua',
    field: 'device.fua',
    sets: 'whether the fitted device does FUA writes itself (no flush after them)',
    without: 'FUA if the trace dispatches a FUA write’s data with its F, else none',
  },
];
