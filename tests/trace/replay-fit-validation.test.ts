// The fitted device on the four Linux 6.18 traces (tests/data/linux-6.18): fitted on the
// first half of each trace's D→C pairs, its predicted median D2C for the second half is
// within 20 % of the measured (docs/VALIDATION.md "Trace replay" records the figures, p95
// and per-request beside them). The fit is the general one (replay-fit.ts): nothing here is
// specific to these traces, and the same check runs on traces we do not have.
import { describe, expect, it } from 'vitest';
import { fitDevice, type DeviceFit } from '../../src/engine/trace/replay-fit';
import { readTraceText } from '../../src/engine/trace/replay-source';
import { dataText } from '../helpers/data';

function fitOf(name: string): DeviceFit {
  const meta = JSON.parse(dataText('linux-6.18', name, 'meta.json')) as {
    device: { rotational: number };
  };
  const reading = readTraceText(dataText('linux-6.18', name, 'trace.txt.gz'));
  const [dev] = [...reading.devices.values()];
  const fit = fitDevice(dev!, meta.device.rotational !== 0)!;
  expect(fit.heldBack.n).toBeGreaterThan(500);
  // the distribution's tail is reported, not held to a bound; it must be a figure
  expect(Number.isFinite(fit.heldBack.p95RelErr)).toBe(true);
  return fit;
}

describe('the fitted device: held-back median D2C error under 20 % on each trace', () => {
  it('bfq_randrw7030_jobs4: held-back median D2C within 20 %', () => {
    expect(fitOf('bfq_randrw7030_jobs4').heldBack.medianRelErr).toBeLessThan(0.2);
  }, 60_000);

  it('kyber_seqread_1m_split: held-back median D2C within 20 %', () => {
    expect(fitOf('kyber_seqread_1m_split').heldBack.medianRelErr).toBeLessThan(0.2);
  }, 60_000);

  it('mq-deadline_ext4_smallfiles_fsync: held-back median D2C within 20 %', () => {
    expect(fitOf('mq-deadline_ext4_smallfiles_fsync').heldBack.medianRelErr).toBeLessThan(0.2);
  }, 60_000);

  it('none_randread_4k: held-back median D2C within 20 %', () => {
    expect(fitOf('none_randread_4k').heldBack.medianRelErr).toBeLessThan(0.2);
  }, 60_000);
});
