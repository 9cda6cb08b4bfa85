// The parameters that describe one drive, after DiskSim's disk spec (DISK-MODEL.md §1).
// Times are in milliseconds here, as datasheets and DiskSim print them; the engine
// converts to nanoseconds once, in compile.ts. Sectors are 512 bytes.

/** The deepest queue Spindle models (disk.queueDepth, a drive's maxQueueDepth): deeper
 * than SATA's 32 and SCSI's 64, for the virtual devices traces come from (a loop device has
 * 128 tags, virtio-blk its virtqueue's size, commonly 256). The engine counts tags: nothing
 * is sized by it. */
export const MAX_QUEUE_DEPTH = 256;

/** One recording zone: a band of cylinders with the same number of sectors per track. */
export interface ZoneSpec {
  firstCylinder: number;
  lastCylinder: number;
  sectorsPerTrack: number;
  /** angular position of the zone's first physical sector, in sectors from angle 0 */
  firstSectorOffset: number;
  /** sectors at the zone's front that hold no data (DiskSim "Empty space at zone front") */
  emptyFrontSectors: number;
  /** rotational offset between consecutive tracks of a cylinder, in sectors */
  trackSkew: number;
  /** rotational offset from a cylinder's last track to the next cylinder's first, in sectors */
  cylinderSkew: number;
  /** whole tracks kept spare at the zone's end (DiskSim sparing scheme 1) */
  spareTracks: number;
  /** slipped tracks (zone-relative track numbers) skipped by the mapping, using up spares */
  slips: number[];
  /** sparing 'sectors-per-track': spare sectors at each track's end (DiskSim scheme 3) */
  sparesPerTrack?: number;
  /** sparing 'sectors-per-zone': spare sectors at the zone's end (DiskSim scheme 9) */
  spareSectors?: number;
  /** sector sparing: slipped sectors, numbered from the zone's first physical sector
   * (empty front included), each skipped by the mapping */
  sectorSlips?: number[];
}

/**
 * The order of a cylinder's tracks in LBN order (DiskSim "LBN-to-PBN mapping scheme"):
 * conventional (0) runs every cylinder from head 0; serpentine (1) runs the zone's odd
 * cylinders from the last head back; 'serpentine-even' (2) does so on odd cylinder numbers.
 */
export type LbnMapping = 'conventional' | 'serpentine' | 'serpentine-even';

/** Where spares are (DiskSim "Sparing scheme used" 1, 3 and 9; scheme 0 is 'tracks' with
 * no spares). */
export type SparingScheme = 'tracks' | 'sectors-per-track' | 'sectors-per-zone';

/** Seek time as a function of distance in cylinders (DISK-MODEL.md §1.3). */
export type SeekCurve =
  | { type: 'constant'; ms: number }
  /** base + perCylinder·d; OSTEP's disk.py uses base 0 (not DiskSim's buggy "linear") */
  | { type: 'linear'; baseMs: number; perCylinderMs: number }
  /** Lee's three-point curve through single-cylinder, average and full-stroke times */
  | { type: 'curve'; singleMs: number; averageMs: number; fullMs: number }
  /** Ruemmler–Wilkes: d < v1 → v2 + v3·√d, else v4 + v5·d; d = 1 → v6 unless v6 = −1 */
  | { type: 'hpl'; v: [number, number, number, number, number, number] }
  /** ten measured times for 1…10 cylinders, then HPL beyond */
  | { type: 'hplplus10'; firstTen: number[]; v: [number, number, number, number, number, number] }
  /** measured (distance, ms) points, linearly interpolated, extrapolated past the last */
  | { type: 'extracted'; points: Array<[number, number]> };

/** Controller overheads, charged per command (DiskSim's "… over." parameters). */
export interface OverheadSpec {
  /** command processing before a buffer hit's data goes out ("Read hit over.") */
  readHitMs: number;
  /** command processing before the mechanism starts a read miss ("Read miss over.") */
  readMissMs: number;
  /** command processing before the mechanism starts a write ("Write miss over."); the data
   * crosses the bus meanwhile */
  writeMs: number;
  /** before data goes over the bus ("Data preparation overhead") */
  dataPrepMs: number;
  /** the drive reconnecting to the bus to send data or status ("First reselect overhead") */
  reselectMs: number;
  /** after the last data, before the completion reaches the host */
  readCompleteMs: number;
  writeCompleteMs: number;
  /** the command overheads when the last command completed was a write (DiskSim's
   * "… after write" figures; absent: the same as after a read) */
  afterWrite?: { readHitMs: number; readMissMs: number; writeMs: number; writeHitMs: number };
  /** a write-back drive's write command overhead (DiskSim uses "Write hit over." whenever
   * fast writes are on); absent: writeMs */
  writeHitMs?: number;
  /** DiskSim's "Extra write disconnect" (the HP C2247A's measured behaviour): a write
   * that does not append to the last one written disconnects from the bus after its
   * command and reconnects later for its data; absent: no extra disconnect. */
  extraWriteDisconnect?: ExtraWriteDisconnectSpec;
}

/** DiskSim's "Extradisc …" parameters and the reconnection they lead to. */
export interface ExtraWriteDisconnectSpec {
  /** command processing before the disconnect ("Extradisc command overhead") */
  commandMs: number;
  /** the disconnect itself ("Extradisc disconnect overhead") */
  disconnectMs: number;
  /** disconnected, before reconnecting for the data ("Extradisc inter-disconnect delay") */
  interDisconnectMs: number;
  /** the mechanism waits this much past the command overhead ("Extradisc seek delta") */
  seekDeltaMs: number;
  /** reconnecting for the completion ("Other reselect overhead"; the data's reconnection
   * is the first, reselectMs) */
  otherReselectMs: number;
}

export interface BusSpec {
  /** host-interface transfer time per sector */
  readMsPerSector: number;
  writeMsPerSector: number;
  /** a read miss reconnects to send data once this fraction of it is in the buffer */
  readWatermark: number;
}

export type WritePolicy = 'write-through' | 'write-back';

export interface CacheSpec {
  /** buffer segments (0 turns the cache off) */
  segments: number;
  /** one segment is kept for writes; what it holds can be read back as hits */
  separateWriteSegment: boolean;
  segmentSectors: number;
  /** read-ahead after a read miss, up to this many sectors past the request (0 = none) */
  readAheadSectors: number;
  /** where read-ahead stops besides that (DiskSim "Buffer continuous read"): 'segment' (3,
   * absent) only by the count; 'track' (1) and 'cylinder' (2) also at the end of the track
   * or cylinder it is on; 'next-track' (4, DEC's scheme) at the end of the track holding the
   * block after the request, one track further when the segment began on an earlier track */
  readAheadStop?: 'segment' | 'track' | 'cylinder' | 'next-track';
  writePolicy: WritePolicy;
  /** write-back buffer size; a write that does not fit waits ("buffer full") */
  writeBufferSectors: number;
  /** write-back: at most this many segments hold data not yet on the media (DiskSim's
   * "Maximum number of write segments"). A segment holds one contiguous run: a write that
   * starts where a dirty segment's run ends joins it ("Combine seq writes"), any other write
   * needs a segment of its own, or waits ("buffer full") as when its sectors do not fit */
  writeSegments: number;
}

/** A solid-state device: no positioning, a fixed latency plus transfer at a given bandwidth. */
export interface SsdSpec {
  readLatencyMs: number;
  writeLatencyMs: number;
  readMBps: number;
  writeMBps: number;
  /** requests serviced in parallel */
  channels: number;
}

/**
 * One direction of a device fitted to a trace (trace/replay-fit.ts; disk/fitted.ts serves
 * it): a request's service time is
 *   (baseMs + perKiBMs·KiB + randomMs·[not sequential] + perSqrtGiBMs·√(distance in GiB)) · r,
 * where sequential means it starts where the device's previous command ended, distance is
 * how far from there it starts, and r is drawn from `spread`: the trace's measured / modelled
 * ratios, sorted, as the means of FITTED_SPREAD_BINS equal shares (disk/fitted.ts).
 */
export interface FittedDirection {
  baseMs: number;
  perKiBMs: number;
  randomMs: number;
  perSqrtGiBMs: number;
  spread: number[];
}

/** A device fitted to a trace, served by processor sharing: with k requests in flight each
 * progresses at min(1, parallelism / k) of full speed. A direction with too few requests to
 * fit is null and served by the other's fit. */
export interface FittedSpec {
  parallelism: number;
  /** what the traced queue said (meta.json's rotational): the schedulers' non-rotational rules */
  rotational: boolean;
  read: FittedDirection | null;
  write: FittedDirection | null;
  /** a flush command (REQ_OP_FLUSH, no data): its own term, fitted to the trace's flush D→C
   * pairs (baseMs and the spread; the other coefficients 0). Absent or null: the trace had
   * none, and a flush costs nothing beyond the device's sharing */
  flush?: FittedDirection | null;
  /** trace-timed replay: the trace's flush commands' D2C, ms, in dispatch order — the k-th
   * flush of the run takes the k-th (after the last, the fitted term) */
  flushServiceMs?: number[];
}

export interface DiskParams {
  /** preset name, e.g. "hp-c2247a" */
  name: string;
  title: string;
  /** where each number came from: datasheet, DiskSim, derived */
  provenance: string;
  rpm: number;
  surfaces: number;
  cylinders: number;
  zones: ZoneSpec[];
  /** absent: 'conventional' */
  mapping?: LbnMapping;
  /** absent: 'tracks' */
  sparing?: SparingScheme;
  /** the platter angle under the heads at t = 0, as a fraction of a revolution */
  initialAngle: number;
  seek: SeekCurve;
  headSwitchMs: number;
  /** added to a write whose arm or head moved */
  writeSettleMs: number;
  /** a write not appending to the previous one waits at least this long before
   * rotating (DiskSim "Minimum seek delay"); it only binds on a same-track write */
  minWriteSeekMs: number;
  overheads: OverheadSpec;
  bus: BusSpec;
  cache: CacheSpec;
  /** the most commands the drive accepts (tagged queue depth), 1 to MAX_QUEUE_DEPTH */
  maxQueueDepth: number;
  /**
   * Where waiting commands queue and are scheduled (absent: 'drive').
   * 'drive': a tagged queue in the drive, as real drives do it — each command's processing
   * overhead runs while it waits, and the scheduler picks when the mechanism is free, from
   * the platter's angle then. 'driver': DiskSim's validation setups ("Use queueing in
   * subsystem" with a disk of "Max queue length" 1) — the host driver queues and schedules,
   * the disk takes the next command once the last has completed and only then starts its
   * command overhead, and SPTF estimates as DiskSim's ioqueue does (disk_get_servtime):
   * from the angle the disk last knew, at the end of its last media transfer, without that
   * overhead. docs/DISKSIM.md, "SPTF at depth".
   */
  queueing?: 'drive' | 'driver';
  ssd: SsdSpec | null;
  /** a device fitted to a trace (preset "traced"); absent or null on every other drive */
  fitted?: FittedSpec | null;
}

/** The kernel's QUEUE_FLAG_NONROT as the schedulers see it: an SSD, or a fitted device
 * whose traced queue said rotational=0. */
export function isNonRotational(p: DiskParams): boolean {
  return p.ssd !== null || (p.fitted != null && !p.fitted.rotational);
}
