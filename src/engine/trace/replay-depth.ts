// The replayed drive's queue depth: the device-wide most requests the trace had in flight at
// once (D to C, replay-source.ts's mostInFlight), up to what the simulated drive accepts;
// blkparse's depth (the most issued and not completed per CPU and direction, which misses
// requests completed on another CPU) only for a trace without completions.
import { MAX_QUEUE_DEPTH } from '../disk/params';
import type { DeviceTrace, TraceReading } from './replay-source';

export interface DepthChoice {
  value: number;
  /** where the value came from, and any cap */
  source: string;
}

/** The simulated drive's own limit (a preset's maxQueueDepth, or the fitted device's), and
 * what to call it; null: none known, Spindle's own limit applies. */
export interface DriveLimit {
  depth: number | null;
  name: string;
}

export function chooseQueueDepth(
  given: number | undefined,
  reading: TraceReading,
  dev: DeviceTrace,
  drive: DriveLimit,
): DepthChoice {
  if (given !== undefined) return { value: given, source: '--queue-depth' };
  let traced = dev.mostInFlight;
  let from = `the trace's most requests in flight on the device at once (D to C): ${traced}`;
  if (traced < 1) {
    const depth = reading.report.perDevice[dev.dev]?.depth ?? { read: 1, write: 1 };
    traced = Math.max(depth.read, depth.write, 1);
    // without a C nothing ever leaves blkparse's count: it is the dispatches so far, an upper
    // bound rather than a depth the device was seen to reach
    from = `blkparse's depth, ${traced}: the trace has no completions, so this counts every dispatch never completed, not how many the device held at once (an upper bound)`;
  }
  const driveMax = Math.min(drive.depth ?? MAX_QUEUE_DEPTH, MAX_QUEUE_DEPTH);
  if (traced <= driveMax) return { value: traced, source: from };
  const why =
    drive.depth !== null && drive.depth <= MAX_QUEUE_DEPTH
      ? `${drive.name}'s deepest queue`
      : 'the most Spindle models';
  return { value: driveMax, source: `${from}, capped at ${driveMax} (${why})` };
}
