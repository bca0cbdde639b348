import { describe, expect, it } from 'vitest';
import {
  isHttpUrl,
  looksLikeJsonFile,
  paramUrlProfileChoices,
  paramUrlWriteSchema,
  STREAMING_OPEN_PATTERN,
  snapshotDataUrl,
  streamingPermissionName,
  streamingSourceWriteSchema,
} from '../src/index.ts';

describe('parameterised URLs', () => {
  it('accepts http(s) URLs with placeholders only', () => {
    expect(isHttpUrl('https://crm.example/?n=$CALLER_NUMBER&id=$UNIQUEID')).toBe(true);
    expect(isHttpUrl('HTTP://10.0.0.1:8080/$CALLED')).toBe(true);
    for (const url of ['ftp://x/', 'javascript:alert(1)', 'https://', '//crm.example/', 'crm.example']) {
      expect(isHttpUrl(url), url).toBe(false);
    }
    expect(paramUrlWriteSchema.safeParse({ url: ' https://a.example/ ', profiles: ['1', 1] }).data).toEqual({
      url: 'https://a.example/',
      profiles: [1],
      only_queues: false,
    });
    expect(paramUrlWriteSchema.safeParse({ url: 'https://a.example/x y', profiles: [1] }).success).toBe(false);
  });

  it('disables the profiles of other URLs, not those of the URL being edited', () => {
    const profiles = [
      { id: 1, name: 'Base' },
      { id: 2, name: 'Standard' },
      { id: 3, name: 'Advanced' },
    ];
    const urls = [
      { id: 10, url: 'https://a/', profiles: '1', only_queues: false },
      { id: 11, url: 'https://b/', profiles: '2', only_queues: true },
    ];
    expect(paramUrlProfileChoices(profiles, urls).map((c) => c.disabled)).toEqual([true, true, false]);
    expect(paramUrlProfileChoices(profiles, urls, 10).map((c) => c.disabled)).toEqual([false, true, false]);
  });
});

describe('streaming sources', () => {
  it('takes the opening codes of the spec pattern', () => {
    for (const code of ['9', '*9', '+39', '#12#', '**1*', '*#9#*'])
      expect(STREAMING_OPEN_PATTERN.test(code), code).toBe(true);
    for (const code of ['', '9*9', 'a1', '*', '9+']) expect(STREAMING_OPEN_PATTERN.test(code), code).toBe(false);
    const base = { descr: 'Door', url: 'http://192.168.1.50/snap.jpg', profiles: [1] };
    expect(streamingSourceWriteSchema.safeParse({ ...base, open: '' }).success).toBe(true);
    expect(streamingSourceWriteSchema.safeParse({ ...base, open: '9*9' }).success).toBe(false);
  });

  it('names the permission vs_ plus the normalised name', () => {
    expect(streamingPermissionName(' Front door! ')).toBe('vs_front_door');
    expect(streamingPermissionName('Cancello-2')).toBe('vs_cancello_2');
    expect(streamingSourceWriteSchema.safeParse({ descr: '!!!', url: 'http://a/', profiles: [1] }).success).toBe(false);
  });
});

describe('cloud speech', () => {
  it('takes .json files only', () => {
    expect(looksLikeJsonFile('key.json', 'application/json')).toBe(true);
    expect(looksLikeJsonFile('KEY.JSON', '')).toBe(true);
    expect(looksLikeJsonFile('key.txt', 'text/plain')).toBe(false);
    expect(looksLikeJsonFile('key.json', 'text/html')).toBe(false);
  });
});

describe('streaming Check answer', () => {
  it('shows the wrapped base64 string as an image of the type its first bytes tell', () => {
    expect(snapshotDataUrl('/9j/4AAQ\r\nSkZJRg==')).toBe('data:image/jpeg;base64,/9j/4AAQSkZJRg==');
    expect(snapshotDataUrl('iVBORw0KGgoAAAA')).toBe('data:image/png;base64,iVBORw0KGgoAAAA');
    expect(snapshotDataUrl('R0lGODlhAQAB')).toMatch(/^data:image\/gif;/);
  });
});
