import { describe, expect, it } from 'vitest';
import { defaultRebootTime } from '../src/features/phones/reboot.ts';

describe('the time a delayed reboot proposes', () => {
  it('rounds up to the next 5 minutes', () => {
    expect(defaultRebootTime(new Date(2026, 10, 23, 14, 2, 10))).toBe('14:05');
    expect(defaultRebootTime(new Date(2026, 10, 23, 14, 5, 0))).toBe('14:05');
    expect(defaultRebootTime(new Date(2026, 10, 23, 14, 5, 1))).toBe('14:10');
  });
  it('carries into the next hour and past midnight', () => {
    expect(defaultRebootTime(new Date(2026, 10, 23, 14, 58))).toBe('15:00');
    expect(defaultRebootTime(new Date(2026, 10, 23, 23, 57))).toBe('00:00');
  });
});
