import { describe, expect, it } from 'vitest';
import { normaliseHours, timeGroupWriteSchema, timeRangeSchema } from '../src/index.ts';

describe('time ranges', () => {
  it.each([
    ['9:00', '09:00'],
    ['9:00-17:30', '09:00-17:30'],
    ['08:30-9:45', '08:30-09:45'],
    ['*', '*'],
    ['12:00-13:00', '12:00-13:00'],
  ])('writes %j as %j', (input, output) => {
    expect(normaliseHours(input)).toBe(output);
  });

  it('takes hours with or without the leading zero, and stores them with it', () => {
    expect(timeRangeSchema.parse({ hours: '9:00-17:00' }).hours).toBe('09:00-17:00');
    expect(timeRangeSchema.parse({ hours: ' 9:00 ' }).hours).toBe('09:00');
    expect(timeRangeSchema.parse({ hours: '09:00-17:00' }).hours).toBe('09:00-17:00');
    const group = timeGroupWriteSchema.parse({
      name: 'Office',
      ranges: [{ hours: '8:30-12:30', weekdays: 'mon-fri' }],
    });
    expect(group.ranges[0]).toEqual({ hours: '08:30-12:30', weekdays: 'mon-fri', mdays: '*', months: '*' });
  });

  it.each(['9', '24:00', '9:60', '123:00', '9:0', '8-12'])('still refuses %j', (hours) => {
    expect(timeRangeSchema.safeParse({ hours }).success).toBe(false);
  });
});
