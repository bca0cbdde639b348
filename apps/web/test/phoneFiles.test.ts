import { describe, expect, it } from 'vitest';
import { formatFileSize } from '../src/features/phones/fileSize.ts';

describe('file sizes', () => {
  it('uses base 1024 and units from Bytes to YB, with at most two decimals', () => {
    expect(formatFileSize(0)).toBe('0 Bytes');
    expect(formatFileSize(1)).toBe('1 Bytes');
    expect(formatFileSize(1023)).toBe('1,023 Bytes');
    expect(formatFileSize(1024)).toBe('1 KB');
    expect(formatFileSize(1536)).toBe('1.5 KB');
    expect(formatFileSize(38491164)).toBe('36.71 MB');
    expect(formatFileSize(1024 ** 3 * 2.345)).toBe('2.35 GB');
    expect(formatFileSize(1024 ** 4)).toBe('1 TB');
    expect(formatFileSize(1024 ** 5)).toBe('1 PB');
    expect(formatFileSize(1024 ** 6)).toBe('1 EB');
    expect(formatFileSize(1024 ** 7)).toBe('1 ZB');
    expect(formatFileSize(1024 ** 8)).toBe('1 YB');
    // Nothing bigger than YB: larger sizes stay in YB.
    expect(formatFileSize(1024 ** 9)).toBe('1,024 YB');
  });

  it('writes numbers the way the language does', () => {
    expect(formatFileSize(1536, 'it')).toBe('1,5 KB');
  });

  it('treats nonsense as nothing', () => {
    expect(formatFileSize(-5)).toBe('0 Bytes');
    expect(formatFileSize(Number.NaN)).toBe('0 Bytes');
  });
});
