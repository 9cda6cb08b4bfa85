// A lesson's text as a walkthrough (issue #16 item 1): the Markdown subset of markdown.tsx,
// where each `[Try: …](?…)` link (app/lesson-steps.ts) is a button that runs exactly that
// step, and a paragraph that starts with `$ ` is a terminal command, folded into one line.
// Under the text, folded too, each step's own `spindle run` line (app/cli-command.ts).
import type { ReactNode } from 'react';
import { cliCommand } from '../../app/cli-command';
import {
  isStepOn,
  parseStep,
  STEP_LINK,
  type LessonStep,
  type StepContext,
} from '../../app/lesson-steps';
import { inline, parseBlocks } from '../markdown';

export type { StepContext };

/** A paragraph's text with its step links as buttons. */
function withSteps(text: string, key: string, ctx: StepContext | undefined): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  let n = 0;
  for (const m of text.matchAll(STEP_LINK)) {
    const k = `${key}-s${n++}`;
    if (m.index > last) out.push(...inline(text.slice(last, m.index), k));
    const step = parseStep(m[1]!, m[2]!);
    out.push(<TryButton key={k} step={step} ctx={ctx} />);
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(...inline(text.slice(last), `${key}-e`));
  return out;
}

function TryButton({ step, ctx }: { step: LessonStep; ctx: StepContext | undefined }) {
  const label = step.label.replace(/^Try:\s*/, '');
  if (!ctx) return <em>{label}</em>;
  const on = isStepOn(ctx.config, step);
  return (
    <button
      type="button"
      className="try-step"
      aria-pressed={on}
      title={step.query}
      onClick={() => ctx.onStep(step)}
    >
      {step.label}
    </button>
  );
}

export function LessonText({ source, ctx }: { source: string; ctx?: StepContext }) {
  const blocks = parseBlocks(source);
  const steps = [...source.matchAll(STEP_LINK)].map((m) => parseStep(m[1]!, m[2]!));
  return (
    <>
      {blocks.map((b, i) => {
        if (b.kind === 'p' && b.text.startsWith('$ ')) {
          return (
            <details key={i} className="terminal-line">
              <summary>In a terminal</summary>
              <code>{b.text.slice(2)}</code>
            </details>
          );
        }
        if (b.kind === 'p') return <p key={i}>{withSteps(b.text, `p${i}`, ctx)}</p>;
        const items = b.items.map((t, j) => <li key={j}>{withSteps(t, `l${i}-${j}`, ctx)}</li>);
        return b.kind === 'ul' ? <ul key={i}>{items}</ul> : <ol key={i}>{items}</ol>;
      })}
      {ctx && steps.length > 0 && (
        <details className="terminal-line" data-testid="step-commands">
          <summary>These steps in a terminal</summary>
          <ul>
            {steps.map((s, i) => (
              <li key={i}>
                {s.label}:{' '}
                {(s.compare ?? [s.run]).map((o, j) => (
                  <code key={j} className="cli-line">
                    {cliCommand(ctx.file, ctx.lesson, o, s.seed)}
                  </code>
                ))}
              </li>
            ))}
          </ul>
        </details>
      )}
    </>
  );
}
