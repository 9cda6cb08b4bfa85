// "Share": the link to exactly this view (url-state.ts), optionally paused at the current
// time, ready to copy. The address bar always holds the same configuration (without the
// time); this panel is where the time can be added.
import { useState } from 'react';
import type { LabConfig } from '../../app/config';
import { useStore, type Store } from '../../app/store';
import { serializeUrlState } from '../../app/url-state';
import { formatNs } from '../format';

export function SharePanel({ config, store }: { config: LabConfig; store: Store }) {
  const tNs = useStore(store, (s) => s.tNs);
  const [atNow, setAtNow] = useState(false);
  const [copied, setCopied] = useState<string | null>(null);
  const query = serializeUrlState({ ...config, atNs: atNow ? Math.round(tNs) : undefined });
  const link = `${window.location.origin}${window.location.pathname}${query}`;

  function copy() {
    const select = () => {
      const input = document.getElementById('share-link') as HTMLInputElement | null;
      input?.focus();
      input?.select();
    };
    if (!navigator.clipboard) {
      select();
      setCopied('Selected: press Ctrl+C (⌘C) to copy.');
      return;
    }
    navigator.clipboard.writeText(link).then(
      () => setCopied('Copied.'),
      () => {
        select();
        setCopied('The browser did not allow copying: the link is selected, press Ctrl+C (⌘C).');
      },
    );
  }

  return (
    <section className="share" aria-label="Share this view">
      <label htmlFor="share-link">Link to this view</label>
      <input
        id="share-link"
        type="text"
        readOnly
        value={link}
        onFocus={(e) => e.currentTarget.select()}
        data-testid="share-link"
      />
      <button type="button" onClick={copy}>
        Copy link
      </button>
      <label className="inline">
        <input type="checkbox" checked={atNow} onChange={(e) => setAtNow(e.target.checked)} /> start
        paused at the current time (t = {formatNs(tNs)})
      </label>
      <output className="muted small" aria-live="polite">
        {copied}
      </output>
    </section>
  );
}
