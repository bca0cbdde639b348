import { type ConfFile, type ConfSection, parseConf } from './conf-parser.ts';

/**
 * Checks a rendered configuration before it is written: every file parses, includes exist, PJSIP
 * objects are unique and refer to objects that exist, dialplan jumps land in existing contexts,
 * extensions and labels, extension patterns are valid, and mailboxes exist.
 */

export interface ValidationIssue {
  file: string;
  line: number;
  message: string;
}

export function formatIssue(issue: ValidationIssue): string {
  return `${issue.file}:${issue.line}: ${issue.message}`;
}

/** Keeps the parse of each file while its text is unchanged, so re-validating after a small change is cheap. */
export class ParseCache {
  private entries = new Map<string, { text: string; parsed: ConfFile }>();

  parse(file: string, text: string): ConfFile {
    const hit = this.entries.get(file);
    if (hit && hit.text === text) return hit.parsed;
    const parsed = parseConf(file, text);
    this.entries.set(file, { text, parsed });
    return parsed;
  }

  retain(files: Iterable<string>): void {
    const keep = new Set(files);
    for (const name of this.entries.keys()) if (!keep.has(name)) this.entries.delete(name);
  }
}

export const PJSIP_TYPES = new Set([
  'global',
  'transport',
  'endpoint',
  'aor',
  'auth',
  'registration',
  'identify',
  'system',
]);

/** Files reached from a root through #include, in load order; missing includes are reported. */
function closure(root: string, files: Map<string, string>, cache: ParseCache, issues: ValidationIssue[]): ConfFile[] {
  const out: ConfFile[] = [];
  const seen = new Set<string>();
  const visit = (name: string, from?: { file: string; line: number }) => {
    if (seen.has(name)) return;
    seen.add(name);
    const text = files.get(name);
    if (text === undefined) {
      issues.push({
        file: from?.file ?? name,
        line: from?.line ?? 0,
        message: `#include of "${name}", which is not part of the configuration`,
      });
      return;
    }
    const parsed = cache.parse(name, text);
    out.push(parsed);
    for (const error of parsed.errors) issues.push({ file: name, ...error });
    for (const include of parsed.includes) visit(include.file, { file: name, line: include.line });
  };
  visit(root);
  return out;
}

/** Valid extension name: a pattern starting with '_' or a literal name. */
export function extensionNameProblem(name: string): string | null {
  if (name === '') return 'empty extension name';
  if (!name.startsWith('_')) {
    return /^[0-9A-Za-z*#+_-]+$/.test(name) ? null : `invalid extension name "${name}"`;
  }
  const body = name.slice(1);
  if (body === '') return `empty dial pattern "${name}"`;
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (c === '[') {
      const close = body.indexOf(']', i);
      if (close === -1) return `unclosed [ in dial pattern "${name}"`;
      const inner = body.slice(i + 1, close);
      if (!/^(?:[0-9*#+](?:-[0-9])?)+$/.test(inner)) return `invalid range [${inner}] in dial pattern "${name}"`;
      i = close;
    } else if (c === '.' || c === '!') {
      if (i !== body.length - 1) return `"${c}" must end the dial pattern "${name}"`;
    } else if (!/[0-9XZNxzn*#+]/.test(c)) {
      return `invalid character "${c}" in dial pattern "${name}"`;
    }
  }
  return null;
}

const patternRegexes = new Map<string, RegExp>();

/** Does a pattern (with '_') or literal extension match a literal dialled string? */
export function matches(exten: string, dialled: string): boolean {
  if (!exten.startsWith('_')) return exten === dialled;
  let compiled = patternRegexes.get(exten);
  if (!compiled) {
    compiled = patternRegex(exten);
    if (patternRegexes.size > 10_000) patternRegexes.clear();
    patternRegexes.set(exten, compiled);
  }
  return compiled.test(dialled);
}

function patternRegex(exten: string): RegExp {
  const body = exten.slice(1);
  let regex = '^';
  for (let i = 0; i < body.length; i++) {
    const c = (body[i] as string).toUpperCase();
    if (c === 'X') regex += '[0-9]';
    else if (c === 'Z') regex += '[1-9]';
    else if (c === 'N') regex += '[2-9]';
    else if (c === '.') regex += '.+';
    else if (c === '!') regex += '.*';
    else if (c === '[') {
      const close = body.indexOf(']', i);
      // An unclosed range matches nothing (and is reported as invalid).
      if (close === -1) return /$^/;
      regex += `[${body.slice(i + 1, close).replace(/[\\^]/g, '\\$&')}]`;
      i = close;
    } else regex += c.replace(/[*+#]/g, '\\$&');
  }
  try {
    return new RegExp(`${regex}$`);
  } catch {
    return /$^/;
  }
}

interface Extension {
  labels: Set<string>;
  priorities: Set<string>;
  apps: { app: string; line: number; file: string }[];
  /** A duplicate priority was reported already (one message per extension is enough). */
  duplicate?: boolean;
}

interface DialplanContext {
  file: string;
  line: number;
  includes: { name: string; file: string; line: number }[];
  extensions: Map<string, Extension>;
}

export const JUMP_APPS = /^(Goto|GotoIf|Gosub|GosubIf)\((.*)\)$/s;

/** Splits on a separator at bracket depth 0 (so $[..], ${..} and (...) stay whole). */
export function splitTop(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === separator && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** Destinations named by a jump application's argument. */
export function jumpTargets(app: string, args: string): string[] {
  if (app === 'Goto' || app === 'Gosub') return [args];
  const q = splitTop(args, '?');
  if (q.length < 2) return [];
  return splitTop(q.slice(1).join('?'), ':').filter((t) => t !== '');
}

export function validateConfiguration(files: Map<string, string>, cache = new ParseCache()): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const pjsip = closure('pjsip.conf', files, cache, issues);
  const dialplan = closure('extensions.conf', files, cache, issues);
  const voicemail = files.has('voicemail.conf') ? closure('voicemail.conf', files, cache, issues) : [];
  for (const name of files.keys()) {
    if (name.startsWith('pjsip.') || name.startsWith('extensions.') || name === 'voicemail.conf') continue;
    const parsed = cache.parse(name, files.get(name) as string);
    for (const error of parsed.errors) issues.push({ file: name, ...error });
  }
  cache.retain(files.keys());

  // Voicemail boxes, as 'box@context'.
  const mailboxes = new Set<string>();
  for (const file of voicemail) {
    for (const s of file.sections) {
      if (s.name === 'general' || s.name === 'zonemessages') continue;
      for (const e of s.entries) {
        if (!e.arrow) continue;
        const id = `${e.key}@${s.name}`;
        if (mailboxes.has(id)) issues.push({ file: file.file, line: e.line, message: `duplicate mailbox ${id}` });
        mailboxes.add(id);
        if (!/^[^,]+,/.test(`${e.value},`) || e.value.split(',')[0] === '') {
          issues.push({ file: file.file, line: e.line, message: `mailbox ${id} has no PIN` });
        }
      }
    }
  }

  const contexts = collectDialplan(dialplan, issues);
  checkDialplan(contexts, issues);
  const endpoints = checkPjsip(pjsip, contexts, mailboxes, issues);
  checkTrunkCalls(dialplan, contexts, endpoints, issues);
  return issues;
}

function collectDialplan(files: ConfFile[], issues: ValidationIssue[]): Map<string, DialplanContext> {
  const contexts = new Map<string, DialplanContext>();
  for (const file of files) {
    for (const s of file.sections) {
      if (s.name === 'general' || s.name === 'globals') continue;
      let context = contexts.get(s.name);
      if (!context) {
        context = { file: file.file, line: s.line, includes: [], extensions: new Map() };
        contexts.set(s.name, context);
      }
      let currentName: string | undefined;
      let current: Extension | undefined;
      let priority = 0;
      for (const e of s.entries) {
        if (e.key === 'include') {
          context.includes.push({ name: e.value, file: file.file, line: e.line });
          continue;
        }
        if (e.key !== 'exten' && e.key !== 'same') continue;
        let rest = e.value;
        if (e.key === 'exten') {
          const comma = rest.indexOf(',');
          const name = comma === -1 ? rest : rest.slice(0, comma);
          rest = comma === -1 ? '' : rest.slice(comma + 1);
          for (const part of name.split('/')) {
            const problem = extensionNameProblem(part);
            if (problem) issues.push({ file: file.file, line: e.line, message: `[${s.name}] ${problem}` });
          }
          if (name !== currentName) {
            currentName = name;
            current = context.extensions.get(name);
            if (!current) {
              current = { labels: new Set(), priorities: new Set(), apps: [] };
              context.extensions.set(name, current);
            }
            priority = 0;
          }
        } else if (!current) {
          issues.push({
            file: file.file,
            line: e.line,
            message: `[${s.name}] "same =>" without an extension before it`,
          });
          continue;
        }
        const comma = rest.indexOf(',');
        const prio = comma === -1 ? rest : rest.slice(0, comma);
        const match = /^(hint|\d+|n)(?:\(([\w-]+)\))?$/.exec(prio.trim());
        if (!match) {
          issues.push({ file: file.file, line: e.line, message: `[${s.name}] invalid priority "${prio}"` });
          continue;
        }
        const ext = current as Extension;
        const key = match[1] === 'hint' ? 'hint' : String(match[1] === 'n' ? priority + 1 : Number(match[1]));
        if (match[1] !== 'hint') priority = Number(key);
        if (ext.priorities.has(key) && !ext.duplicate) {
          ext.duplicate = true;
          issues.push({
            file: file.file,
            line: e.line,
            message: `[${s.name}] duplicate priority ${key} of extension ${currentName}`,
          });
        }
        ext.priorities.add(key);
        if (match[2]) ext.labels.add(match[2]);
        if (match[1] !== 'hint')
          ext.apps.push({ app: comma === -1 ? '' : rest.slice(comma + 1), line: e.line, file: file.file });
      }
    }
  }
  return contexts;
}

/** Finds an extension for a literal name in a context or what it includes. */
function findExtension(
  contexts: Map<string, DialplanContext>,
  contextName: string,
  exten: string,
  seen = new Set<string>(),
): Extension | undefined {
  if (seen.has(contextName)) return undefined;
  seen.add(contextName);
  const context = contexts.get(contextName);
  if (!context) return undefined;
  const exact = context.extensions.get(exten);
  if (exact) return exact;
  for (const [name, ext] of context.extensions) {
    if (name.startsWith('_') && matches(name.split('/')[0] as string, exten)) return ext;
  }
  for (const include of context.includes) {
    const found = findExtension(contexts, include.name, exten, seen);
    if (found) return found;
  }
  return undefined;
}

function checkDialplan(contexts: Map<string, DialplanContext>, issues: ValidationIssue[]): void {
  for (const [contextName, context] of contexts) {
    for (const include of context.includes) {
      if (!contexts.has(include.name)) {
        issues.push({
          file: include.file,
          line: include.line,
          message: `[${contextName}] includes context "${include.name}", which does not exist`,
        });
      }
    }
    for (const [extenName, ext] of context.extensions) {
      for (const { app, line, file } of ext.apps) {
        const jump = JUMP_APPS.exec(app);
        if (!jump) continue;
        for (const target of jumpTargets(jump[1] as string, jump[2] as string)) {
          const problem = checkJump(contexts, contextName, extenName, ext, target);
          if (problem) issues.push({ file, line, message: `[${contextName}] ${jump[1]}: ${problem}` });
        }
      }
    }
  }
}

function checkJump(
  contexts: Map<string, DialplanContext>,
  contextName: string,
  extenName: string,
  ext: Extension,
  target: string,
): string | null {
  // Gosub(context,exten,priority(args)): the arguments are not part of the destination.
  const parts = splitTop(target.trim(), ',').map((p) => p.trim().replace(/\(.*\)$/s, ''));
  const dynamic = (t: string) => t.includes('$');
  if (parts.length === 1) {
    const label = parts[0] as string;
    if (dynamic(label) || /^\d+$/.test(label)) return null;
    return ext.labels.has(label) ? null : `label "${label}" does not exist in extension ${extenName}`;
  }
  const [ctx, exten, prio] = parts.length === 2 ? [contextName, parts[0], parts[1]] : parts;
  if (ctx === undefined || exten === undefined || prio === undefined) return null;
  if (dynamic(ctx)) return null;
  if (!contexts.has(ctx)) return `context "${ctx}" does not exist`;
  if (dynamic(exten)) return null;
  const found = findExtension(contexts, ctx, exten);
  if (!found) return `extension "${exten}" does not exist in context "${ctx}"`;
  if (!dynamic(prio) && !/^\d+$/.test(prio) && !found.labels.has(prio)) {
    return `label "${prio}" does not exist in ${ctx},${exten}`;
  }
  if (/^\d+$/.test(prio) && !found.priorities.has(prio)) return `priority ${prio} does not exist in ${ctx},${exten}`;
  return null;
}

interface PjsipObject {
  type: string;
  values: Map<string, string[]>;
  file: string;
  line: number;
}

function checkPjsip(
  files: ConfFile[],
  contexts: Map<string, DialplanContext>,
  mailboxes: Set<string>,
  issues: ValidationIssue[],
): Set<string> {
  const templates = new Map<string, ConfSection>();
  const objects = new Map<string, PjsipObject>();
  const resolve = (section: ConfSection, file: string, into: Map<string, string[]>, depth = 0): void => {
    for (const name of section.inherits) {
      const template = templates.get(name);
      if (!template) {
        issues.push({
          file,
          line: section.line,
          message: `[${section.name}] inherits from unknown template "${name}"`,
        });
        continue;
      }
      if (depth < 10) resolve(template, file, into, depth + 1);
    }
    for (const e of section.entries) {
      const list = into.get(e.key);
      if (list) list.push(e.value);
      else into.set(e.key, [e.value]);
    }
  };
  for (const file of files) {
    for (const section of file.sections) {
      if (section.template) {
        if (templates.has(section.name)) {
          issues.push({ file: file.file, line: section.line, message: `duplicate template [${section.name}]` });
        }
        templates.set(section.name, section);
        continue;
      }
      const values = new Map<string, string[]>();
      resolve(section, file.file, values);
      const types = values.get('type');
      const type = types?.at(-1);
      if (!type) {
        issues.push({ file: file.file, line: section.line, message: `[${section.name}] has no type` });
        continue;
      }
      if (!PJSIP_TYPES.has(type)) {
        issues.push({ file: file.file, line: section.line, message: `[${section.name}] has unknown type "${type}"` });
        continue;
      }
      const id = `${type}:${section.name}`;
      const previous = objects.get(id);
      if (previous) {
        issues.push({
          file: file.file,
          line: section.line,
          message: `duplicate ${type} [${section.name}] (first at ${previous.file}:${previous.line})`,
        });
        continue;
      }
      objects.set(id, { type, values, file: file.file, line: section.line });
    }
  }
  const last = (o: PjsipObject, key: string) => o.values.get(key)?.at(-1);
  const need = (o: PjsipObject, name: string, key: string, type: string, required = false) => {
    const v = last(o, key);
    if (!v) {
      if (required) issues.push({ file: o.file, line: o.line, message: `${o.type} [${name}] has no ${key}` });
      return;
    }
    for (const ref of v.split(',').map((x) => x.trim())) {
      if (ref && !objects.has(`${type}:${ref}`)) {
        issues.push({
          file: o.file,
          line: o.line,
          message: `${o.type} [${name}] ${key} = ${ref}: no ${type} named "${ref}"`,
        });
      }
    }
  };
  for (const [id, o] of objects) {
    const name = id.slice(o.type.length + 1);
    if (o.type === 'endpoint') {
      need(o, name, 'aors', 'aor', true);
      need(o, name, 'auth', 'auth');
      need(o, name, 'outbound_auth', 'auth');
      need(o, name, 'transport', 'transport');
      const context = last(o, 'context');
      if (!context) issues.push({ file: o.file, line: o.line, message: `endpoint [${name}] has no context` });
      else if (!contexts.has(context)) {
        issues.push({
          file: o.file,
          line: o.line,
          message: `endpoint [${name}] context = ${context}: no such dialplan context`,
        });
      }
      for (const box of (last(o, 'mailboxes') ?? '').split(',').filter(Boolean)) {
        if (!mailboxes.has(box.trim())) {
          issues.push({
            file: o.file,
            line: o.line,
            message: `endpoint [${name}] mailboxes = ${box}: no such mailbox`,
          });
        }
      }
    } else if (o.type === 'registration') {
      need(o, name, 'outbound_auth', 'auth');
      need(o, name, 'endpoint', 'endpoint');
      need(o, name, 'transport', 'transport');
      if (!last(o, 'server_uri'))
        issues.push({ file: o.file, line: o.line, message: `registration [${name}] has no server_uri` });
    } else if (o.type === 'identify') {
      need(o, name, 'endpoint', 'endpoint', true);
      if (!last(o, 'match')) issues.push({ file: o.file, line: o.line, message: `identify [${name}] has no match` });
    } else if (o.type === 'auth') {
      if (last(o, 'auth_type') !== 'md5' && !last(o, 'password')) {
        issues.push({ file: o.file, line: o.line, message: `auth [${name}] has no password` });
      }
    } else if (o.type === 'transport') {
      if (!last(o, 'protocol'))
        issues.push({ file: o.file, line: o.line, message: `transport [${name}] has no protocol` });
    }
  }
  const endpoints = new Set<string>();
  for (const id of objects.keys()) if (id.startsWith('endpoint:')) endpoints.add(id.slice('endpoint:'.length));
  return endpoints;
}

/**
 * Routes dial trunks by id through sub-dial-trunk and the trunk's globals (OUT_<id>,
 * OUT_<id>_SUFFIX=@<endpoint>): a route naming a trunk that is gone, or a trunk whose endpoint is
 * gone, is caught here.
 */
function checkTrunkCalls(
  files: ConfFile[],
  contexts: Map<string, DialplanContext>,
  endpoints: Set<string>,
  issues: ValidationIssue[],
): void {
  const globals = new Map<string, string>();
  for (const file of files) {
    for (const s of file.sections) {
      if (s.name !== 'globals') continue;
      for (const e of s.entries) {
        globals.set(e.key.toUpperCase(), e.value);
        const suffix = /^OUT_(\d+)_SUFFIX$/.exec(e.key.toUpperCase());
        const endpoint = e.value.replace(/^@/, '');
        if (suffix && !endpoints.has(endpoint)) {
          issues.push({
            file: file.file,
            line: e.line,
            message: `trunk ${suffix[1]} dials endpoint "${endpoint}", which does not exist`,
          });
        }
      }
    }
  }
  for (const [contextName, context] of contexts) {
    for (const ext of context.extensions.values()) {
      for (const { app, line, file } of ext.apps) {
        const call = /^Gosub\(sub-dial-trunk,s,1\((\d+),/.exec(app);
        if (call && !globals.has(`OUT_${call[1]}`)) {
          issues.push({ file, line, message: `[${contextName}] dials trunk ${call[1]}, which does not exist` });
        }
      }
    }
  }
}
