// The chips' text colour (colors.ts inkOn): on every process colour, text reaches WCAG 2's
// 4.5:1 (axe-core's color-contrast rule, issue 16 item 8).
import { describe, expect, it } from 'vitest';
import { contrast, inkOn, processColour } from '../../src/components/colors';

describe('colours', () => {
  it('contrast is WCAG 2’s ratio: black on white 21, a colour on itself 1', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#4e79a7', '#4e79a7')).toBe(1);
    // axe's figure for the legend grey on white (issue 16)
    expect(contrast('#858789', '#ffffff')).toBeCloseTo(3.6, 1);
  });

  it('inkOn: text on each of the ten process colours reaches 4.5:1', () => {
    for (let p = 0; p < 10; p++) {
      const bg = processColour(p);
      expect(contrast(inkOn(bg), bg), bg).toBeGreaterThanOrEqual(4.5);
    }
    expect(inkOn('#edc948')).toBe('#111111'); // white on yellow would be 1.6:1
  });
});
