// The page's DiskSim disks: opening a .parv with the files it sources (picked together,
// dropped together, or one .zip) in the sim worker (worker/disk-files.ts), keeping what was
// read in IndexedDB (disk-persist.ts) and putting the kept disks back into a fresh worker
// before its catalog is read (config-state.ts), so a reload or a link still has them.
// Plain state with subscribers, as trace-session.ts; React reads it with useDiskFiles.
import { useEffect, useRef, useSyncExternalStore } from 'react';
import type { LabConfig } from './config';
import type { SimClient, SimHandle } from '../worker/client';
import { forgetKeptDisk, keepDisks, keptDisks } from './disk-persist';
import { errorText } from './lessons';

export interface DiskFilesState {
  /** files are being read */
  busy: boolean;
  /** what the last opening gave: the disks opened, and each file or .parv refused */
  opened: string[];
  errors: string[];
  /** the kept files could not be stored: the disk lasts until the page is closed */
  notKept: boolean;
  /** a disk just opened, for the settings panel to select (it clears this) */
  select: string | null;
}

const START: DiskFilesState = { busy: false, opened: [], errors: [], notKept: false, select: null };

/** Put the kept disks into the worker; the messages of any that no longer read. */
export async function restoreKeptDisks(sim: SimClient): Promise<string[]> {
  const errors: string[] = [];
  for (const d of await keptDisks()) {
    // one disk at a time: two disks' sourced files may share a name
    const files = d.files.map((f) => ({ name: f.path, blob: new Blob([f.text]) }));
    const r = await sim.openDiskFiles(files).catch((e: unknown) => ({
      opened: [],
      errors: [errorText(e)],
    }));
    if (!r.opened.some((o) => o.name === d.name)) {
      errors.push(`the kept disk ${d.name} no longer reads: ${r.errors.join('; ')}`);
    }
  }
  return errors;
}

export class DiskFiles {
  private state: DiskFilesState = START;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly handle: SimHandle,
    /** read the worker's catalog again (the disk list changed) */
    private readonly refreshCatalog: () => Promise<void>,
    /** the page's configuration: runs on a forgotten disk go back to the lesson's */
    private readonly setConfig: (update: (c: LabConfig) => LabConfig) => void = () => {},
  ) {}

  get = (): DiskFilesState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(patch: Partial<DiskFilesState>): void {
    this.state = { ...this.state, ...patch };
    for (const l of this.listeners) l();
  }

  /** Read the files as one set; the names of the disks opened. */
  async open(files: readonly File[]): Promise<string[]> {
    if (files.length === 0) return [];
    this.set({ busy: true, errors: [], opened: [] });
    try {
      const r = await this.handle
        .get()
        .openDiskFiles(files.map((f) => ({ name: f.name, blob: f })));
      const stored =
        r.opened.length === 0 ||
        (await keepDisks(
          r.opened.map((o) => ({ name: o.name, files: o.kept, savedAt: Date.now() })),
        ));
      await this.refreshCatalog();
      const names = r.opened.map((o) => o.name);
      this.set({
        busy: false,
        opened: names,
        errors: r.errors,
        notKept: !stored,
        select: names[0] ?? null,
      });
      return names;
    } catch (e) {
      this.set({ busy: false, errors: [errorText(e)] });
      return [];
    }
  }

  async forget(name: string): Promise<void> {
    await this.handle.get().forgetDisk(name);
    await forgetKeptDisk(name);
    await this.refreshCatalog();
    const off = <T extends { disk?: string }>(o: T): T =>
      o.disk === name ? { ...o, disk: undefined } : o;
    this.setConfig((c) => ({ ...c, run: off(c.run), compare: c.compare?.map(off) ?? null }));
    this.set({ opened: this.state.opened.filter((n) => n !== name) });
  }

  /** The settings panel took the disk to select. */
  selected(): void {
    if (this.state.select !== null) this.set({ select: null });
  }

  dismiss(): void {
    this.set({ errors: [], opened: [] });
  }
}

export function useDiskFiles(d: DiskFiles): DiskFilesState {
  return useSyncExternalStore(d.subscribe, d.get, d.get);
}

/** A drop carries a DiskSim set when it has a .parv or a .zip (a trace is neither). */
export function isDiskSimDrop(names: readonly string[]): boolean {
  return names.some((n) => /\.(parv|zip)$/i.test(n));
}

/**
 * DiskSim files dropped anywhere on the page (a .parv with its files, or a .zip) open a disk,
 * not a trace: the window's capture phase takes them before the trace's own drop handler
 * (TraceEntry) sees them. `onOpen` runs as the reading starts (the page shows Settings).
 */
export function useDiskSimDrop(session: DiskFiles, onOpen: () => void): void {
  const opened = useRef(onOpen);
  useEffect(() => {
    opened.current = onOpen;
  }, [onOpen]);
  useEffect(() => {
    const drop = (e: DragEvent) => {
      const files = [...(e.dataTransfer?.files ?? [])];
      if (!isDiskSimDrop(files.map((f) => f.name))) return;
      e.preventDefault();
      e.stopPropagation();
      // the trace's drop hint goes, as when a drag leaves the window
      window.dispatchEvent(new DragEvent('dragleave'));
      opened.current();
      void session.open(files);
    };
    window.addEventListener('drop', drop, { capture: true });
    return () => window.removeEventListener('drop', drop, { capture: true });
  }, [session]);
}
