// Splitting a bio larger than max_sectors (blk-mq's bio_split_to_limits, traced as X):
// the front max_sectors are split off and go on as a bio of their own; the rest is split
// again until it fits. Each piece becomes or joins a request like any bio; the original
// bio completes when its last piece does — that is what the process waits for, and what
// its Q2C measures. (In 2.6 a file system built its bios within the queue's limits, so a
// 2.6 trace never shows X; a scenario asking for a larger bio is split the modern way.)
import { noteSplit } from '../metrics/collector';
import { allocBio, bioAt, freeBio } from '../request';
import type { BlockSimulation } from './sim-view';
import { emitBio } from './emit';
import type { Bio } from './types';

/** The pieces of `bio` in submission order (X traced before each split-off piece). */
function splitBio(sim: BlockSimulation, bio: Bio, maxSectors: number): Bio[] {
  const pieces: Bio[] = [];
  let sector = bio.sector;
  let left = bio.nSectors;
  while (left > 0) {
    const n = Math.min(maxSectors, left);
    const piece = allocBio(
      sim.state.bios,
      sim.state.nextBioId++,
      bio.proc,
      bio.pid,
      bio.write,
      bio.sync,
      sector,
      n,
      bio.queuedNs,
    );
    piece.ioprioClass = bio.ioprioClass;
    piece.ioprioLevel = bio.ioprioLevel;
    piece.serviceNs = bio.serviceNs;
    // bio_split clones bi_opf: each piece carries REQ_PREFLUSH and REQ_FUA (blk-flush.ts)
    piece.preflush = bio.preflush;
    piece.fua = bio.fua;
    piece.parent = bio.slot;
    pieces.push(piece);
    sector += n;
    left -= n;
  }
  bio.pending = pieces.length;
  return pieces;
}

/** Q was traced for `bio`: submit its pieces, each after its X (the last has none). */
export function submitSplit(
  sim: BlockSimulation,
  bio: Bio,
  now: number,
  submit: (sim: BlockSimulation, piece: Bio, now: number) => void,
): void {
  const pieces = splitBio(sim, bio, sim.model.iosched.queue.maxSectors);
  noteSplit(sim, bio, pieces.length);
  for (let i = 0; i < pieces.length; i++) {
    // X: this piece is split off the front of what is left (blkparse prints "a / b")
    if (i < pieces.length - 1 && sim.sink) emitBio(sim, 'X', pieces[i]!, now);
    submit(sim, pieces[i]!, now);
  }
}

/** A completed bio: itself, or — for a piece, which is freed here — the bio it came from
 * once its last piece is done (its Q2C and Q2D are then the last piece's), else null. */
export function pieceEnds(sim: BlockSimulation, bio: Bio): Bio | null {
  if (bio.parent < 0) return bio;
  const whole = bioAt(sim.state.bios, bio.parent);
  freeBio(sim.state.bios, bio);
  whole.pending--;
  return whole.pending === 0 ? whole : null;
}
