// Cancelling a reading in a worker (issue 20 item 3), DOM-free so that it is tested in Node.
// The worker sees the cancel message only between the steps of its work; one stuck inside a
// step never answers, and the page's last resort is to terminate it (trace-session.ts).

/** how long a cancelled reading may take to stop before its worker is terminated */
export const CANCEL_GRACE_MS = 400;

/** Ask the worker to stop (`ask`) and wait for its work (`work`) to end, at most `graceMs`:
 * true when it ended in time, false when the caller must terminate the worker. */
export async function stopsInTime(
  work: Promise<unknown>,
  ask: () => Promise<unknown>,
  graceMs = CANCEL_GRACE_MS,
): Promise<boolean> {
  const ended = work.then(
    () => true,
    () => true,
  );
  void ask().catch(() => undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), graceMs);
  });
  const inTime = await Promise.race([ended, late]);
  clearTimeout(timer);
  return inTime;
}

/** What the page says when it had to terminate the reader. */
export function stoppedText(
  name: string,
  showing: string | null,
  graceMs = CANCEL_GRACE_MS,
): string {
  return `Reading ${name} was stopped: the trace reader did not answer within ${graceMs / 1000} s, so it was restarted.${showing !== null ? ` Still showing ${showing}.` : ''}`;
}
