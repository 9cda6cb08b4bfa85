// The page's configuration as React state, kept in step with the URL and with IndexedDB:
//   1. the URL's query is read (url-state.ts); what it cannot read is reported, not guessed;
//   2. with no configuration in the URL, the last one used on this browser (persist.ts,
//      IndexedDB) is read instead — a reload brings the settings back;
//   3. the DiskSim disks this browser kept (disk-files.ts) are put back into the worker; then,
//      once the worker has sent the engine's tables (Catalog) and the lesson list is known,
//      every value is checked against them (config-check.ts sanitizeConfig); what is refused is
//      reported and left at the lesson's value;
//   4. from then on every change is written to the URL (history.replaceState: the address
//      bar is always a link to what is on screen) and to IndexedDB.
import { useCallback, useEffect, useState } from 'react';
import type { SimHandle } from '../worker/client';
import type { Catalog, LabConfig } from './config';
import { sanitizeConfig, type Problem } from './config-check';
import { restoreKeptDisks } from './disk-files';
import { errorText, fetchLessonIndex, type LessonEntry } from './lessons';
import { kvGet, kvSet } from './persist';
import { parseUrlState, serializeUrlState } from './url-state';

export const PERSIST_KEY = 'lab-config';

export interface LabState {
  config: LabConfig;
  /** false until the configuration has been checked against the engine's tables */
  ready: boolean;
  catalog: Catalog | null;
  lessons: LessonEntry[];
  /** what a link or the stored settings said that could not be used */
  problems: Problem[];
  /** the lesson list or the catalog could not be loaded */
  error: string | null;
  setConfig: (update: (c: LabConfig) => LabConfig) => void;
  dismissProblems: () => void;
  /** read the catalog again (a DiskSim disk was opened or forgotten) */
  refreshCatalog: () => Promise<void>;
}

/** The address the page is at, with the configuration's query (and no `at`: the time is
 * only for links made with "start at the current time"). */
function writeUrl(c: LabConfig): void {
  const query = serializeUrlState({ ...c, atNs: undefined });
  const url = `${window.location.pathname}${query}${window.location.hash}`;
  if (url !== `${window.location.pathname}${window.location.search}${window.location.hash}`) {
    window.history.replaceState(null, '', url);
  }
}

export function useLabConfig(handle: SimHandle): LabState {
  const [initial] = useState(() => parseUrlState(window.location.search));
  const [config, setConfigState] = useState<LabConfig>(initial.config);
  const [ready, setReady] = useState(false);
  const [catalog, setCatalog] = useState<Catalog | null>(null);
  const [lessons, setLessons] = useState<LessonEntry[]>([]);
  const [problems, setProblems] = useState<Problem[]>(initial.problems);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    const stored: Promise<string | undefined> = initial.given
      ? Promise.resolve(undefined)
      : kvGet<string>(PERSIST_KEY);
    const sim = handle.get();
    const catalog = restoreKeptDisks(sim).then(
      async (diskErrors) => [await sim.catalog(), diskErrors] as const,
    );
    Promise.all([catalog, fetchLessonIndex(), stored])
      .then(([[cat, diskErrors], index, saved]) => {
        if (!live) return;
        let start = initial.config;
        const found = [...initial.problems];
        if (typeof saved === 'string') {
          const fromStore = parseUrlState(saved);
          // Settings this browser stored are not a link anyone sent: a problem with them
          // (an older page's keys) just drops them.
          if (fromStore.problems.length === 0) start = fromStore.config;
        }
        const checked = sanitizeConfig(
          start,
          cat,
          index.lessons.map((l) => l.file),
        );
        setCatalog(cat);
        setLessons(index.lessons);
        setConfigState(checked.config);
        const kept = diskErrors.map((message) => ({ where: 'disk', message }));
        setProblems([...found, ...kept, ...checked.problems]);
        setReady(true);
      })
      .catch((err: unknown) => live && setError(errorText(err)));
    return () => {
      live = false;
    };
  }, [handle, initial]);

  useEffect(() => {
    if (!ready) return;
    writeUrl(config);
    // A teacher's view (presenter, embed, hidden controls) is not this user's own setting:
    // it is not remembered. Otherwise the lesson, seed, overrides, compare and theme are.
    if (config.present || config.embed || config.hide.length > 0) return;
    void kvSet(PERSIST_KEY, serializeUrlState({ ...config, atNs: undefined }));
  }, [config, ready]);

  const refreshCatalog = useCallback(
    async () => setCatalog(await handle.get().catalog()),
    [handle],
  );

  return {
    config,
    ready,
    catalog,
    lessons,
    problems,
    error,
    setConfig: (update) => setConfigState((c) => update(c)),
    dismissProblems: () => setProblems([]),
    refreshCatalog,
  };
}
