// The scheduler's inspect() view drawn generically (STYLE.md habit 7): arrays of request ids
// become chips, numbers and words stay as they are, nested objects become nested lists. The
// component knows nothing of any one scheduler's internals.
import type { ReactNode } from 'react';
import type { RequestLife } from '../app/replay';
import { RequestChip } from './RequestChip';

const MAX_ITEMS = 48;

function isIdList(v: unknown, requests: ReadonlyMap<number, RequestLife>): v is number[] {
  return (
    Array.isArray(v) &&
    v.length > 0 &&
    v.every((x) => typeof x === 'number' && Number.isInteger(x)) &&
    v.some((x) => requests.has(x as number))
  );
}

function render(v: unknown, requests: ReadonlyMap<number, RequestLife>, depth: number): ReactNode {
  if (v === null || v === undefined) return <span className="muted">—</span>;
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : v.toFixed(3);
  if (typeof v === 'string' || typeof v === 'boolean') return String(v);
  if (isIdList(v, requests)) {
    return (
      <span className="chips">
        {v.slice(0, MAX_ITEMS).map((id, i) => (
          <RequestChip key={`${id}-${i}`} id={id} q={requests.get(id)} />
        ))}
        {v.length > MAX_ITEMS && <span className="muted"> +{v.length - MAX_ITEMS} more</span>}
      </span>
    );
  }
  if (Array.isArray(v)) {
    if (v.length === 0) return <span className="muted">empty</span>;
    if (depth > 3) return `[${v.length} items]`;
    return (
      <ol className="insp-list">
        {v.slice(0, MAX_ITEMS).map((x, i) => (
          <li key={i}>{render(x, requests, depth + 1)}</li>
        ))}
      </ol>
    );
  }
  if (typeof v === 'object') {
    if (depth > 3) return '{…}';
    return (
      <dl className="insp">
        {Object.entries(v as Record<string, unknown>).map(([k, x]) => (
          <div key={k}>
            <dt>
              <Key name={k} />
            </dt>
            <dd>{render(x, requests, depth + 1)}</dd>
          </div>
        ))}
      </dl>
    );
  }
  return String(v);
}

/** "dispatchQueue" → "dispatch queue"; "" when the name is already plain words. */
export function plainWords(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase();
  return words === name ? '' : words;
}

/** A field of the scheduler's view: plain words first, the code's name beside them. */
function Key({ name }: { name: string }) {
  const words = plainWords(name);
  if (!words) return name;
  return (
    <>
      {words} <code className="key-name">{name}</code>
    </>
  );
}

export function Inspection(props: { value: unknown; requests: ReadonlyMap<number, RequestLife> }) {
  return <div className="inspection">{render(props.value, props.requests, 0)}</div>;
}
