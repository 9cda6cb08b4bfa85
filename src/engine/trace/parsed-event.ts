// The event the trace parser makes of one line (parse-line.ts), and the two ways of filling
// one: a new object, or an old one refilled — every field in the same order either way, so
// all events share one object shape (fast property access).

import type { ParsedAction } from './actions';

export type LineFormat = 'blkparse' | 'ftrace-classic' | 'ftrace';

export interface ParsedEvent {
  /** 1-based line number in the input */
  line: number;
  format: LineFormat;
  /** "maj,min" as printed (the target device for A) */
  dev: string;
  cpu: number;
  /** per-CPU sequence number; 0 on message lines; −1 when the layout has none */
  seq: number;
  /** time since the start of the trace (ftrace: the clock's value), integer nanoseconds */
  tNs: number;
  pid: number;
  /** the `ino,gen` cgroup column of newer blkparse, when printed */
  cgroup?: string;
  action: ParsedAction;
  rwbs: string;
  /** blkparse's direction (the WRITE category bit): W or D (discard) main letter */
  write: boolean;
  /** −1 when the line prints none (plug lines, an empty flush `Q FWS [sync]`) */
  sector: number;
  /** 512-byte blocks; 0 when none printed */
  nSectors: number;
  /** process name in brackets (not on C/R, which carry the error) */
  comm?: string;
  /** C/R: the error value in brackets (0 = success) */
  error?: number;
  /** U/UT: the number of requests flushed */
  count?: number;
  /** m: the message text */
  message?: string;
  /** X: the sector where the second part starts */
  splitSector?: number;
  /** A: where the bio came from */
  remapDev?: string;
  remapSector?: number;
  /** SCSI pass-through (pc) request: bytes (I/D/Q) and the command bytes as printed */
  pc?: { bytes: number; cdb: string };
  /** `blkparse -t`: the elapsed time printed in parentheses, ns */
  elapsedNs?: number;
}

export function newEvent(
  line: number,
  format: LineFormat,
  dev: string,
  cpu: number,
  seq: number,
  tNs: number,
  pid: number,
  cgroup: string | undefined,
): ParsedEvent {
  return {
    line,
    format,
    dev,
    cpu,
    seq,
    tNs,
    pid,
    action: 'm', // set by actionAndPayload (action-payload.ts)
    rwbs: '',
    write: false,
    sector: -1,
    nSectors: 0,
    // every field present from the start: one object shape for all events (fast property access)
    cgroup,
    comm: undefined,
    error: undefined,
    count: undefined,
    message: undefined,
    splitSector: undefined,
    remapDev: undefined,
    remapSector: undefined,
    pc: undefined,
    elapsedNs: undefined,
  };
}

/** newEvent's values, written into an existing event (every field, in the same order) */
export function refill(
  ev: ParsedEvent,
  line: number,
  format: LineFormat,
  dev: string,
  cpu: number,
  seq: number,
  tNs: number,
  pid: number,
  cgroup: string | undefined,
): ParsedEvent {
  ev.line = line;
  ev.format = format;
  ev.dev = dev;
  ev.cpu = cpu;
  ev.seq = seq;
  ev.tNs = tNs;
  ev.pid = pid;
  ev.action = 'm';
  ev.rwbs = '';
  ev.write = false;
  ev.sector = -1;
  ev.nSectors = 0;
  ev.cgroup = cgroup;
  ev.comm = undefined;
  ev.error = undefined;
  ev.count = undefined;
  ev.message = undefined;
  ev.splitSector = undefined;
  ev.remapDev = undefined;
  ev.remapSector = undefined;
  ev.pc = undefined;
  ev.elapsedNs = undefined;
  return ev;
}
