// The most requests a device had in flight at once: each request with sectors counts from its
// D to its C, whatever the CPU or direction; a requeue (R) takes it out until its next D; a C
// or R of a request dispatched before the trace began is ignored. Requests are known by
// direction and start sector, as blkparse prints them.
export class DeviceInFlight {
  private readonly bySector = new Map<number, number>();
  private n = 0;
  private anyC = false;
  /** the most at once so far */
  most = 0;

  dispatched(write: boolean, sector: number): void {
    const key = write ? -1 - sector : sector;
    this.bySector.set(key, (this.bySector.get(key) ?? 0) + 1);
    if (++this.n > this.most) this.most = this.n;
  }

  /** C (completed) or R (requeued) */
  left(write: boolean, sector: number, completed: boolean): void {
    if (completed) this.anyC = true;
    const key = write ? -1 - sector : sector;
    const k = this.bySector.get(key) ?? 0;
    if (k === 0) return;
    if (k === 1) this.bySector.delete(key);
    else this.bySector.set(key, k - 1);
    this.n--;
  }

  /** the figure, or 0 for a trace without any C (nothing is known to have left) */
  mostInFlight(): number {
    return this.anyC ? this.most : 0;
  }
}
