// The trace screen's replay form (src/app/replay-choices.ts): the kernel follows the scheduler
// until chosen, and the engine's notes, which name the CLI's options, speak of the form's menus.
import { describe, expect, it } from 'vitest';
import '../../src/engine/iosched/registry';
import { defaultKernelFor, pageNote } from '../../src/app/replay-choices';
import { readTraceText } from '../../src/engine/trace/replay-source';
import { replayTrace } from '../../src/engine/trace/replay';

const trace = [
  '  8,0    0        1     0.000000000   100  Q   R 1000 + 8 [reader]',
  '  8,0    0        2     0.000010000   100  D   R 1000 + 8 [reader]',
  '  8,0    0        3     0.001000000     0  C   R 1000 + 8 [0]',
].join('\n');

describe('the replay form', () => {
  it('starts a blk-mq scheduler on 6.18, a 2.6 one on 2.6.32, for a trace of unknown scheduler', () => {
    const start = (s: string) => defaultKernelFor(s, null);
    expect(['mq-deadline', 'bfq', 'kyber', 'none'].map(start)).toEqual(Array(4).fill('6.18'));
    expect(['noop', 'deadline', 'cfq', 'anticipatory'].map(start)).toEqual(Array(4).fill('2.6.32'));
  });

  it('starts on the kernel the CLI replays on by default, for every traced and chosen scheduler', () => {
    const reading = readTraceText(trace);
    const traced = [null, 'none', 'mq-deadline', 'bfq', 'kyber', 'noop', 'deadline', 'cfq'];
    const chosen = ['none', 'mq-deadline', 'bfq', 'kyber', 'noop', 'deadline', 'cfq'];
    for (const t of traced)
      for (const scheduler of chosen) {
        const meta = t === null ? {} : { meta: { scheduler: t } };
        const cli = replayTrace(reading, { scheduler, disk: 'sata-7200-500g', ...meta });
        expect(`${t} → ${scheduler}: ${defaultKernelFor(scheduler, t)}`).toBe(
          `${t} → ${scheduler}: ${cli.kernel.value}`,
        );
      }
    // a 2.6 trace replayed under none stays on the 2.6 block layer (the form once said 6.18)
    expect(defaultKernelFor('none', 'cfq')).toBe('2.6.32');
  });

  it('the engine’s notes for choices made in the form name the menus, not CLI options', () => {
    const reading = readTraceText(trace);
    for (const kernel of ['2.6.32', '6.18'] as const) {
      const r = replayTrace(reading, { scheduler: 'deadline', kernel, disk: 'sata-7200-500g' });
      const notes = [r.kernel.source, r.schedulerMapping.note, r.disk.source].map(pageNote);
      expect(notes.join(' ')).not.toMatch(/--(kernel|scheduler|disk)/);
      expect(notes).toContain('chosen in the Kernel menu');
      expect(notes).toContain('chosen in the Simulated device menu');
    }
    // the note on an unknown traced scheduler, which tells the CLI's user to give --kernel
    expect(
      pageNote(
        'the traced scheduler is unknown: the 2.6 block layer; give --kernel 6.18 for a blk-mq trace',
      ),
    ).toBe('the traced scheduler is unknown: the 2.6 block layer; choose 6.18 for a blk-mq trace');
    // the nr_requests note on kernel 6.18 ends with the CLI's option, which the page lacks
    const r = replayTrace(readTraceText(trace), { scheduler: 'none', kernel: '6.18' });
    expect(r.nrRequests!.source).toMatch(/: --nr-requests$/);
    expect(pageNote(r.nrRequests!.source)).not.toMatch(/--/);
  });
});
