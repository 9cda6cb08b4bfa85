// Fixed request lists may carry a traced service time and a per-request sync flag (replay).
import { describe, expect, it } from 'vitest';
import { parseScenarioText } from '../../src/engine/scenario/load';

const withRequest = (extra: Record<string, unknown>) =>
  JSON.stringify({
    name: 'r',
    iosched: { name: 'noop' },
    workload: {
      processes: [
        { name: 'p', requests: [{ sector: 0, sizeKiB: 4, op: 'write', atMs: 0, ...extra }] },
      ],
    },
  });

describe('fixed requests: serviceMs and sync', () => {
  it('are carried when given and absent when not', () => {
    const s = parseScenarioText(withRequest({ serviceMs: 1.25, sync: true }), 'r.json');
    expect(s.workload.processes[0]!.requests![0]).toMatchObject({ serviceMs: 1.25, sync: true });
    const plain = parseScenarioText(withRequest({}), 'r.json');
    expect(plain.workload.processes[0]!.requests![0]).not.toHaveProperty('serviceMs');
  });

  it('a negative service time is an error naming its key path', () => {
    expect(() => parseScenarioText(withRequest({ serviceMs: -1 }), 'r.json')).toThrow(
      /r\.json: workload\.processes\.0\.requests\.0\.serviceMs: must be null or a service time in ms from 0/,
    );
  });
});
