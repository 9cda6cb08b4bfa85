import { describe, expect, it } from 'vitest';
import { ordinal } from '../../src/components/format';

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
