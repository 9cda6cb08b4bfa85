// The first visit's introduction (issue 16 item 3): what the picture shows, how to step,
// where the lessons are. A banner above the lab, not a dialog — the lesson plays on beside
// it — dismissed with one button and remembered (IndexedDB, persist.ts); the help overlay
// (?) shows it again.
import { useEffect, useState } from 'react';
import { kvGet, kvSet } from '../app/persist';
import { useStore, type Store } from '../app/store';

const SEEN_KEY = 'intro-seen';

export function Intro({ store }: { store: Store }) {
  /** null while the remembered answer is read */
  const [seen, setSeen] = useState<boolean | null>(null);
  const asked = useStore(store, (s) => s.introOpen === true);
  useEffect(() => {
    let live = true;
    void kvGet<boolean>(SEEN_KEY).then((v) => live && setSeen(v === true));
    return () => {
      live = false;
    };
  }, []);
  if (!asked && seen !== false) return null;
  function dismiss() {
    setSeen(true);
    store.set({ introOpen: false });
    void kvSet(SEEN_KEY, true);
  }
  return (
    <section className="intro" aria-labelledby="intro-title">
      <h2 id="intro-title">New here? What you are looking at</h2>
      <ul>
        <li>
          <b>The picture</b> is a disk&apos;s platter seen from above, turning. The arm moves the
          head across the tracks (a <i>seek</i>), waits for the sector to come round (
          <i>rotation</i>), then reads or writes it (<i>transfer</i>); the sentence under the disk
          says which. Coloured marks are requests, one colour per process.
        </li>
        <li>
          <b>Beside it</b>: where each request waits — in Linux&apos;s I/O scheduler, then in the
          drive&apos;s own queue — and the log of every choice: the rule that made it and why the
          other requests lost.
        </li>
        <li>
          <b>Step through it</b>: Space plays and pauses, → goes to the next event, <kbd>d</kbd> to
          the next decision, <kbd>End</kbd> to the end; the speed slider under the disk goes from a
          million times slower to a thousand times faster. <kbd>?</kbd> lists every key.
        </li>
        <li>
          <b>Lessons</b>: the Lesson menu at the top. Each lesson&apos;s text, under the controls,
          says what to watch for and what to try.
        </li>
      </ul>
      <button type="button" className="primary" onClick={dismiss}>
        Got it
      </button>
    </section>
  );
}
