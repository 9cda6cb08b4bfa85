// The settings panel's way to a DiskSim disk: "Open a DiskSim disk (.parv)…" (the .parv with
// the files it sources, picked together, or one .zip; dropping them on the page works too,
// App.tsx), what the last opening refused in the reader's own words, and for a user's disk
// that is selected: where it was read from, DiskSim's scheduler for it, and every parameter
// Spindle does not apply, with its file and line — never dropped silently.
import { useEffect, useRef } from 'react';
import { useDiskFiles, type DiskFiles } from '../../app/disk-files';
import type { PresetInfo } from '../../app/config';

interface Props {
  session: DiskFiles;
  /** the disk the panel has selected (its catalog entry) */
  selected: PresetInfo | undefined;
  onSelect: (name: string) => void;
  uid: string;
}

export function DiskFilesField({ session, selected, onSelect, uid }: Props) {
  const state = useDiskFiles(session);
  const input = useRef<HTMLInputElement>(null);

  // a disk just opened (here or by a drop on the page) becomes the panel's choice
  useEffect(() => {
    if (state.select === null) return;
    onSelect(state.select);
    session.selected();
  }, [state.select, onSelect, session]);

  const file = selected?.file;
  return (
    <div className="disk-files">
      <div className="disk-files-open">
        <button type="button" onClick={() => input.current?.click()} disabled={state.busy}>
          Open a DiskSim disk (.parv)…
        </button>
        <input
          ref={input}
          type="file"
          multiple
          className="visually-hidden"
          aria-label="DiskSim disk files"
          tabIndex={-1}
          onChange={(e) => {
            const files = [...(e.target.files ?? [])];
            e.target.value = ''; // the same files chosen again are read again
            void session.open(files);
          }}
        />
        <span className="hint" id={`${uid}-diskfiles-hint`}>
          the .parv with the files it sources (.diskspecs, .model, .seek…) in one pick, or one .zip;
          or drop them on the page
        </span>
      </div>
      <div role="status" className="small">
        {state.busy && 'Reading the DiskSim files…'}
        {!state.busy && state.opened.length > 0 && (
          <>
            Opened {state.opened.join(', ')}.
            {state.notKept && ' This browser would not keep it: it lasts until the page closes.'}
          </>
        )}
      </div>
      {state.errors.length > 0 && (
        <div role="alert" className="disk-files-errors">
          <p className="field-error">
            {state.errors.length === 1
              ? 'Could not open this DiskSim disk:'
              : `${state.errors.length} problems opening DiskSim files:`}
          </p>
          <ul>
            {state.errors.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
          <button type="button" onClick={() => session.dismiss()}>
            Dismiss
          </button>
        </div>
      )}
      {file && (
        <div className="disk-file-info" data-testid="disk-file-info">
          <p className="small">
            <b>{file.diskType}</b> read from {file.files.join(', ')}; DiskSim schedules it with{' '}
            {file.scheduler ?? 'a policy Spindle does not have'}.{' '}
            <button type="button" className="link" onClick={() => void session.forget(file.name)}>
              Forget this disk
            </button>
          </p>
          {file.unapplied.length === 0 ? (
            <p className="small">Every parameter that affects a response time is applied.</p>
          ) : (
            <details open>
              <summary className="small">
                Not applied by Spindle ({file.unapplied.length} parameters)
              </summary>
              <ul className="unapplied small">
                {file.unapplied.map((u) => (
                  <li key={`${u.file}:${u.line}:${u.param}`}>
                    <code>
                      {u.file}:{u.line}
                    </code>{' '}
                    {u.param} = {u.value} — {u.why}
                  </li>
                ))}
              </ul>
            </details>
          )}
        </div>
      )}
    </div>
  );
}
