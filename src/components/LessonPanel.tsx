// The lesson beside the animation: its title, the disk it runs on, and its text.
import type { RunLog } from '../worker/client';
import { Markdown } from './markdown';

export function LessonPanel({ log }: { log: Readonly<RunLog> }) {
  return (
    <section className="lesson" aria-label="Lesson">
      <h2>{log.title}</h2>
      <p className="muted small">
        {log.geometry.title} · I/O scheduler <code>{log.summary.iosched}</code> · drive scheduler{' '}
        <code>{log.summary.diskScheduler}</code> · queue depth {log.summary.queueDepth} · seed{' '}
        {log.seed}
        {log.bounded ? ' · showing the first part of the run' : ''}
      </p>
      <div className="lesson-text">
        <Markdown source={log.lesson} />
      </div>
    </section>
  );
}
