// Usage text for `spindle --help` and `spindle <command> --help`.

import type { CommandName } from './commands';
import { MAX_DECISIONS } from './decisions';

const SCENARIO_EDITS = `  --set KEY=VALUE   change a scenario value before validation; KEY is the JSON path
                    (disk.queueDepth=16, workload.processes.0.count=4,
                    iosched.tunables.read_expire=100); numbers, true/false, null and
                    JSON objects/lists are parsed, anything else is a string. Repeatable.
  --scheduler S     an I/O scheduler name sets iosched.name; a drive scheduler
                    (fcfs, sstf, clook, sptf, asptf) sets disk.scheduler. Another I/O
                    scheduler starts at its defaults, as in the kernel: the file's
                    iosched.tunables are left out (a note on stderr says which); those
                    given with --set are kept
  --seed N          the random seed (0 to 4294967295), instead of the scenario's
  --disk-file F     a DiskSim 4.0 disk as the drive: F is its .parv, with the files it
                    sources beside it; disk.preset becomes "file:<F's name>", the page's
                    name for it; what Spindle does not apply is counted on stderr`;

const HELP: Record<CommandName | 'main', string> = {
  main: `spindle — a deterministic disk I/O scheduling simulator

Usage: spindle <command> [options]

Commands:
  run <scenario.json>      run a scenario and report its figures
  sweep <scenario.json>    run a scenario over a grid of settings
  export <scenario.json>   write the simulated run as blkparse text
  presets                  list the disk presets
  parse <trace>            summarise a blkparse trace (blkparse's and btt's figures)
  replay <trace>           replay a blkparse trace on a simulated disk, measured vs simulated
  range-sweep <sweep>      the range-writes paper's simulations on hp-c2247a
  disksim-validate <parv> <trace>
                           DiskSim's validate mode on the disk a DiskSim .parv describes
  disksim-read <parv>      the Spindle disk a DiskSim .parv describes, and what is not applied

Options for every command: --help. With --json a command prints exactly one JSON
document on stdout. Errors go to stderr as "spindle: <message>"; the exit status is
2 for a bad argument or scenario, 1 for any other failure.

Example: spindle run public/scenarios/c2247a-random-read.json --set disk.queueDepth=8 --json`,

  run: `Usage: spindle run <scenario.json> [--scheduler S] [--set KEY=VALUE …] [--seed N]
                  [--disk-file F] [--decisions WORDS] [--json]

Run the scenario to its end and print a summary (or, with --json, the figures as one
JSON document: requests, throughput, Q2C/Q2D/D2C latencies, positioning breakdown,
per-process figures). "-" reads the scenario from standard input.

${SCENARIO_EDITS}
  --decisions WORDS the decisions whose rule contains one of the comma-separated words
                    (switch, quantum, fifo-expired, …): time, layer, rule, the request
                    chosen and the scheduler's sentence, after the summary (with --json,
                    as "decisions": {match, total, shown}); at most ${MAX_DECISIONS} shown
  --json            print the figures as JSON`,

  sweep: `Usage: spindle sweep <scenario.json> --vary KEY=V1,V2,… [--vary …] [--scheduler S1,S2,…]
                     [--set KEY=VALUE …] [--seed N] [--json]

Run the scenario once for every combination of the varied settings (the cartesian
product, the first --vary outermost). With --json: {"scenario", "runs": [{"settings",
"summary"}]}, each summary as \`spindle run --json\` prints it.

  --vary KEY=V1,V2  a setting to vary and its values (commas inside {…} or […] do not
                    split). Repeatable.
  --scheduler S1,S2 vary the scheduler (each name as for run's --scheduler)
  --set KEY=VALUE   a fixed change, applied to every run. Repeatable.
  --seed N          the random seed for every run
  --json            print the runs as JSON`,

  export: `Usage: spindle export <scenario.json> --format blkparse [--scheduler S] [--set KEY=VALUE …] [--seed N]

Run the scenario and write every I/O event (Q, G, I, D, C) to stdout as blkparse's
default text format, line by line as the simulation produces them. Device 8,0, CPU 0;
completions carry pid 0 and the error value [0], as blkparse prints them.

  --format blkparse the output format (the only one so far)
${SCENARIO_EDITS}`,

  'disksim-validate': `Usage: spindle disksim-validate <X.parv> <X.trace> [--json]

Read a DiskSim 4.0 parameter file (with the .diskspecs, .model and .seek files it
sources, looked up beside it) into a Spindle disk and replay a DiskSim validation trace
on it as DiskSim's validate mode does: each request issued the trace's gap after the
previous one completed, one at a time, straight to the drive. Prints the simulated and
measured mean, p50, p95 and p99 response times and the demerit (DiskSim's rms: the RMS
horizontal distance between the two response-time distributions, as valid/runvalid
reports it), then every parameter Spindle did not apply, with its file and line.

  --json            one document: simulated.{mean,p50,p95,p99}, measured.{…}, demerit
                    (ms), demeritPercent, requests, unapplied [{param, value, file, line, why}]`,

  'disksim-read': `Usage: spindle disksim-read <X.parv> [--json]

Read a DiskSim 4.0 parameter file (and the files it sources) and print the disk it
describes and every parameter Spindle does not apply, with its file and line.

  --json            the Spindle disk parameters (DiskParams, as the presets), the scheduler,
                    the unapplied parameters and the files read`,

  presets: `Usage: spindle presets [--json]

List the disk presets a scenario can name in disk.preset, with their size and speed.

  --json            print them as JSON`,

  parse: `Usage: spindle parse <trace.txt|.gz|-> [--device MAJ,MIN] [--json]

Summarise a blkparse text trace (blkparse's default output of any era, blkparse's summary
block, or the text of the kernel's ftrace blk tracer; gzip accepted; "-" reads standard
input): per-direction queued/dispatched/completed counts and KiB, merges and depth with
blkparse's own meanings, per-CPU and per-process figures, and btt's Q2Q, Q2G, G2I, Q2M,
I2D, M2D, D2C, Q2C (seconds) and merge ratio #Q/#D. Unreadable lines are counted and the
first few reported with their line numbers; they never stop the parse.

  --device MAJ,MIN  summarise one device (default: all; "devices" lists them)
  --json            print the summary as one JSON document`,

  replay: `Usage: spindle replay <trace.txt|.gz> [--scheduler S] [--disk traced|PRESET | --disk-file F.parv]
                      [--mode open|closed|trace-timed]
                      [--queue-depth N] [--nr-requests N] [--device MAJ,MIN] [--kernel K]
                      [--json]

Replay a blkparse trace's Q events on a simulated disk: one process per traced pid (named
after its [comm]), each request with its traced sector, size, direction and sync flag
(reads always sync; writes when RWBS has S). Empty flushes, discards and zero-size Qs are
skipped and counted. Prints the measured figures (btt's Q2C/D2C, with percentiles from
btt's per-request values, and throughput) beside the simulated ones, throughput over
time for both in fixed windows, and the dispatch-order agreement (its definition is in
the output). --mode trace-timed replays the kernel's requests (its bios merged as the
kernel merged them), each issued when it was allocated (G) and served in its traced D2C,
so only the scheduler's choices differ from the kernel's: the fairest agreement figure.
A meta.json beside the trace
(the shared corpus's) gives the traced scheduler, whether the device rotates,
max_sectors_kb and nr_requests (kernel 6.18: the tag pool's size). A trace from a disk
larger than the simulated one is packed onto it: the regions it touches (1 GiB, or
smaller until they fit) keep their order and each request its offset in its region
("addresses" in the output says how). A trace without Qs
(recorded with blktrace -a issue -a complete) is replayed from its dispatches (D).

  --scheduler S     the Spindle scheduler; default: the nearest to the traced one
                    (each of mq-deadline, bfq, kyber and none → itself; a 2.6 trace's
                    noop, deadline, anticipatory, cfq → itself), stated in
                    "schedulerMapping"
  --disk D          the simulated device: traced (the default) is the device fitted
                    to this trace's D→C pairs (service by direction, size, distance,
                    parallelism; "fit" in the output, with its error on held-back
                    pairs); or any preset (spindle presets). A trace with under 16
                    D→C pairs falls back to sata-7200-500g (ssd for a non-rotating
                    device). A caution is printed when the simulated median D2C
                    differs from the traced one by more than 2×
  --disk-file F     a DiskSim 4.0 disk as the simulated device (its .parv, with the
                    files it sources beside it), named "file:<F's name>" as the page
                    names it; instead of --disk
  --mode M          open: issue at the traced Q times (default); closed: a request
                    waits its traced think time after its process's own completion
                    (dependent), or its traced gap after the process's previous
                    request (independent); trace-timed: the kernel's requests, at
                    their traced G times, each in its traced D2C, never merged
  --queue-depth N   the drive's queue depth, 1 to 256 (default: the trace's most
                    requests in flight on the device, D to C, up to the drive's
                    limit); stated in "queueDepth"
  --nr-requests N   kernel 6.18: the queue's nr_requests, the tags a request takes
                    (default: meta.json's, else the kernel's for the queue depth:
                    2 × min(depth, 128) with a scheduler, the depth with none);
                    stated in "nrRequests"
  --device MAJ,MIN  the device to replay (default: the only one with Qs)
  --kernel K        the simulated block layer: 2.6.32, 2.6.16 or 6.18 (per-task
                    plugging); default: 6.18 when a blk-mq trace (mq-deadline,
                    bfq, kyber, none) is replayed under mq-deadline or none, else
                    2.6.32 (the 2.6 schedulers' own); stated in "kernel"
  --json            print the comparison as one JSON document`,

  'range-sweep': `Usage: spindle range-sweep <sweep> [--requests N] [--queue-depths 1,2,…] [--json]

Range writes (Anand et al., OSDI '08) on hp-c2247a under in-disk SPTF: random 4 KiB
writes, a closed loop keeping the queue depth's worth in the drive; a block is 4 KiB and
a block group 32,768 sectors. One row per run: time per request and its positioning.

Sweeps:
  qd          no ranges, queue depth 1…64, whole disk and one block group
  track       track-sized ranges (88 sectors, the group's track; and 100 blocks) vs none,
              over the whole disk and within the group
  group       group-sized ranges within the group vs none
  targets     1…64 targets of 1 and of 100 blocks within the group, depth 1
  reads       reads mixed in (0…100%) at depths 1 and 16 within the group, 100-block
              ranges vs none
  same-track  rewrites within one track: ECS with 1, 2, 4, 8 and all targets, HRS, none
  hrs-ecs     S = T: HRS vs full ECS (mean time and estimates), 4 KiB and sector blocks
  small-files the file-system case study: 4 KiB files into a 128 MiB ext2 block group
              by 1 and by 16 processes, 0…90% full, with and without ranges (depth 16)

  --requests N        completed requests per run (default 3000; small-files: 1000 files)
  --queue-depths L    the depths for qd, track and group (default 1,2,4,8,16,32,64); the
                      other sweeps run the depths above
  --json              print the rows as one JSON document`,
};

export function helpText(command: CommandName | 'main'): string {
  return HELP[command];
}
