// HP C2247A against DiskSim's published and measured figures (DISK-MODEL.md §6).
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/engine/run';
import { proc, scenario } from '../helpers/scenario';

const BLOCK_GROUP = 32768; // 4096 blocks of 4 KiB, in sectors

describe('hp-c2247a random 4 KiB writes within a block group, QD1 (row 11)', () => {
  const { summary } = runScenario(
    scenario({
      processes: [proc({ op: 'write', span: { startSector: 0, sectors: BLOCK_GROUP } })],
      stopRequests: 20000,
    }),
  );
  it('response 12.67 ms within 3%', () => {
    expect(summary.latencyMs.q2c.mean).toBeGreaterThan(12.67 * 0.97);
    expect(summary.latencyMs.q2c.mean).toBeLessThan(12.67 * 1.03);
  });
});
