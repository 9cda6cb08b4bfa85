// A bio as a scheduler's merge hooks see it, for tests that call those hooks directly.
import type { Bio } from '../../src/engine/iosched/types';

export function testBio(b: {
  pid?: number;
  sector: number;
  nSectors?: number;
  write?: boolean;
  sync?: boolean;
  queuedNs?: number;
  id?: number;
}): Bio {
  const write = b.write ?? false;
  return {
    id: b.id ?? 0,
    slot: 0,
    proc: 0,
    pid: b.pid ?? 1,
    write,
    sync: b.sync ?? !write,
    sector: b.sector,
    nSectors: b.nSectors ?? 8,
    ioprioClass: 2,
    ioprioLevel: 4,
    queuedNs: b.queuedNs ?? 0,
    rq: -1,
    serviceNs: -1,
    parent: -1,
    pending: 0,
    preflush: false,
    fua: false,
  };
}
