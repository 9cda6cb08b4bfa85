// Presenter view (issue 16 item 2): one screen for a projector, read from the back row. The
// lesson's title, the disk with its phase sentence, the decision log (the latest decision
// large, with the candidates it weighed and why each lost), the queues, and the playback
// controls with the clock — all inside the viewport, nothing scrolls, no text under 18 px
// (the page's type is scaled up on <html> while this view is mounted). The lesson text is
// one click away in the same column, its Try: steps buttons as in the lab.
import { useEffect, useState, type ReactNode } from 'react';
import type { Clock } from '../../app/actions';
import type { Hideable } from '../../app/config';
import type { Replay } from '../../app/replay';
import type { Store } from '../../app/store';
import type { SimHandle } from '../../worker/client';
import { Controls } from '../Controls';
import { DecisionLog } from '../DecisionLog';
import { DiskView } from '../disk/DiskView';
import { LessonPanel } from '../LessonPanel';
import type { StepContext } from '../lesson/LessonText';
import { QueuesView } from '../QueuesView';

interface Props {
  replay: Replay;
  store: Store;
  sim: SimHandle;
  clock: Clock | null;
  hidden: readonly Hideable[];
  /** the same configuration outside presenter mode */
  plainLink: string;
  /** what the run changed from the lesson, for the lesson panel */
  changes: readonly string[];
  /** the quiz's question, when quizzing */
  quiz?: ReactNode;
  /** the lesson text's Try: steps run through this (absent: plain text) */
  steps?: StepContext;
  /** back to the lesson's own setup */
  onSetup?: () => void;
}

export function PresenterView(props: Props) {
  const { replay, store, sim, clock, hidden } = props;
  const [lessonOpen, setLessonOpen] = useState(false);
  usePresenterType();
  return (
    <>
      <header className="present-bar">
        <h1>{replay.log.title}</h1>
        <button
          type="button"
          aria-expanded={lessonOpen}
          aria-controls="present-side"
          onClick={() => setLessonOpen((o) => !o)}
        >
          Lesson text
        </button>
        <a href={props.plainLink}>Leave presenter mode</a>
      </header>
      <main className="presenter">
        <div className="p-stage">
          <DiskView replay={replay} store={store} />
        </div>
        <div className="p-side" id="present-side">
          {lessonOpen ? (
            <LessonPanel
              log={replay.log}
              changes={props.changes}
              steps={props.steps}
              onSetup={props.onSetup}
            />
          ) : (
            <>
              {props.quiz}
              {!hidden.includes('decisions') && <DecisionLog replay={replay} store={store} />}
              <QueuesView replay={replay} store={store} sim={sim} compact />
            </>
          )}
        </div>
        <div className="p-controls">
          <Controls
            clock={clock}
            store={store}
            seed={null}
            onSeed={() => {}}
            hidden={[...hidden, 'seed']}
          />
        </div>
      </main>
    </>
  );
}

/** Projector type: the root font size goes up while the view is mounted, so every rem-sized
 * piece of the page (buttons, chips, the decision log) grows with it (app.css .presenting). */
function usePresenterType(): void {
  useEffect(() => {
    const root = document.documentElement;
    root.classList.add('presenting');
    return () => root.classList.remove('presenting');
  }, []);
}
