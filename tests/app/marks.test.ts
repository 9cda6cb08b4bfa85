// The charts' line helper: a mean per bin with empty bins around it must still show.
import { describe, expect, it } from 'vitest';
import { linePath } from '../../src/components/charts/marks';

const id = (v: number) => v;

describe('linePath', () => {
  it('joins neighbouring points and breaks at NaN', () => {
    const d = linePath([0, 10, 20, 30], [1, 2, NaN, 4], id, id);
    expect(d).toContain('M0,1L10,2');
    expect(d).not.toMatch(/L30/);
  });
  it('draws a lone point (gaps on both sides) as a short dash centred on it', () => {
    // the seek-rotate-transfer lesson: bins at 25 and 75 ms, then lone bins at 175 and 275
    const d = linePath([25, 75, 125, 175, 225, 275], [31, 81, NaN, 150, NaN, 268], id, id);
    expect(d).toContain('M172.0,150.0h6');
    expect(d).toContain('M272.0,268.0h6');
    expect(d).not.toContain('M22.0,31.0h6'); // joined to its neighbour: no dash
  });
});
