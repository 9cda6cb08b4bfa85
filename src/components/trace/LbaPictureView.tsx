// What the disk did: every request with data at the time the kernel dispatched it (its D), at
// its start sector — seekwatcher's picture. The worker bins the requests into a fixed grid
// (LbaPicture), so this draws at most width × height cells with one putImageData.
import { useEffect, useRef } from 'react';
import type { LbaPicture } from '../../worker/trace-client';
import { count, fixed } from './format';

const READ = [28, 126, 214]; // the accent blue
const WRITE = [232, 89, 12]; // orange
const BOTH = [130, 60, 170];

export function LbaPictureView({ picture, device }: { picture: LbaPicture; device: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const c = canvas.current;
    const ctx = c?.getContext('2d');
    if (!c || !ctx) return;
    const w = picture.width;
    const h = picture.height;
    const img = ctx.createImageData(w, h);
    const px = img.data;
    px.fill(255);
    const cells = picture.cells;
    // a sparse picture gets bigger marks (a cell is one pixel of 720): r cells around each
    const drawn = picture.reads + picture.writes;
    const r = drawn < 2000 ? 2 : drawn < 20000 ? 1 : 0;
    for (let i = 0; i < cells.length; i++) {
      const v = cells[i]!;
      if (v === 0) continue;
      const col = v === 1 ? READ : v === 2 ? WRITE : BOTH;
      const cx = i % w;
      const cy = (i - cx) / w;
      for (let y = Math.max(0, cy - r); y <= Math.min(h - 1, cy + r); y++)
        for (let x = Math.max(0, cx - r); x <= Math.min(w - 1, cx + r); x++) {
          const o = (y * w + x) * 4;
          // where marks of both kinds overlap, the mixed colour
          const mixed =
            (px[o] === READ[0] && col === WRITE) || (px[o] === WRITE[0] && col === READ);
          const c = mixed ? BOTH : col;
          px[o] = c[0]!;
          px[o + 1] = c[1]!;
          px[o + 2] = c[2]!;
        }
    }
    ctx.putImageData(img, 0, 0);
  }, [picture]);

  const drawn = picture.reads + picture.writes;
  const span = picture.t1 - picture.t0;
  return (
    <figure className="lba-figure" aria-label="LBA over time">
      <figcaption>
        <strong>What the disk did</strong>{' '}
        <span className="muted">
          — each request at the time it was dispatched (D) and its start sector,{' '}
          {device === 'all' ? 'all devices' : `device ${device}`}
        </span>
      </figcaption>
      {drawn === 0 ? (
        <p className="muted">No request with data was dispatched in this trace.</p>
      ) : (
        <div className="lba-plot">
          <div className="lba-y" aria-hidden="true">
            <span>{count(picture.s1)}</span>
            <span className="lba-axis-name">sector</span>
            <span>{count(picture.s0)}</span>
          </div>
          <canvas
            ref={canvas}
            width={picture.width}
            height={picture.height}
            role="img"
            data-testid="lba-canvas"
            aria-label={`${count(picture.reads)} reads and ${count(picture.writes)} writes dispatched over ${fixed(span, 3)} s, sectors ${count(picture.s0)} to ${count(picture.s1)}`}
          />
          <div className="lba-x" aria-hidden="true">
            <span>0 s</span>
            <span className="lba-axis-name">time since the first dispatch</span>
            <span>{fixed(span, span >= 10 ? 1 : 3)} s</span>
          </div>
        </div>
      )}
      <p className="lba-legend small">
        <span className="swatch" style={{ background: `rgb(${READ.join(',')})` }} /> read{' '}
        {count(picture.reads)}
        <span className="swatch" style={{ background: `rgb(${WRITE.join(',')})` }} /> write{' '}
        {count(picture.writes)}
        <span className="swatch" style={{ background: `rgb(${BOTH.join(',')})` }} /> both in one
        cell
        {picture.undispatched > 0 && (
          <span className="muted">
            {' '}
            · {count(picture.undispatched)} queued{' '}
            {picture.undispatched === 1 ? 'request' : 'requests'} never dispatched in the trace (not
            drawn)
          </span>
        )}
      </p>
    </figure>
  );
}
