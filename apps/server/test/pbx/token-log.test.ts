import { describe, expect, it } from 'vitest';
import { renderCqrs } from '../../src/pbx/render/cqr.ts';
import { renderPhoneRecording } from '../../src/pbx/render/phone-recording.ts';

/**
 * Issue 38: Asterisk's verbose log writes each dialplan step with its arguments once substituted (one pass of
 * ${...}). The loopback bearer token (read with FILE()) must therefore never be in a step's arguments after that
 * pass: only Exec() substitutes again, without a log line.
 */

const TOKEN_FILE = '/etc/asterisk/keys/voicemail-stt.token';
const TOKEN = 'T'.repeat(43);
const settings = {
  dir: '/var/spool/rec',
  url: 'http://127.0.0.1:8080/api/internal/phone-recording',
  tokenFile: TOKEN_FILE,
};

/** Asterisk's one pass: FILE() of the token file gives the token; STRREPLACE(var,find,repl) on the channel's variables. */
function substituteOnce(args: string, vars: Map<string, string>): string {
  return args
    .replaceAll(`\${FILE(${TOKEN_FILE},0,43)}`, TOKEN)
    .replace(/\$\{STRREPLACE\((\w+),([^,]*),([^)]*)\)\}/g, (_, name: string, find: string, repl: string) =>
      (vars.get(name) ?? '').replaceAll(find, repl),
    );
}

/** What the verbose log shows for every step of the rendered dialplan (Set() keeps its variables for later steps). */
function loggedSteps(conf: string): string[] {
  const vars = new Map<string, string>();
  const out: string[] = [];
  for (const line of conf.split('\n')) {
    const step = /^\s*(?:exten\s*=>\s*[^,]+,[^,]+,|same\s*=>\s*[^,]+,)(?:\([^)]*\))?(\w+)\((.*)\)\s*$/.exec(line);
    if (!step) continue;
    const [, app, raw = ''] = step;
    const args = substituteOnce(raw, vars);
    out.push(`${app}(${args})`);
    const set = app === 'Set' ? /^(\w+)=(.*)$/.exec(args) : null;
    if (set) vars.set(set[1] as string, set[2] as string);
  }
  return out;
}

describe("the loopback token is kept out of Asterisk's verbose log", () => {
  it('caller query routing: the header step is logged with the file name, Exec() reads the token', () => {
    const conf = renderCqrs(
      [{ id: 1, name: 'Known', timeout: 3, defaultDestination: 'from-did-direct,201,1' }],
      settings,
    );
    const steps = loggedSteps(conf);
    expect(steps.filter((s) => s.includes(TOKEN))).toEqual([]);
    expect(steps).toContain(`Exec(Set(CURLOPT(httpheader)=Authorization: Bearer \${FILE(${TOKEN_FILE},0,43)}))`);
    // What Exec() then runs, unlogged: the header with the token.
    const exec = steps.find((s) => s.startsWith('Exec(Set(CURLOPT')) as string;
    expect(substituteOnce(exec.slice('Exec('.length, -1), new Map())).toBe(
      `Set(CURLOPT(httpheader)=Authorization: Bearer ${TOKEN})`,
    );
  });

  it('recording from a phone (*77): the same', () => {
    const steps = loggedSteps(renderPhoneRecording(settings));
    expect(steps.filter((s) => s.includes(TOKEN))).toEqual([]);
    expect(steps).toContain(`Exec(Set(CURLOPT(httpheader)=Authorization: Bearer \${FILE(${TOKEN_FILE},0,43)}))`);
  });
});
