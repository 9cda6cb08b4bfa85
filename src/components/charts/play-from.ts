// Set by the charts panel while it shows the whole run: a click on a time chart (or Enter at
// its read-out) plays the run from that time, in ns (the page's "play from").
import { createContext } from 'react';

export const PlayFromContext = createContext<((fromNs: number) => void) | null>(null);
