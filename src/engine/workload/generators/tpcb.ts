// A TPC-B-like transaction stream (TPC Benchmark B: a bank's debit/credit transaction).
// Each transaction updates one account, its teller and its branch, appends a history row
// and commits. At the block layer, with a database buffer pool in front (chosen where the
// benchmark says nothing about I/O):
//  - the account page is read (sync, 8 KiB: the database page) at a random place in the
//    account table — the one large table — and written back later (async): each terminal's
//    buffer pool holds its last DIRTY_PAGES dirtied account pages (chosen), and the oldest
//    is written back when a transaction dirties a new one;
//  - branch and teller pages stay in the buffer pool; one transaction in 10 writes one of
//    them back (async, checkpoint);
//  - a history page (50-byte rows, 160 to an 8 KiB page) is appended every 160 transactions
//    (async, sequential);
//  - the commit writes the log (sync, 4 KiB, sequential): the terminal waits for it.
// Terminals are the process's instances (default 4, think time 0, as TPC-B drivers run);
// the account table fills the span but its log, history and hot pages; each terminal has
// its own part of the log and history areas (per-thread log buffers).
import { nextFloat } from '../../sim/rng';
import type { GenCommon, GenFamily } from './types';
import { BLOCK, part, randomIn } from './layout';

export interface TpcbSpec extends GenCommon {
  kind: 'tpcb';
  /** think time between transactions, ms */
  thinkMs: number;
}

export const TPCB_TERMINALS = 4;
const PAGE = 16; // 8 KiB
const ROWS_PER_HISTORY_PAGE = 160;
const HOT_WRITEBACK = 0.1;
/** dirty account pages a terminal's buffer pool holds before it writes the oldest back */
export const DIRTY_PAGES = 32;

interface TpcbState {
  accStart: number;
  accSectors: number;
  hotStart: number;
  hotSectors: number;
  histStart: number;
  histSectors: number;
  histCursor: number;
  logStart: number;
  logSectors: number;
  logCursor: number;
  tx: number;
  /** dirty account pages not yet written back, oldest first */
  dirty: number[];
}

export const tpcb: GenFamily<TpcbSpec, TpcbState> = {
  kind: 'tpcb',
  defaultThreads: () => TPCB_TERMINALS,
  depth: () => 1,
  openMeanMs: () => null,
  init(_spec, env) {
    const len = env.spanSectors;
    const at = (frac: number) => Math.floor((len * frac) / PAGE) * PAGE;
    // span: hot pages (1%) · accounts (85%) · history (10%) · log (4%)
    const hot = { start: env.spanStart, sectors: Math.max(PAGE, at(0.01)) };
    const acc = { start: hot.start + hot.sectors, sectors: at(0.85) };
    const hist = part(acc.start + acc.sectors, at(0.1), env.k, env.count);
    const log = part(
      acc.start + acc.sectors + at(0.1),
      len - hot.sectors - acc.sectors - at(0.1),
      env.k,
      env.count,
    );
    return {
      accStart: acc.start,
      accSectors: acc.sectors,
      hotStart: hot.start,
      hotSectors: hot.sectors,
      histStart: hist.start,
      histSectors: hist.sectors,
      histCursor: hist.start,
      logStart: log.start,
      logSectors: log.sectors,
      logCursor: log.start,
      tx: 0,
      dirty: [],
    };
  },
  next(spec, st, _env, rng, out) {
    st.tx++;
    const account = randomIn(rng, st.accStart, st.accSectors, PAGE);
    out.push({ sector: account, nSectors: PAGE, write: false, sync: true, thinkMs: spec.thinkMs });
    st.dirty.push(account);
    if (st.dirty.length > DIRTY_PAGES)
      out.push({ sector: st.dirty.shift()!, nSectors: PAGE, write: true, sync: false, thinkMs: 0 });
    if (nextFloat(rng) < HOT_WRITEBACK)
      out.push({
        sector: randomIn(rng, st.hotStart, st.hotSectors, PAGE),
        nSectors: PAGE,
        write: true,
        sync: false,
        thinkMs: 0,
      });
    if (st.tx % ROWS_PER_HISTORY_PAGE === 0) {
      if (st.histCursor + PAGE > st.histStart + st.histSectors) st.histCursor = st.histStart;
      out.push({ sector: st.histCursor, nSectors: PAGE, write: true, sync: false, thinkMs: 0 });
      st.histCursor += PAGE;
    }
    if (st.logCursor + BLOCK > st.logStart + st.logSectors) st.logCursor = st.logStart;
    out.push({ sector: st.logCursor, nSectors: BLOCK, write: true, sync: true, thinkMs: 0 });
    st.logCursor += BLOCK;
  },
};
