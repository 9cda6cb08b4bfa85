// A very small Markdown subset for lesson text — paragraphs, bullet and numbered lists,
// **bold**, *emphasis* and `code` — turned into React elements (no HTML strings, so
// nothing in a lesson can inject markup).
import type { ReactNode } from 'react';

type Block = { kind: 'p'; text: string } | { kind: 'ul' | 'ol'; items: string[] };

export function parseBlocks(md: string): Block[] {
  const blocks: Block[] = [];
  for (const chunk of md.replace(/\r\n?/g, '\n').split(/\n\s*\n/)) {
    const lines = chunk.split('\n').filter((l) => l.trim() !== '');
    if (lines.length === 0) continue;
    const bullet = /^\s*[-*]\s+/;
    const numbered = /^\s*\d+[.)]\s+/;
    if (lines.every((l) => bullet.test(l))) {
      blocks.push({ kind: 'ul', items: lines.map((l) => l.replace(bullet, '')) });
    } else if (lines.every((l) => numbered.test(l))) {
      blocks.push({ kind: 'ol', items: lines.map((l) => l.replace(numbered, '')) });
    } else {
      blocks.push({ kind: 'p', text: lines.join(' ') });
    }
  }
  return blocks;
}

/** Inline spans: `code` first (its content is literal), then **bold**, then *em*. */
export function inline(text: string, key = 'i'): ReactNode[] {
  const out: ReactNode[] = [];
  const re = /`([^`]+)`|\*\*([^*]+)\*\*|\*([^*\s][^*]*)\*/g;
  let last = 0;
  let n = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const k = `${key}-${n++}`;
    if (m[1] !== undefined) out.push(<code key={k}>{m[1]}</code>);
    else if (m[2] !== undefined) out.push(<strong key={k}>{inline(m[2], k)}</strong>);
    else if (m[3] !== undefined) out.push(<em key={k}>{inline(m[3], k)}</em>);
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

export function Markdown({ source }: { source: string }) {
  return (
    <>
      {parseBlocks(source).map((b, i) => {
        if (b.kind === 'p') return <p key={i}>{inline(b.text, `p${i}`)}</p>;
        const items = b.items.map((t, j) => <li key={j}>{inline(t, `l${i}-${j}`)}</li>);
        return b.kind === 'ul' ? <ul key={i}>{items}</ul> : <ol key={i}>{items}</ol>;
      })}
    </>
  );
}
