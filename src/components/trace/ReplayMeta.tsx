// The trace's meta.json beside the replay form: the CLI reads one beside the trace (the shared
// corpus has one per trace) for facts the blkparse text does not hold — the traced scheduler,
// whether the device rotates, max_sectors_kb, nr_requests. The page cannot look beside an
// upload, so the user may add it; the panel says fact by fact what the replay took from it, or
// what it used instead (the engine's META_FACTS).
// straight from its module: the engine's index would bring the whole engine into the page
import { META_FACTS, traceMetaOf } from '../../engine/trace/replay-meta';
import type { TraceMeta } from '../../engine';

export interface AddedMeta {
  name: string;
  facts: TraceMeta;
}

/** Read a meta.json the user picked: its facts, or why it cannot be read. */
export async function readMetaFile(file: File): Promise<AddedMeta | string> {
  let json: unknown;
  try {
    json = JSON.parse(await file.text());
  } catch (e) {
    return `${file.name} is not JSON (${e instanceof Error ? e.message : String(e)})`;
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    return `${file.name} is not a meta.json: it holds no object`;
  return { name: file.name, facts: traceMetaOf(json) };
}

export function ReplayMeta({
  meta,
  error,
  onFile,
  onForget,
}: {
  meta: AddedMeta | null;
  error: string | null;
  onFile: (file: File) => void;
  onForget: () => void;
}) {
  return (
    <div className="replay-meta small" data-testid="replay-meta">
      <label>
        The trace’s meta.json (optional){' '}
        <input
          type="file"
          accept=".json,application/json"
          onChange={(e) => {
            const f = e.target.files?.[0];
            if (f) onFile(f);
            e.target.value = '';
          }}
        />
      </label>
      {meta !== null && (
        <button type="button" onClick={onForget}>
          Forget {meta.name}
        </button>
      )}
      {error !== null && (
        <p role="alert" className="trace-error">
          {error}
        </p>
      )}
      <p className="muted">
        {meta === null
          ? 'No meta.json added: where the CLI would read these from a meta.json beside the trace, this replay uses defaults.'
          : `From ${meta.name}:`}
      </p>
      <ul className="muted">
        {META_FACTS.map((f) => {
          const v = meta?.facts[f.key];
          return (
            <li key={f.key}>
              <code>{f.field}</code> ({f.sets}):{' '}
              {v !== undefined ? (
                <strong>{String(v)}</strong>
              ) : (
                <>
                  {meta !== null && 'not in the file — '}
                  {f.without}
                </>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
