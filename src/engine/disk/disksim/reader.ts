// DiskSim 4.0 `.parv` → a Spindle disk: follow the topology to the one disk, read its
// `disksim_disk` block (.diskspecs), its `dm_disk` model (.model, .seek) and the bus and
// controller it sits behind, and return DiskParams (the type the presets compile to) with
// every parameter Spindle does not apply named, with its file and line. docs/DISKSIM.md.
import type { DiskSchedulerName } from '../disk-scheduler';
import type { DiskParams } from '../params';
import { BlockReader, DiskSimReadError, type Unapplied } from './block-reader';
import { readDiskBlock } from './disk-block';
import { readModel } from './model-block';
import { parseParamFiles, type Block, type FileSource, type TopologyNode } from './syntax';

export interface DiskSimDisk {
  params: DiskParams;
  /** the scheduler DiskSim runs (the driver's when it queues, else the disk's), as Spindle's
   * name, or null if Spindle has no such policy (then it is in `unapplied`) */
  scheduler: DiskSchedulerName | null;
  /** ASPTF's weight W (DiskSim "Timeout time/weight") */
  agingWeight: number;
  unapplied: Unapplied[];
  /** every file read */
  files: string[];
  /** the disk's type name in the .parv (e.g. "HP_C2247A_validate") */
  diskType: string;
}

/** DiskSim's scheduling policies Spindle has (disksim_ioqueue.h). */
const POLICIES: Record<number, DiskSchedulerName> = {
  1: 'fcfs',
  3: 'clook', // CYCLE_LBN
  4: 'sstf', // SSTF_LBN
  8: 'sptf', // SPTF_OPT
  14: 'asptf', // ASPTF_OPT
};

// Blocks for statistics, seeds, the host's processes and synthetic workloads
// (disksim_global, disksim_stats, disksim_pf, disksim_synthio) have no bearing on how the
// disk responds to a request, and blocks no topology component instantiates are unused:
// neither is read.

export function readDiskSim(parvName: string, files: FileSource): DiskSimDisk {
  const tree = parseParamFiles(parvName, files);
  const notes: Unapplied[] = [];
  const byName = new Map<string, Block>();
  const instances = new Map<string, string>();
  let topology: TopologyNode | null = null;
  const logorgs: Block[] = [];
  for (const item of tree.items) {
    if (item.kind === 'block') {
      const b = item.block;
      if (b.type === 'disksim_logorg') logorgs.push(b);
      else if (b.name !== null) byName.set(b.name, b);
    } else if (item.kind === 'instantiate') {
      for (const n of item.names) instances.set(n, item.as);
    } else {
      if (topology) {
        throw new DiskSimReadError(item.node.pos, 'more than one topology');
      }
      topology = item.node;
    }
  }
  if (!topology) throw new DiskSimReadError({ file: parvName, line: 1 }, 'no topology');

  // The path from the driver down to the one disk.
  const disks: TopologyNode[][] = [];
  const walk = (n: TopologyNode, path: TopologyNode[]): void => {
    const here = [...path, n];
    if (n.type === 'disksim_disk') disks.push(here);
    n.children.forEach((c) => walk(c, here));
  };
  walk(topology, []);
  if (disks.length !== 1) {
    throw new DiskSimReadError(
      topology.pos,
      `the topology has ${disks.length} disks; Spindle simulates one disk (arrays and several devices are not modelled)`,
    );
  }
  const path = disks[0]!;
  const instanceBlock = (n: TopologyNode): Block => {
    const type = instances.get(n.name);
    if (!type) throw new DiskSimReadError(n.pos, `"${n.name}" is not instantiated`);
    const b = byName.get(type);
    if (!b) throw new DiskSimReadError(n.pos, `no block named "${type}" (for "${n.name}")`);
    if (b.type !== n.type) {
      throw new DiskSimReadError(n.pos, `"${n.name}" is a ${b.type}, the topology says ${n.type}`);
    }
    return b;
  };
  const diskNode = path[path.length - 1]!;
  const diskBlock = instanceBlock(diskNode);
  const disk = new BlockReader(diskBlock, notes);
  const model = readModel(disk.child('Model'), files, notes);
  const part = readDiskBlock(disk);
  const diskScheduler = readScheduler(part.scheduler);
  disk.finish();

  // The bus the disk sits on sets the per-sector transfer; buses and controllers above it
  // are expected to add nothing (as in DiskSim's validation set).
  let busRead = 0;
  let busWrite = 0;
  let driver: BlockReader | null = null;
  for (let i = path.length - 2; i >= 0; i--) {
    const node = path[i]!;
    const r = new BlockReader(instanceBlock(node), notes);
    r.ignore('Print stats');
    if (node.type === 'disksim_bus') {
      r.expect('type', 1, 'only an exclusive bus (type 1) is modelled');
      r.expect('Arbitration type', 1, 'bus arbitration is not modelled');
      r.expect('Arbitration time', 0, 'bus arbitration is not modelled');
      if (i === path.length - 2) {
        busRead = r.num('Read block transfer time');
        busWrite = r.num('Write block transfer time');
      } else {
        r.expect('Read block transfer time', 0, 'only the bus the disk sits on is modelled');
        r.expect('Write block transfer time', 0, 'only the bus the disk sits on is modelled');
      }
    } else if (node.type === 'disksim_ctlr') {
      r.expect('type', 1, 'only a pass-through controller (type 1) is modelled');
      r.expect('Scale for delays', 0, 'controller delays are not modelled');
      r.expect('Bulk sector transfer time', 0, 'a controller transfer time is not modelled');
      r.expect('Maximum queue length', 0, 'a controller queue is not modelled');
    } else if (node.type === 'disksim_iodriver') {
      driver = r;
      r.expect('type', 1, 'only a standalone driver (type 1) is modelled');
      r.expect('Constant access time', 0, 'a constant access time is not modelled');
    } else {
      throw new DiskSimReadError(node.pos, `topology component ${node.type} is not modelled`);
    }
    if (r !== driver) r.finish();
  }

  // With "Use queueing in subsystem", requests queue below the driver and its scheduler
  // orders them (the disk's own queue holds "Max queue length"); Spindle models that
  // queue as the drive's tagged queue, up to 64 deep.
  let scheduler = diskScheduler;
  let maxQueueDepth = Math.max(1, Math.min(64, part.maxQueueLength));
  let driverQueue = false;
  if (driver) {
    const queueing = driver.num('Use queueing in subsystem', 0);
    const driverSched = readScheduler(driver.child('Scheduler'));
    if (queueing === 1) {
      maxQueueDepth = 64;
      if (part.maxQueueLength <= 1) {
        scheduler = driverSched;
        driverQueue = true;
      }
    }
    driver.finish();
  }
  for (const b of logorgs) checkLogorg(new BlockReader(b, notes), diskNode.name);

  const params: DiskParams = {
    name: diskBlock.name!,
    title: diskBlock.name!,
    provenance: `DiskSim 4.0 parameters read from ${tree.files.join(', ')}`,
    rpm: model.rpm,
    surfaces: model.surfaces,
    cylinders: model.cylinders,
    zones: model.zones,
    initialAngle: 0,
    seek: model.seek,
    headSwitchMs: model.headSwitchMs,
    writeSettleMs: model.writeSettleMs,
    minWriteSeekMs: part.minWriteSeekMs,
    overheads: part.overheads,
    bus: {
      // DiskSim moves a block at the slowest of the bus's and the disk's rates
      // (disksim_diskctlr.c disk_get_blktranstime).
      readMsPerSector: Math.max(busRead, part.bulkSectorMs),
      writeMsPerSector: Math.max(busWrite, part.bulkSectorMs),
      readWatermark: part.readWatermark,
    },
    cache: part.cache,
    maxQueueDepth,
    ssd: null,
  };
  if (model.mapping !== 'conventional') params.mapping = model.mapping;
  if (model.sparing !== 'tracks') params.sparing = model.sparing;
  // The driver queues and schedules, the disk takes one command at a time: DiskSim's
  // behaviour, kept as it is (DiskParams.queueing; the presets use the drive's queue).
  if (driverQueue) params.queueing = 'driver';
  return {
    params,
    scheduler: scheduler?.name ?? null,
    agingWeight: scheduler?.weight ?? 6,
    unapplied: notes,
    files: tree.files,
    diskType: diskBlock.name!,
  };
}

function readScheduler(r: BlockReader): { name: DiskSchedulerName; weight: number } | null {
  const policy = r.num('Scheduling policy');
  const name = POLICIES[policy] ?? null;
  if (name === null) {
    r.note('Scheduling policy', `policy ${policy} is not one of Spindle's (1, 3, 4, 8, 14)`);
  }
  r.expect('Read initiation delay', 0, 'an initiation delay is not modelled');
  r.expect('Write initiation delay', 0, 'an initiation delay is not modelled');
  r.expect('Sequential stream scheme', 0, 'request concatenation is not modelled');
  r.expect('Overlapping request scheme', 0, 'overlapping-request handling is not modelled');
  r.expect('Scheduling timeout scheme', 0, 'a timeout queue is not modelled');
  r.expect('Scheduling priority scheme', 0, 'priority queues are not modelled');
  const strategy = r.num('Cylinder mapping strategy', 0);
  if (strategy === 5 || strategy === 6) {
    r.note('Cylinder mapping strategy', "Spindle's schedulers see the exact layout");
  }
  // Used only by the schemes checked above (concatenation, timeouts, priorities).
  r.ignore('Maximum concat size', 'Sequential stream diff maximum', 'Timeout scheduling');
  r.ignore('Priority scheduling');
  const weight = r.num('Timeout time/weight', 6);
  r.finish();
  return name === null ? null : { name, weight };
}

function checkLogorg(r: BlockReader, diskName: string): void {
  const devices = r.list('devices', true).map((v) => (v.kind === 'word' ? v.v : ''));
  if (devices.length > 1 || (devices.length === 1 && devices[0] !== diskName)) {
    r.note('devices', 'logical organisations over several devices are not modelled');
  }
  const red = r.param('Redundancy scheme');
  if (red && !(red.value.kind === 'word' && red.value.v === 'Noredun')) {
    r.noteParam(red, 'redundancy (mirroring, parity) is not modelled');
  }
  // The remaining logorg parameters shape striping and redundancy, absent with one device.
}
