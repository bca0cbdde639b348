import { describe, expect, it } from 'vitest';
import { pickEncoding } from '../src/plugins/compress.ts';

describe('the encoding an API answer is compressed with', () => {
  it('follows Accept-Encoding: brotli when both are welcome, what the client prefers, nothing when refused', () => {
    expect(pickEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(pickEncoding('gzip, deflate')).toBe('gzip');
    expect(pickEncoding('br;q=0.5, gzip;q=0.9')).toBe('gzip');
    expect(pickEncoding('br;q=0, gzip')).toBe('gzip');
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding('gzip;q=0')).toBeUndefined();
    expect(pickEncoding('identity')).toBeUndefined();
    expect(pickEncoding(undefined)).toBeUndefined();
  });
});
