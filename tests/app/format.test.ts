import { describe, expect, it } from 'vitest';
import { formatRate, ordinal } from '../../src/components/format';

describe('ordinal (the charts’ "every nth I/O is drawn")', () => {
  it('follows English: 1st 2nd 3rd 4th, 11th–13th, 21st 22nd 23rd, 101st, 111th', () => {
    const got = [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111].map(ordinal);
    expect(got).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '23rd',
      '101st',
      '111th',
    ]);
  });
});

describe('formatRate (the speed under the disk)', () => {
  it('says how slow, real time, or how fast — up to a thousand times real time', () => {
    expect(formatRate(40)).toBe('1 ms of disk time = 40.0 ms on screen');
    expect(formatRate(2000)).toBe('1 ms of disk time = 2.00 s on screen');
    expect(formatRate(1)).toBe('real time');
    expect(formatRate(0.01)).toBe('100× real time (1 s of disk time = 10.0 ms on screen)');
    expect(formatRate(0.001)).toBe('1000× real time (1 s of disk time = 1.00 ms on screen)');
  });
});
