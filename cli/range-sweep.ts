// `spindle range-sweep <sweep>`: the range-writes paper's simulations on hp-c2247a
// (src/engine/disk/range-experiments.ts), one row per run.
import {
  QUEUE_DEPTHS,
  SWEEP_REQUESTS,
  SWEEPS,
  sweep,
  type SweepName,
} from '../src/engine/disk/range-experiments';
import { flag, parseArgs, single } from './args';
import { UsageError } from './errors';
import { num, table } from './format';

/** the sweeps whose depths --queue-depths sets (the others run fixed depths) */
const DEPTH_SWEEPS = ['qd', 'track', 'group'];

export function rangeSweepCommand(argv: readonly string[], print: (text: string) => void): void {
  const a = parseArgs('range-sweep', argv, {
    json: { value: false },
    requests: { value: true },
    'queue-depths': { value: true },
  });
  const name = a.positionals[0];
  if (a.positionals.length !== 1 || !(SWEEPS as readonly string[]).includes(name!))
    throw new UsageError(`range-sweep takes one sweep: ${SWEEPS.join(', ')}`);
  const requests = intOption(
    single(a, 'requests'),
    'requests',
    SWEEP_REQUESTS[name as SweepName] ?? 3000,
  );
  const given = single(a, 'queue-depths');
  if (given !== undefined && !DEPTH_SWEEPS.includes(name!))
    throw new UsageError(
      `--queue-depths applies to ${DEPTH_SWEEPS.join(', ')}; ${name} runs its own depths (see spindle range-sweep --help)`,
    );
  const depths = (given ?? QUEUE_DEPTHS.join(','))
    .split(',')
    .map((s) => intOption(s, 'queue-depths', 1));
  if (depths.some((d) => d < 1 || d > 64))
    throw new UsageError('--queue-depths takes depths from 1 to 64, e.g. 1,2,16');
  const rows = sweep(name as SweepName, requests, depths);
  if (flag(a, 'json')) {
    print(JSON.stringify({ sweep: name, disk: 'hp-c2247a', requests, rows }, null, 2));
    return;
  }
  const keys = Object.keys(rows[0]?.key ?? {});
  const head = [...keys, 'ms/req', 'seek', 'rotation', 'transfer', 'overhead', 'est/decision'];
  const body = rows.map((r) => [
    ...keys.map((k) => String(r.key[k])),
    num(r.figures.msPerRequest),
    num(r.figures.seekMs),
    num(r.figures.rotationMs),
    num(r.figures.transferMs),
    num(r.figures.overheadMs),
    num(r.figures.estimatesPerDecision, 1),
  ]);
  print(table([head, ...body], 'l'.repeat(keys.length)));
}

function intOption(s: string | undefined, name: string, fallback: number): number {
  if (s === undefined) return fallback;
  const n = Number(s);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`--${name} takes whole numbers from 1 (got ${s})`);
  return n;
}
