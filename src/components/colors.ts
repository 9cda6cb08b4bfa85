// The page's colours, one meaning each (UI.md, visual language): a colour per process, used
// everywhere, and a colour per phase of a disk access.
import type { Phase } from '../app/replay';

/** Tableau 10 (as d3.schemeTableau10), minus the phase hues' near twins, for processes. */
const PROCESS_COLOURS = [
  '#4e79a7',
  '#e15759',
  '#b07aa1',
  '#76b7b2',
  '#edc948',
  '#9c755f',
  '#ff9da7',
  '#59a14f',
  '#bab0ac',
  '#f28e2b',
];

export function processColour(proc: number): string {
  return PROCESS_COLOURS[((proc % PROCESS_COLOURS.length) + PROCESS_COLOURS.length) % 10]!;
}

/** WCAG 2 relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** WCAG 2 contrast ratio of two #rrggbb colours (1 to 21). */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

/** Text on a filled process colour: white or near-black, whichever reads better (every
 * process colour reaches 4.5:1 with one of them; white on yellow would not). */
export function inkOn(background: string): string {
  return contrast('#ffffff', background) >= contrast('#111111', background) ? '#ffffff' : '#111111';
}

export const PHASE_COLOURS: Record<Phase, string> = {
  seek: '#d9480f',
  rotation: '#1c7ed6',
  transfer: '#2b8a3e',
  overhead: '#868e96',
  idle: '#adb5bd',
};

export const PHASE_LABELS: Record<Phase, string> = {
  seek: 'seek',
  rotation: 'rotation',
  transfer: 'transfer',
  overhead: 'overhead',
  idle: 'idle',
};
