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
