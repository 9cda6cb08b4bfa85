// Which devices of a trace are read in full detail (issue 20 item 2). Each device costs a
// time-order window, its own figures per CPU, btt's in-flight state, replay's requests and a
// picture in the page; a file of one line per device number (100,000 of them in 4 MB) made
// that grow without bound. So the first MAX_DEVICES devices a trace names get all of it, and
// the events of any further device are counted into the totals only — and the report says
// how many devices and events that was (ParseReport.otherDevices).

/** devices read in full detail: far more than one machine's traced disks */
export const MAX_DEVICES = 64;
/** further device numbers are told apart up to this many (then "at least") */
const MAX_COUNTED = 100_000;

export interface OtherDevices {
  /** device numbers beyond the first MAX_DEVICES (at least this many when `more`) */
  devices: number;
  more: boolean;
  /** their events: in the totals, not in any device's figures, btt or replay */
  events: number;
  note: string;
}

export class DeviceTable {
  private readonly detailed = new Set<string>();
  private readonly others = new Set<string>();
  private more = false;

  /** `only`: the one device asked for is always read in detail */
  constructor(
    readonly max = MAX_DEVICES,
    only?: string,
  ) {
    if (only !== undefined) this.detailed.add(only);
  }

  /** Whether `dev` is read in full detail: true for the first `max` devices seen. */
  admit(dev: string): boolean {
    if (this.detailed.has(dev)) return true;
    if (this.detailed.size < this.max) {
      this.detailed.add(dev);
      return true;
    }
    if (!this.more && !this.others.has(dev)) {
      if (this.others.size < MAX_COUNTED) this.others.add(dev);
      else this.more = true;
    }
    return false;
  }

  /** the devices read in detail, in the order first seen */
  get devices(): string[] {
    return [...this.detailed];
  }

  /** What became of the rest, or null when every device was read in detail. */
  otherDevices(events: number): OtherDevices | null {
    const n = this.others.size;
    if (n === 0) return null;
    const count = `${n.toLocaleString('en-US')}${this.more ? ' or more' : ''}`;
    return {
      devices: n,
      more: this.more,
      events,
      note: `${count} more device numbers (${events.toLocaleString('en-US')} events) are counted in the totals only: the first ${this.max} devices of a trace are read in full detail (per device, per CPU, btt, depth, replay)`,
    };
  }
}
