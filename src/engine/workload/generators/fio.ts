// The six fio jobs of Bautista et al. ("Workload-dependent Dynamic Disk I/O Scheduler
// Selection"): file-server, oltp, rand-read, rand-write, seq-read, seq-write.
//
// Where the numbers come from. The paper names the six jobs and runs them back to back;
// its job files were not available to this session, so each job follows the usual
// definition of its name, and every choice is stated here:
//  - I/O is buffered (fio's default, direct=0). So the block layer sees what the page cache
//    sends: a sequential reader's reads arrive as read-ahead windows of read_ahead_kb
//    = 128 KiB (the 2.6 default), buffered writes arrive as 4 KiB async pages that the
//    scheduler merges, and random reads stay the job's block size (read-ahead does not
//    grow on random access).
//  - file-server: fio's iometer-file-access-server job (bssplit 512 B 10%, 1 KiB 5%, 2 KiB
//    5%, 4 KiB 60%, 8 KiB 2%, 16 KiB 4%, 32 KiB 4%, 64 KiB 10%; rwmixread 80; random).
//  - oltp: 8 KiB random (a database page), 70% reads; writes are synchronous (a database
//    writes with O_SYNC / fsync), so the thread waits for them.
//  - rand-read / rand-write: 4 KiB random (fio's default bs); the writes buffered (async).
//  - seq-read / seq-write: sequential through the thread's file.
//  - numjobs 4 (chosen: the paper's count was not available; four threads make the
//    schedulers' differences visible — anticipation, time slices — without long runs).
//  - each thread works in its own file: the process's span split in `count` parts
//    (fio's size per job); `fileMiB` caps it (default: the whole part).
import { nextFloat, type Rng } from '../../sim/rng';
import type { GenCommon, GenEnv, GenFamily, Step } from './types';
import { kib, pickWeighted, randomIn } from './layout';

export const FIO_JOBS = [
  'file-server',
  'oltp',
  'rand-read',
  'rand-write',
  'seq-read',
  'seq-write',
] as const;
export type FioJob = (typeof FIO_JOBS)[number];

interface JobDef {
  pattern: 'random' | 'sequential';
  /** fraction of reads */
  read: number;
  /** block sizes in KiB with weights (fio bssplit) */
  sizes: ReadonlyArray<readonly [kib: number, weight: number]>;
  /** writes the thread waits for (O_SYNC) rather than buffered */
  syncWrites: boolean;
}

/** read_ahead_kb: the 2.6 default read-ahead window, what a sequential buffered read sends */
export const READ_AHEAD_KIB = 128;

export const FIO_JOB_DEFS: Record<FioJob, JobDef> = {
  'file-server': {
    pattern: 'random',
    read: 0.8,
    sizes: [
      [0.5, 10],
      [1, 5],
      [2, 5],
      [4, 60],
      [8, 2],
      [16, 4],
      [32, 4],
      [64, 10],
    ],
    syncWrites: false,
  },
  oltp: { pattern: 'random', read: 0.7, sizes: [[8, 1]], syncWrites: true },
  'rand-read': { pattern: 'random', read: 1, sizes: [[4, 1]], syncWrites: false },
  'rand-write': { pattern: 'random', read: 0, sizes: [[4, 1]], syncWrites: false },
  'seq-read': { pattern: 'sequential', read: 1, sizes: [[READ_AHEAD_KIB, 1]], syncWrites: false },
  // buffered sequential writes leave the page cache as 4 KiB pages, merged by the scheduler
  'seq-write': { pattern: 'sequential', read: 0, sizes: [[4, 1]], syncWrites: false },
};

export interface FioSpec extends GenCommon {
  kind: 'fio';
  job: FioJob;
  /** each thread's file, MiB; null = the thread's whole part of the span */
  fileMiB: number | null;
  /** sync requests each thread keeps in flight (fio iodepth) */
  iodepth: number;
}

interface FioState {
  fileStart: number;
  fileSectors: number;
  /** next sector of a sequential job */
  cursor: number;
}

export const FIO_THREADS = 4;

export const fio: GenFamily<FioSpec, FioState> = {
  kind: 'fio',
  defaultThreads: () => FIO_THREADS,
  depth: (spec) => spec.iodepth,
  openMeanMs: () => null,
  init(spec, env) {
    const fileSectors =
      spec.fileMiB === null ? env.regionSectors : Math.min(env.regionSectors, spec.fileMiB * 2048);
    return { fileStart: env.regionStart, fileSectors, cursor: env.regionStart };
  },
  next(spec, st, _env: GenEnv, rng: Rng, out: Step[]) {
    const def = FIO_JOB_DEFS[spec.job];
    const write = def.read < 1 && (def.read === 0 || nextFloat(rng) >= def.read);
    const sizeKiB =
      def.sizes.length === 1
        ? def.sizes[0]![0]
        : def.sizes[
            pickWeighted(
              rng,
              def.sizes.map((s) => s[1]),
            )
          ]![0];
    const n = Math.min(kib(sizeKiB), st.fileSectors);
    let sector: number;
    if (def.pattern === 'sequential') {
      if (st.cursor + n > st.fileStart + st.fileSectors) st.cursor = st.fileStart; // loops=N
      sector = st.cursor;
      st.cursor += n;
    } else {
      sector = randomIn(rng, st.fileStart, st.fileSectors, n);
    }
    out.push({ sector, nSectors: n, write, sync: !write || def.syncWrites, thinkMs: 0 });
  },
};
