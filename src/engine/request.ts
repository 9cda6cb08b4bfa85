// One I/O request's life, from the process that queued it (Q) to its completion (C).
// Times are ns; −1 means "not yet". Plain data: lives in the simulation state.

export interface IoRequest {
  id: number;
  /** the issuing process instance (index into the workload's instances) and its pid */
  proc: number;
  pid: number;
  write: boolean;
  sync: boolean;
  /** first sector (LBN) and length in 512-byte sectors */
  sector: number;
  nSectors: number;
  /** a drive-internal job (write-back destage), never seen by the host */
  internal: boolean;

  /** blktrace milestones */
  queuedNs: number; // Q
  dispatchedNs: number; // D: handed to the drive
  completedNs: number; // C

  /** inside the drive */
  eligibleNs: number; // command processed; the mechanism may start it
  dataReadyNs: number; // a write's first sector of data is in the drive's buffer
  startNs: number; // the mechanism started positioning for it
  seekNs: number;
  rotationNs: number;
  transferNs: number; // media transfer, including switches inside it
  busNs: number;
  overheadNs: number; // controller overheads charged to it
  cacheHit: boolean;
  /** it touched the media (a read miss or a write that reached the platter) */
  media: boolean;
}

export function newRequest(
  id: number,
  proc: number,
  pid: number,
  write: boolean,
  sync: boolean,
  sector: number,
  nSectors: number,
  queuedNs: number,
  internal = false,
): IoRequest {
  return {
    id,
    proc,
    pid,
    write,
    sync,
    sector,
    nSectors,
    internal,
    queuedNs,
    dispatchedNs: -1,
    completedNs: -1,
    eligibleNs: -1,
    dataReadyNs: -1,
    startNs: -1,
    seekNs: 0,
    rotationNs: 0,
    transferNs: 0,
    busNs: 0,
    overheadNs: 0,
    cacheHit: false,
    media: false,
  };
}
