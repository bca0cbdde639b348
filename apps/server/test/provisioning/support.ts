import { PROVISIONING_PROBLEM_TYPES } from '@centralino/contract';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

/** The engine API's error: the common shape plus the original engine's problem type, as problem+json. */
export function expectProblem(res: LightMyRequestResponse, status: number, code: string, title?: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = res.json() as {
    type?: string;
    title: string;
    detail: string;
    code: string;
    fields?: Record<string, string>;
  };
  expect(body.code).toBe(code);
  expect(body.title).not.toBe('');
  expect(body.detail).not.toBe('');
  if (title) expect(body.title).toBe(title);
  if (PROVISIONING_PROBLEM_TYPES[code]) expect(body.type).toBe(PROVISIONING_PROBLEM_TYPES[code]);
  expect(Object.keys(body).filter((k) => !['type', 'title', 'detail', 'code', 'fields'].includes(k))).toEqual([]);
  return body;
}

/** A multipart/form-data body with one file part (the console uses field name "0"). */
export function multipartBody(filename: string, content: Buffer | string, field = '0') {
  const boundary = '----centralino-test-boundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, Buffer.isBuffer(content) ? content : Buffer.from(content), tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
