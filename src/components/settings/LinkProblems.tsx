// What a link (or the stored settings) said that the page could not use: listed in plain
// words, each left at its default. The text comes from url-state.ts / config.ts, which quote
// and trim anything taken from the URL; React renders it as text, never as markup.
import type { Problem } from '../../app/config-check';

export function LinkProblems({
  problems,
  onDismiss,
}: {
  problems: readonly Problem[];
  onDismiss: () => void;
}) {
  if (problems.length === 0) return null;
  const shown = problems.slice(0, 12);
  return (
    <section className="link-problems" role="status" aria-label="Problems with this link">
      <h2>This link could not be used in full</h2>
      <p>What it asked for below was left at the lesson&apos;s or the page&apos;s default:</p>
      <ul>
        {shown.map((p, i) => (
          <li key={i}>
            <b>{p.where}</b>: {p.message}
          </li>
        ))}
        {problems.length > shown.length && <li>… and {problems.length - shown.length} more</li>}
      </ul>
      <button type="button" onClick={onDismiss}>
        Dismiss
      </button>
    </section>
  );
}
