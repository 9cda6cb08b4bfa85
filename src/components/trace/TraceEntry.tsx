// The way into traces from the first screen: an "Open trace" button (and dropping a file
// anywhere on the page), a "Reopen" button for the trace kept from the last visit, and the
// trace screen itself — a modal <dialog> over the lab with the summary, the LBA picture and
// replay (UI.md "Traces"). Reading runs in the trace worker; see src/app/trace-session.ts.
import type { Store } from '../../app/store';
import { useEffect, useRef, useState } from 'react';
import { formatBytes, TraceSession, useTraceSession } from '../../app/trace-session';
import { TraceScreen } from './TraceScreen';
import './trace.css';

/** `lab`: the lab's playback, paused while the trace view covers it. */
export function TraceEntry({ lab }: { lab?: Store } = {}) {
  const [session] = useState(() => new TraceSession());
  const state = useTraceSession(session);

  useEffect(() => {
    if (state.viewOpen) lab?.set({ playing: false });
  }, [state.viewOpen, lab]);
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  useEffect(() => {
    void session.restore();
    return () => session.terminate();
  }, [session]);

  // a file dropped anywhere on the page
  useEffect(() => {
    const hasFiles = (e: DragEvent) => e.dataTransfer?.types.includes('Files') === true;
    const over = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
      setDragging(true);
    };
    const leave = (e: DragEvent) => {
      if (e.relatedTarget === null) setDragging(false);
    };
    const drop = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      setDragging(false);
      const file = e.dataTransfer?.files[0];
      if (file) void session.open(file, file.name);
    };
    window.addEventListener('dragenter', over);
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', over);
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, [session]);

  const pick = () => input.current?.click();
  const { overview, kept, reading } = state;
  const fileInput = (
    <input
      ref={input}
      type="file"
      className="visually-hidden"
      aria-label="Trace file"
      tabIndex={-1}
      accept=".txt,.gz,.log,.trace,.blkparse,text/plain,application/gzip"
      onChange={(e) => {
        const file = e.target.files?.[0];
        e.target.value = ''; // choosing the same file again is a new upload
        if (file) void session.open(file, file.name);
      }}
    />
  );
  const hint = dragging ? (
    <div className="drop-hint" aria-hidden="true">
      Drop a blkparse trace (.txt or .gz) to open it
    </div>
  ) : null;

  return (
    <div className="trace-entry">
      <button type="button" onClick={pick} title="Open a blkparse text trace (.txt or .gz)">
        Open trace
      </button>
      {overview !== null ? (
        <button
          type="button"
          onClick={() => session.setViewOpen(true)}
          aria-label={`Show the trace ${overview.name}`}
          className="trace-entry-name"
        >
          Trace: {overview.name}
        </button>
      ) : reading !== null ? (
        <button type="button" onClick={() => session.setViewOpen(true)}>
          Reading {reading.name}…
        </button>
      ) : kept !== null ? (
        <button
          type="button"
          onClick={() => void session.reopenKept()}
          className="trace-entry-name"
          title={`${kept.name} (${formatBytes(kept.size)}): the trace you opened last time, kept in this browser`}
        >
          Reopen {kept.name}
        </button>
      ) : null}
      {/* The file input and the drop hint sit inside the dialog while it is open (a modal
          dialog makes the rest of the page inert) and outside it while it is closed (a
          closed dialog's content is not rendered, and its input opens no file picker). */}
      {!state.viewOpen && hint}
      {!state.viewOpen && fileInput}
      <TraceScreen
        session={session}
        state={state}
        onPick={pick}
        dropHint={hint}
        fileInput={state.viewOpen ? fileInput : null}
      />
    </div>
  );
}
