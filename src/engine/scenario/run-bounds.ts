// What a run may ask for (issue 20 item 7): a bound on its requests, so that no scenario runs
// for hours with no output. stop.requests is bounded by the schema (load.ts); open processes'
// arrivals by the run's time, here.
import { problem, type Problem } from './checks';

/** The most requests a run may ask for (completed, or arriving from open processes): tens of
 * seconds of the engine's time, not hours. */
export const MAX_RUN_REQUESTS = 10_000_000;

/** The most simulation events a run may take: a run stopped by time alone (a closed loop
 * with no think time until stop.timeMs = 1e12) cannot know its request count in advance, so
 * the engine ends it here and says so (RunSummary.budget). About 20 events a request. */
export const MAX_RUN_EVENTS = 20 * MAX_RUN_REQUESTS;

/** the fields of a raw process this check reads */
interface OpenFields {
  mode?: string | undefined;
  rateIops?: number | undefined;
  count?: number | undefined;
}

/** Open processes' arrivals do not wait for the disk: only the run's time bounds them, and
 * it must bound them to what a run may ask (issue 20 item 7: 1e9 IOPS for 1e12 ms ran for
 * hours; 1e6 IOPS until 2,000 completions queued tens of millions of requests). */
export function checkOpenArrivals(
  processes: readonly OpenFields[],
  timeMs: number | null,
  problems: Problem[],
): void {
  let perSecond = 0;
  let first = -1;
  processes.forEach((p, k) => {
    if (p.mode !== 'open' || p.rateIops === undefined) return;
    perSecond += p.rateIops * (p.count ?? 1);
    if (first < 0) first = k;
  });
  if (first < 0) return;
  if (timeMs === null) {
    problems.push(
      problem(
        ['stop', 'timeMs'],
        `missing: workload.processes.${first} is open (its arrivals do not wait for the disk), so the run needs a simulated time to end`,
      ),
    );
    return;
  }
  const arrivals = (perSecond * timeMs) / 1000;
  if (arrivals > MAX_RUN_REQUESTS)
    problems.push(
      problem(
        ['stop', 'timeMs'],
        `asks for about ${Math.round(arrivals).toLocaleString('en-US')} arrivals from the open processes (${perSecond.toLocaleString('en-US')} per second for ${timeMs.toLocaleString('en-US')} ms); a run takes at most ${MAX_RUN_REQUESTS.toLocaleString('en-US')}`,
      ),
    );
}
