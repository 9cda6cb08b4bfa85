// One test per quirk listed in tests/data/linux-6.18/README.md ("Things a parser must
// cope with") and per format in tests/data/public/README.md — each is genuine tool
// behaviour. Real files where the corpus has the quirk, blkparse-format lines otherwise.
import { describe, expect, it } from 'vitest';
import { parseLine, type ParsedEvent } from '../../src/engine/trace/parse-line';
import { parseTraceText } from '../../src/engine/trace/parse';
import { dataText } from '../helpers/data';

const real = (name: string): string => dataText('linux-6.18', name, 'trace.txt.gz');
const pub = (name: string): string => dataText('public', name);

function ev(line: string): ParsedEvent {
  const r = parseLine(line, 1);
  if (r.kind !== 'event') throw new Error(`not an event: ${JSON.stringify(r)}`);
  return r.event;
}

describe('linux-6.18 README quirks', () => {
  it('1. message lines: sequence 0, pid 0, free text; counted in Events, ignored by btt', () => {
    const e = ev('  7,0    0        0     0.000021276     0  m   N bfq27858S allocated');
    expect(e).toMatchObject({
      action: 'm',
      seq: 0,
      pid: 0,
      rwbs: 'N',
      message: 'bfq27858S allocated',
    });
    const r = parseTraceText(real('bfq_randrw7030_jobs4'));
    expect(r.messages).toBe(42850);
    expect(r.events).toBe(57186); // blkparse's "Events (loop0): 57186 entries" includes them
    expect(r.btt.q2c.n).toBe(2048);
  });

  it('2. flush requests: D FN / C FN 0 [0] are reads of 0 KiB; Q FWS [sync] a write of 0 KiB', () => {
    const r = parseTraceText(real('mq-deadline_ext4_smallfiles_fsync'));
    expect(r.reads.queued).toEqual({ count: 3, kib: 12 });
    expect(r.reads.dispatched).toEqual({ count: 2579, kib: 12 });
    const flush = ev('  7,0    0     9660     1.626085317    58  D  FN [kworker/0:1H]');
    expect(flush).toMatchObject({ write: false, sector: -1, nSectors: 0, comm: 'kworker/0:1H' });
    expect(ev('  7,0    0     9661     1.626823917    14  C  FN 0 [0]')).toMatchObject({
      write: false,
      sector: 0,
      nSectors: 0,
      error: 0,
    });
    expect(ev('  7,0    0     9658     1.626074327 27922  Q FWS [sync]')).toMatchObject({
      write: true,
      nSectors: 0,
      comm: 'sync',
    });
    // btt ignores 0-byte events: #Q is 11904 of the 11934 Q lines, #D 3963 of 6539 D lines
    expect(r.btt.merge).toMatchObject({ q: 11904, d: 3963 });
  });

  it('3. no I events with the none scheduler: no G2I or I2D rows', () => {
    const r = parseTraceText(real('none_randread_4k'));
    expect(r.actions.I).toBeUndefined();
    expect(r.btt.g2i.n).toBe(0);
    expect(r.btt.i2d.n).toBe(0);
    expect(r.btt.d2c.n).toBe(8192);
  });

  it('4. splits: one Q, several G/I/D/C; btt pairs no Q2C/D2C, a Q2G per piece', () => {
    const x = ev('  7,0    1        2     0.000005786 27734  X   R 1572864 / 1573120 [fio]');
    expect(x).toMatchObject({ action: 'X', sector: 1572864, splitSector: 1573120, comm: 'fio' });
    const r = parseTraceText(real('kyber_seqread_1m_split'));
    expect(r.actions).toMatchObject({ Q: 384, X: 2688, G: 3072, D: 3072, C: 3072 });
    expect(r.btt.q2c.n).toBe(0);
    expect(r.btt.d2c.n).toBe(0);
    expect(r.btt.q2g.n).toBe(3072);
    expect(r.btt.merge.q).toBe(3072); // btt raises #Q to #D
    expect(r.btt.mergeRatio).toBe(1);
    expect(r.btt.unmatchedQ).toBe(384);
  });

  it('5. remaps: A before the Q, sector on the whole disk, the offset within the partition', () => {
    const a = ev('  8,0    2      948    86.167989424   927  A WSM 5865760 + 192 <- (8,3) 2537760');
    expect(a).toMatchObject({ action: 'A', dev: '8,0', sector: 5865760, nSectors: 192 });
    expect(a).toMatchObject({ remapDev: '8,3', remapSector: 2537760, write: true });
    expect(
      ev('  7,0    0        1     0.000000000  1234  A  WS 2048 + 128 <- (259,0) 0'),
    ).toMatchObject({
      remapDev: '259,0',
      remapSector: 0,
    });
    const r = parseTraceText(pub('remap-lines.txt'));
    expect(r.devices).toEqual(['8,0', '8,3']);
    expect(r.actions.A).toBe(1);
  });

  it('6. per-CPU blocks do not balance; Total KiB does, per direction', () => {
    for (const name of [
      'bfq_randrw7030_jobs4',
      'mq-deadline_ext4_smallfiles_fsync',
      'none_randread_4k',
    ]) {
      const r = parseTraceText(real(name));
      for (const d of [r.reads, r.writes]) {
        expect(d.queued.kib).toBe(d.dispatched.kib);
        expect(d.dispatched.kib).toBe(d.completed.kib);
      }
    }
    const r = parseTraceText(real('none_randread_4k'));
    expect(r.cpus.CPU0!.reads.queued.count).toBe(0);
    expect(r.cpus.CPU0!.reads.completed.count).toBe(556);
  });

  it('7. completion lines end in [error], and their pid is whoever ran the softirq', () => {
    const c = ev('  7,0    0     7966     0.073273360    14  C  WS 2271568 + 8 [0]');
    expect(c).toMatchObject({ error: 0, pid: 14 });
    expect(c.comm).toBeUndefined();
    expect(ev('  8,0    1       11     0.009507758     0  C   W 223490 + 56 [-5]').error).toBe(-5);
    const r = parseTraceText(real('none_randread_4k'));
    const softirq = r.processes.find((p) => p.pid === 22)!;
    expect(softirq.queued.count).toBe(0);
    expect(softirq.completed.count).toBeGreaterThan(0);
  });

  it('8. U and UT end with the count of requests flushed', () => {
    expect(ev('  7,0    1       10     0.000025165 27608  U   N [fio] 4')).toMatchObject({
      action: 'U',
      count: 4,
    });
    expect(ev('259,0    0      200     0.000534474  1897 UT   N [cat] 1')).toMatchObject({
      action: 'UT',
      count: 1,
      comm: 'cat',
    });
    const r = parseTraceText(pub('remap-lines.txt'));
    expect(r.unplugs).toEqual({ io: 0, timer: 1 });
  });

  it('9. every RWBS value seen: direction from the main letter after an optional flush F', () => {
    const writes = ['W', 'WS', 'WM', 'WSM', 'WFS', 'WFSM', 'FWS', 'FWFSM', 'DS', 'WBS'];
    const reads = ['R', 'RA', 'RM', 'RAM', 'RS', 'FN', 'N'];
    for (const rwbs of [...writes, ...reads]) {
      const e = ev(`  7,0    0        1     0.000000000   100  Q ${rwbs.padStart(3)} 8 + 8 [x]`);
      expect(e.rwbs).toBe(rwbs);
      expect(e.write, rwbs).toBe(writes.includes(rwbs));
    }
  });

  it('10. discards: one Q DS 0 + 4194304 is a write of 2 GiB', () => {
    const r = parseTraceText(
      '  7,0    0        1     0.000000000   100  Q  DS 0 + 4194304 [mkfs.ext4]\n',
    );
    expect(r.writes.queued).toEqual({ count: 1, kib: 2097152 });
  });

  it("11. blkparse's overflow on a 2 GiB request: Spindle's completed KiB is the correct one", () => {
    const lines = [
      '  7,0    1        1     0.000000000   100  Q  DS 0 + 4194304 [mkfs.ext4]',
      '  7,0    1        2     0.000001000   100  G  DS 0 + 4194304 [mkfs.ext4]',
      '  7,0    1        3     0.000002000   100  D  DS 0 + 4194304 [mkfs.ext4]',
      '  7,0    1        4     0.500000000     0  C  DS 0 + 4194304 [0]',
      'CPU1 (loop0):',
      ' Reads Queued:           0,        0KiB\t Writes Queued:           1,     2097MiB',
      ' Reads Completed:        0,        0KiB\t Writes Completed:        1, 18446744073PiB',
      'Throughput (R/W): 0KiB/s / 73201365371741585KiB/s',
      'Events (loop0): 4 entries',
    ];
    const r = parseTraceText(lines.join('\n') + '\n');
    expect(r.writes.completed).toEqual({ count: 1, kib: 2097152 });
    expect(r.throughputKiBs.write).toBe(4194304);
    const printed = r.printedSummary.loop0!.blocks.CPU1!;
    expect(printed['Writes Completed']).toMatchObject({ printed: '18446744073PiB' });
    expect(printed['Writes Queued']).toMatchObject({ kib: 2097000, printed: '2097MiB' });
    expect(r.btt.q2c.n).toBe(1);
  });

  it('12. a single-CPU trace has no Total block: the totals are the one CPU', () => {
    const r = parseTraceText(
      pub('blktrace-doc-2006-kjournald.txt').replace(/^( {2}8,0 {4})3/gm, '$11'),
    );
    expect(Object.keys(r.cpus)).toEqual(['CPU1']);
    expect(r.cpus.CPU1!.writes).toEqual(r.writes);
  });

  it('13. blkparse\'s "MiB" is ×1000 KiB and a lower bound', () => {
    const r = parseLine(
      ' Reads Queued:        1463,     4163MiB\t Writes Queued:         585,     2340KiB',
      1,
    );
    expect(r).toEqual({
      kind: 'summary',
      summary: {
        kind: 'fields',
        fields: [
          { name: 'Reads Queued', count: 1463, kib: 4163000, printed: '4163MiB' },
          { name: 'Writes Queued', count: 585, kib: 2340 },
        ],
      },
    });
  });
});

describe('public excerpts (traces/public/README.md)', () => {
  it('2006 era: G before Q, P printed with R, six back merges into a 56-sector request', () => {
    const r = parseTraceText(pub('blktrace-doc-2006-kjournald.txt'));
    expect(r.malformed).toBe(0);
    expect(r.actions).toMatchObject({ G: 1, P: 1, Q: 1, M: 6, D: 1, C: 1 });
    expect(r.writes.merges).toBe(6);
    expect(r.writes.completed).toEqual({ count: 1, kib: 28 });
    expect(ev('  8,0    3        2     0.000001829   697  P   R [kjournald]')).toMatchObject({
      action: 'P',
      rwbs: 'R',
      comm: 'kjournald',
    });
    // btt pairs by sector with an earlier Q: the G comes first, the merged bios have no Q line
    expect(r.btt.q2g.n).toBe(0);
    expect(r.btt.q2m.n).toBe(0);
    expect(r.btt.q2c.n).toBe(1);
  });

  it("2006 summary block: merges as a bare count, and the old 'Events: N entries, N skips' line", () => {
    const r = parseTraceText(pub('blktrace-doc-2006-summary.txt'));
    expect(r.fatal).toBeNull();
    const s = r.printedSummary['8,0']!;
    expect(s.blocks.Total!['Write Merges']).toEqual({ count: 31 });
    expect(s.blocks.Total!['Writes Queued']).toEqual({ count: 11, kib: 168 });
    expect(s.blocks.CPU1!['Timer unplugs']).toEqual({ count: 0 });
    expect(s.events).toBe(89);
    expect(s.skips).toBe('0');
    expect(r.problems.map((p) => p.text)).toEqual(['...']); // the document's elision
  });

  it('SCSI pass-through lines: bytes and the hex command, counted apart from fs requests', () => {
    const r = parseTraceText(pub('blktrace-doc-2006-scsi-pc.txt'));
    expect(r.malformed).toBe(0);
    expect(
      ev('  3,0    0       26     0.004890361 13528  I   R 56 (12 00 00 00 38 ..) [inquiry]'),
    ).toMatchObject({
      pc: { bytes: 56, cdb: '12 00 00 00 38 ..' },
      comm: 'inquiry',
    });
    expect(r.pc!.reads.dispatched.count).toBe(1);
    expect(r.reads.dispatched.count).toBe(0);
  });

  it('modern summary block with thousands separators and depth lines', () => {
    const r = parseTraceText(pub('modern-fio-sde-summary.txt'));
    const s = r.printedSummary.sde!;
    expect(s.blocks.Total!['Writes Queued']).toEqual({ count: 8763, kib: 352192 });
    expect(s.blocks.CPU8!['Write depth']).toEqual({ count: 20 });
    expect(s.blocks.Total!['IO unplugs']).toEqual({ count: 3092 });
    expect(s.throughput).toMatchObject({ read: 0, write: 5872 });
    expect(s.events).toBe(39850);
    expect(r.malformed).toBe(0);
  });

  it('modern lines: per-task plug, merge and remap', () => {
    const r = parseTraceText(pub('modern-fio-sde.txt'));
    expect(r.malformed).toBe(0);
    expect(r.writes.merges).toBe(1);
    // the excerpt quotes a remap line from earlier in the trace: it is put back in time order
    expect(r.reordered).toBe(1);
    expect(r.timeReversals).toBe(0);
  });

  it('CFQ messages with a cgroup path', () => {
    const r = parseTraceText(pub('cfq-messages.txt'));
    expect(r.messages).toBe(5);
    expect(
      ev('  8,16   0        0     0.014282728     0  m   N cfq schedule dispatch').message,
    ).toBe('cfq schedule dispatch');
  });

  it('BFQ messages with a cgroup column, and pass-through D/C without a command payload', () => {
    const r = parseTraceText(pub('bfq-messages-cgroup-column.txt'));
    expect(r.malformed).toBe(0);
    expect(
      ev(
        '  8,0    2        0     0.000000000 39952 1,0  m   N bfq [bfq_limit_depth] wr_busy 0 sync 0 depth 8',
      ),
    ).toMatchObject({
      cgroup: '1,0',
      pid: 39952,
      message: 'bfq [bfq_limit_depth] wr_busy 0 sync 0 depth 8',
    });
    expect(ev('  8,0    2        1     0.000008134 39952  D   R 4 [dmraid]').pc).toEqual({
      bytes: 4,
      cdb: '',
    });
    expect(ev('  8,0    2        2     0.000021538    24  C   R [0]')).toMatchObject({
      error: 0,
      pc: { bytes: 0 },
    });
  });
});
