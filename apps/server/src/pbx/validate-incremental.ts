import { scanConf } from './conf-parser.ts';
import {
  extensionNameProblem,
  JUMP_APPS,
  jumpTargets,
  matches,
  PJSIP_TYPES,
  splitTop,
  type ValidationIssue,
} from './validate.ts';

/**
 * The checks of validate.ts, kept up to date between applies instead of redone from scratch.
 *
 * Each file keeps a small index, rebuilt only when its text changes: the objects it defines (PJSIP
 * objects, dialplan contexts and extensions, mailboxes, globals), each with a signature of what
 * others can see of it, and the references it makes. After a change, the definitions of the changed
 * files are compared with their previous ones; only the changed files and the files whose references
 * touched a definition that appeared, disappeared or changed are checked again (a reverse index maps
 * each definition to the files that looked it up). Everything is redone when the include structure
 * or the PJSIP templates change, which is rare (a new hundred-block of extensions, a new language).
 *
 * The answer is the same set of problems validateConfiguration() finds (a property test compares
 * both); only their order may differ.
 */

type Role = 'pjsip' | 'dialplan' | 'voicemail' | 'other' | 'none';

/** Where an object is defined: the definition itself for extensions and PJSIP sections. */
interface Def {
  file: string;
  line: number;
}

interface Ext extends Def {
  /** Few per extension: arrays are smaller than sets for a hundred thousand extensions. */
  labels: string[];
  priorities: string[];
  /** The applications that can jump (Goto, GotoIf, Gosub, GosubIf), as application, line, application, line… */
  apps: (string | number)[];
  /** A duplicate priority was reported already (one message per extension is enough). */
  dup?: boolean;
}

/** The shared empty list of an extension without labels or jumps (most have none): never added to. */
const NONE: never[] = Object.freeze([]) as unknown as never[];

interface LocalContext {
  line: number;
  includes: { name: string; line: number }[];
  exts: Map<string, Ext>;
}

/** Keys of a PJSIP section the checks read (each mapped to itself); the rest of its entries is not kept. */
const PJSIP_KEYS = new Map(
  [
    'type',
    'aors',
    'auth',
    'outbound_auth',
    'transport',
    'context',
    'mailboxes',
    'endpoint',
    'server_uri',
    'match',
    'auth_type',
    'password',
    'protocol',
  ].map((key) => [key, key]),
);

interface PjSection extends Def {
  name: string;
  template: boolean;
  inherits: string[];
  /** Key, value, key, value… of the keys the checks read (last value of each). */
  vals: string[];
  type?: string;
}

interface ContextDef extends Def {
  /** Patterns and includes this file gives the context: what other files' lookups depend on. */
  sig: string;
}

function valOf(section: PjSection, key: string): string | undefined {
  const vals = section.vals;
  for (let i = 0; i < vals.length; i += 2) if (vals[i] === key) return vals[i + 1];
  return undefined;
}

type Kind = 'e' | 'c' | 'p' | 'm' | 'g';

/**
 * A namespace of definitions: one context's extensions ('e'), the contexts ('c'), the PJSIP objects
 * of one type ('p'), the mailboxes ('m') or the globals ('g'). Definitions are looked up by space
 * and name, with no key string built: a full check looks up a hundred thousand of them.
 */
interface Space {
  kind: Kind;
  /** Prefix of the keys that name its definitions in the dependency index ('e:ctx', 'c', 'p:aor'…). */
  key: string;
  defs: Map<string, Def | Def[]>;
}

/** A file's definitions, as parallel lists (cheaper to build than a map, and only walked). */
interface DefList {
  spaces: Space[];
  names: string[];
  defs: Def[];
}

/** What a file's checks read from other files, by space (no key string made per lookup). */
type Deps = Map<Space, Set<string>>;

function note(deps: Deps, space: Space, name: string): void {
  const names = deps.get(space);
  if (names) names.add(name);
  else deps.set(space, new Set([name]));
}

function emptyDefs(): DefList {
  return { spaces: [], names: [], defs: [] };
}

/** The dependency index's name of a definition: made only when a lookup is noted or a definition changes. */
function keyOf(space: Space, name: string): string {
  return `${space.key}\u0001${name}`;
}

/** What others see of a definition: a change of it makes the files that read it be checked again. */
function signature(kind: Kind, def: Def): string {
  if (kind === 'e') {
    const ext = def as Ext;
    return `${ext.priorities.join(',')}|${ext.labels.join(',')}`;
  }
  if (kind === 'c') return (def as ContextDef).sig;
  return '';
}

interface FileState {
  text: string;
  includes: { file: string; line: number }[];
  parseErrors: ValidationIssue[];
  role: Role;
  indexedRole: Role | undefined;
  contexts: Map<string, LocalContext>;
  globals: { key: string; value: string; line: number }[];
  sections: PjSection[];
  templates: PjSection[];
  mailboxes: { id: string; line: number }[];
  rawIssues: ValidationIssue[];
  defsBuilt: boolean;
  defs: DefList;
  defIssues: ValidationIssue[];
  refIssues: ValidationIssue[];
  deps: string[];
}

function emptyState(text: string): FileState {
  return {
    text,
    includes: [],
    parseErrors: [],
    role: 'none',
    indexedRole: undefined,
    contexts: new Map(),
    globals: [],
    sections: [],
    templates: [],
    mailboxes: [],
    rawIssues: [],
    defsBuilt: false,
    defs: emptyDefs(),
    defIssues: [],
    refIssues: [],
    deps: [],
  };
}

/** A priority given by number. */
function isNumber(text: string): boolean {
  if (text === '') return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** 'sub-dial-user,s,1(2000,…)' → 'sub-dial-user,s,1': from the first '(', when the text ends with ')'. */
function withoutArguments(text: string): string {
  if (text.charCodeAt(text.length - 1) !== 41 /* ) */) return text;
  const open = text.indexOf('(');
  return open === -1 ? text : text.slice(0, open);
}

/** A value computed when the dialplan runs. */
function dynamic(text: string): boolean {
  return text.includes('$');
}

function likelyRole(name: string): Role {
  if (name.startsWith('pjsip.')) return 'pjsip';
  if (name.startsWith('extensions.')) return 'dialplan';
  return name === 'voicemail.conf' ? 'voicemail' : 'other';
}

export class IncrementalValidator {
  private states = new Map<string, FileState>();
  /** Every space by its key, and the extension and PJSIP spaces by context and type. */
  private spaces = new Map<string, Space>();
  private extSpaces = new Map<string, Space>();
  private pjsipSpaces = new Map<string, Space>();
  private contextSpace = this.space('c', 'c');
  private mailboxSpace = this.space('m', 'm');
  private globalSpace = this.space('g', 'g');
  /** Reverse index: definition key → the file(s) whose checks read it. */
  private rdeps = new Map<string, string | Set<string>>();
  /** Extensions, PJSIP objects and mailboxes defined by several files (reported as duplicates). */
  private multi = new Map<string, { space: Space; name: string }>();
  /** Definitions made by several files, or no longer, since the last check: their files are checked again. */
  private multiChanged = new Map<string, { space: Space; name: string }>();
  private shapes = new Map<string, { patterns: string[]; includes: string[] }>();
  private orderKey = '';
  private templateSig = '';
  private order = new Map<string, number>();
  private templateList: { name: string; pos: number; line: number; section: PjSection }[] = [];
  private templateLatest = new Map<string, PjSection>();
  private templateTail = { pos: -1, line: 0 };
  /**
   * The templates a list of inherits names for objects after the last template (nearly all), found
   * once per check: sections with the same options share their list (see scanConf).
   */
  private parents = new Map<string[], (PjSection | undefined)[]>();
  /** The file whose checks run. */
  private checking = '';
  /** Files checked again by the last validate() (tests, benchmark). */
  lastChecked = 0;

  /** Files whose text changed since the last check. */
  private pending = new Set<string>();

  validate(files: Map<string, string>): ValidationIssue[] {
    for (const [name, text] of files) this.add(name, text);
    return this.finish(files);
  }

  /**
   * Takes in one file's text (parsed and indexed at once when it changed): files can be handed over
   * one by one as they are rendered, and the check made when all are there.
   */
  add(name: string, text: string): void {
    this.parseOne(name, text, this.pending);
  }

  /** Checks the configuration made of these files (each given to add(), now or before). */
  finish(names: { has(name: string): boolean; keys(): Iterable<string> }): ValidationIssue[] {
    const textChanged = this.pending;
    this.pending = new Set();
    return this.check(names, textChanged);
  }

  /** 1. Parses a file whose text changed (answers whether it did) and indexes it. */
  private parseOne(name: string, text: string, textChanged: Set<string>): boolean {
    const old = this.states.get(name);
    if (old && old.text === text) return false;
    const state = emptyState(text);
    if (old) {
      // Kept until the new definitions replace them, to tell which changed.
      state.role = old.role;
      state.defs = old.defs;
      state.deps = old.deps;
    }
    // Indexed at once in the role it is likely to have (checked below), so that nothing but the index
    // of a large configuration is ever held in memory.
    this.index(name, state, text, old ? old.role : likelyRole(name));
    this.states.set(name, state);
    textChanged.add(name);
    return true;
  }

  /** 2–7: forgets what is gone, then checks what changed and what depends on it. */
  private check(
    files: { has(name: string): boolean; keys(): Iterable<string> },
    textChanged: Set<string>,
  ): ValidationIssue[] {
    this.parents = new Map();
    const gone: string[] = [];
    for (const [name, state] of this.states) {
      if (files.has(name)) continue;
      this.removeDefs(name, state);
      this.dropDeps(name, state);
      gone.push(name);
    }
    for (const name of gone) this.states.delete(name);

    // 2. Include closures from the roots: which file is PJSIP, dialplan or voicemail, in load order.
    const includeIssues: ValidationIssue[] = [];
    const closures: { role: Role; names: string[] }[] = [];
    const roles = new Map<string, Role>();
    const closure = (root: string, role: Role) => {
      const names: string[] = [];
      const seen = new Set<string>();
      const visit = (name: string, from?: { file: string; line: number }) => {
        if (seen.has(name)) return;
        seen.add(name);
        const state = this.states.get(name);
        if (!state) {
          includeIssues.push({
            file: from?.file ?? name,
            line: from?.line ?? 0,
            message: `#include of "${name}", which is not part of the configuration`,
          });
          return;
        }
        names.push(name);
        if (!roles.has(name)) roles.set(name, role);
        for (const include of state.includes) visit(include.file, { file: name, line: include.line });
      };
      visit(root);
      closures.push({ role, names });
    };
    closure('pjsip.conf', 'pjsip');
    closure('extensions.conf', 'dialplan');
    if (files.has('voicemail.conf')) closure('voicemail.conf', 'voicemail');
    for (const name of files.keys()) {
      if (roles.has(name)) continue;
      const skip = name.startsWith('pjsip.') || name.startsWith('extensions.') || name === 'voicemail.conf';
      roles.set(name, skip ? 'none' : 'other');
    }
    const orderKey = closures.map((c) => `${c.role}:${c.names.join(',')}`).join('\n');
    let full = orderKey !== this.orderKey;
    this.orderKey = orderKey;
    this.order = new Map();
    for (const c of closures)
      for (const name of c.names) if (!this.order.has(name)) this.order.set(name, this.order.size);

    // 3. Per-file index of what changed (or is read in another role now).
    for (const [name, state] of this.states) {
      const role = roles.get(name) ?? 'none';
      if (state.role !== role) {
        state.role = role;
        full = true;
      }
      if (state.indexedRole === role && !textChanged.has(name)) continue;
      if (state.indexedRole !== role) this.index(name, state, state.text, role);
      state.defsBuilt = false;
    }

    // 4. PJSIP templates, in load order: objects see only those defined before them.
    const templateList: typeof this.templateList = [];
    for (const c of closures) {
      if (c.role !== 'pjsip') continue;
      for (const name of c.names) {
        const state = this.states.get(name) as FileState;
        if (state.role !== 'pjsip') continue;
        const pos = this.order.get(name) ?? 0;
        for (const t of state.templates) templateList.push({ name: t.name, pos, line: t.line, section: t });
      }
    }
    const templateSig = JSON.stringify(
      templateList.map((t) => [t.name, t.pos, t.line, t.section.inherits, [...t.section.vals]]),
    );
    if (templateSig !== this.templateSig) full = true;
    this.templateSig = templateSig;
    this.templateList = templateList;
    this.templateLatest = new Map();
    this.templateTail = { pos: -1, line: 0 };
    for (const t of templateList) {
      this.templateLatest.set(t.name, t.section);
      const tail = this.templateTail;
      if (t.pos > tail.pos || (t.pos === tail.pos && t.line > tail.line))
        this.templateTail = { pos: t.pos, line: t.line };
    }

    // 5. Definitions: compare each changed file's with its previous ones.
    const changedKeys = new Set<string>();
    const changed = (space: Space, name: string) => {
      changedKeys.add(keyOf(space, name));
      if (space.kind === 'c') this.shapes.delete(name);
    };
    if (full) {
      this.spaces = new Map();
      this.extSpaces = new Map();
      this.pjsipSpaces = new Map();
      this.contextSpace = this.space('c', 'c');
      this.mailboxSpace = this.space('m', 'm');
      this.globalSpace = this.space('g', 'g');
      this.rdeps = new Map();
      this.multi = new Map();
      this.multiChanged = new Map();
      for (const state of this.states.values()) {
        state.defsBuilt = false;
        state.deps = [];
      }
    }
    this.shapes = full ? new Map() : this.shapes;
    for (const [name, state] of this.states) {
      if (state.defsBuilt) continue;
      if (full) {
        // Everything is checked again: no need to tell which definitions changed.
        this.buildDefs(name, state);
        const { spaces, names, defs } = state.defs;
        for (let i = 0; i < defs.length; i++) this.addDef(spaces[i] as Space, names[i] as string, defs[i] as Def);
        continue;
      }
      const before = new Map<Space, Map<string, Def>>();
      for (let i = 0; i < state.defs.defs.length; i++) {
        const space = state.defs.spaces[i] as Space;
        let inSpace = before.get(space);
        if (!inSpace) {
          inSpace = new Map();
          before.set(space, inSpace);
        }
        inSpace.set(state.defs.names[i] as string, state.defs.defs[i] as Def);
      }
      this.buildDefs(name, state);
      const { spaces, names, defs } = state.defs;
      for (let i = 0; i < defs.length; i++) {
        const space = spaces[i] as Space;
        const defName = names[i] as string;
        const def = defs[i] as Def;
        const inSpace = before.get(space);
        const old = inSpace?.get(defName);
        if (old === undefined) {
          changed(space, defName);
          this.addDef(space, defName, def);
          continue;
        }
        inSpace?.delete(defName);
        if (signature(space.kind, old) !== signature(space.kind, def)) changed(space, defName);
        this.replaceDef(space, defName, old, def);
      }
      // What is left was defined before and is not now.
      for (const [space, inSpace] of before) {
        for (const [defName, old] of inSpace) {
          changed(space, defName);
          this.removeDef(space, defName, old);
        }
      }
    }
    if (full) changedKeys.clear();

    // 6. Check again the changed files and those that read a changed definition.
    const dirty = new Set<string>();
    for (const name of this.states.keys()) if (full || textChanged.has(name)) dirty.add(name);
    for (const key of changedKeys) {
      const readers = this.rdeps.get(key);
      if (readers === undefined) continue;
      if (typeof readers === 'string') dirty.add(readers);
      else for (const r of readers) dirty.add(r);
    }
    // A file does not note lookups of what only it defines (most of them): it is checked again when
    // another file starts or stops defining the same thing.
    for (const { space, name } of this.multiChanged.values()) {
      const d = space.defs.get(name);
      if (d === undefined) continue;
      if (Array.isArray(d)) for (const def of d) dirty.add(def.file);
      else dirty.add(d.file);
    }
    this.multiChanged.clear();
    this.lastChecked = 0;
    for (const name of dirty) {
      const state = this.states.get(name);
      if (!state) continue;
      this.lastChecked++;
      this.dropDeps(name, state);
      this.checking = name;
      const deps: Deps = new Map();
      state.refIssues = [];
      if (state.role === 'pjsip') this.checkPjsipFile(name, state, deps);
      else if (state.role === 'dialplan') this.checkDialplanFile(name, state, deps);
      state.deps = [];
      for (const [space, names] of deps) for (const depName of names) state.deps.push(keyOf(space, depName));
      for (const key of state.deps) {
        const readers = this.rdeps.get(key);
        if (readers === undefined) this.rdeps.set(key, name);
        else if (typeof readers === 'string') {
          if (readers !== name) this.rdeps.set(key, new Set([readers, name]));
        } else readers.add(name);
      }
    }

    // 7. Everything found, in load order, then duplicates across files.
    const issues: ValidationIssue[] = [];
    for (const c of closures) {
      for (const name of c.names) issues.push(...(this.states.get(name) as FileState).parseErrors);
    }
    issues.push(...includeIssues);
    const ordered = [...this.order.keys()];
    for (const [name, state] of this.states) if (state.role === 'other') ordered.push(name);
    for (const name of ordered) {
      const state = this.states.get(name) as FileState;
      if (state.role === 'other') {
        issues.push(...state.parseErrors);
        continue;
      }
      issues.push(...state.rawIssues, ...state.defIssues, ...state.refIssues);
    }
    issues.push(...this.duplicates());
    return issues;
  }

  /**
   * Scans a file and keeps what the checks of its role read (its includes and parse errors too),
   * straight from the text: no parse tree of the file is built.
   */
  private index(name: string, state: FileState, text: string, role: Role): void {
    state.indexedRole = role;
    state.contexts = new Map();
    state.globals = [];
    state.sections = [];
    state.templates = [];
    state.mailboxes = [];
    state.rawIssues = [];
    state.includes = [];
    state.parseErrors = [];
    const issues = state.rawIssues;
    const common = {
      include: (file: string, line: number) => {
        state.includes.push({ file, line });
      },
      error: (line: number, message: string) => {
        state.parseErrors.push({ file: name, line, message });
      },
    };
    if (role === 'pjsip') {
      // A section's entries are gathered in one scratch list and kept as an exact copy: a list grown
      // by push holds room for 17 items, and sixty thousand sections are kept.
      const scratch: string[] = [];
      let section: PjSection | undefined;
      const keep = () => {
        if (section && scratch.length > 0) section.vals = scratch.slice();
        scratch.length = 0;
      };
      scanConf(text, {
        ...common,
        keys: PJSIP_KEYS,
        section: (sectionName, line, template, inherits) => {
          keep();
          section = { file: name, name: sectionName, line, template, inherits, vals: NONE };
          if (template) state.templates.push(section);
          state.sections.push(section);
        },
        entry: (key, value) => {
          if (!section) return;
          const at = scratch.indexOf(key);
          if (at !== -1 && at % 2 === 0) scratch[at + 1] = value;
          // The key as the set spells it: one string for all sections instead of a copy each.
          else scratch.push(PJSIP_KEYS.get(key) as string, value);
        },
      });
      keep();
    } else if (role === 'dialplan') {
      // What the current section is: skipped ([general]), the globals, or a context.
      let mode: 'skip' | 'globals' | 'context' = 'skip';
      let sectionName = '';
      let context: LocalContext | undefined;
      let currentName: string | undefined;
      let current: Ext | undefined;
      const labels = new Map<string, string>();
      // An extension's lists, grown by push, hold room for 17 items: kept as exact copies once its
      // lines are read, as sixty thousand extensions are kept.
      const compact = (ext: Ext) => {
        ext.priorities = ext.priorities.slice();
        if (ext.labels !== NONE) ext.labels = ext.labels.slice();
        if (ext.apps !== NONE) ext.apps = ext.apps.slice();
      };
      let priority = 0;
      // The problems of the extension name last seen: consecutive lines name the same one.
      let checkedName: string | undefined;
      let nameProblems: string[] | null = null;
      scanConf(text, {
        ...common,
        section: (nameOfSection, line) => {
          sectionName = nameOfSection;
          currentName = undefined;
          if (current) compact(current);
          current = undefined;
          priority = 0;
          if (nameOfSection === 'general') {
            mode = 'skip';
            return;
          }
          if (nameOfSection === 'globals') {
            mode = 'globals';
            return;
          }
          mode = 'context';
          context = state.contexts.get(nameOfSection);
          if (!context) {
            context = { line, includes: [], exts: new Map() };
            state.contexts.set(nameOfSection, context);
          }
        },
        entry: (key, value, line) => {
          if (mode === 'skip') return;
          if (mode === 'globals') {
            state.globals.push({ key: key.toUpperCase(), value, line });
            return;
          }
          const ctx = context as LocalContext;
          if (key === 'include') {
            ctx.includes.push({ name: value, line });
            return;
          }
          if (key !== 'exten' && key !== 'same') return;
          let rest = value;
          if (key === 'exten') {
            const comma = rest.indexOf(',');
            const extName = comma === -1 ? rest : rest.slice(0, comma);
            rest = comma === -1 ? '' : rest.slice(comma + 1);
            if (extName !== checkedName) {
              checkedName = extName;
              nameProblems = null;
              for (const part of extName.includes('/') ? extName.split('/') : [extName]) {
                const problem = extensionNameProblem(part);
                if (problem) {
                  nameProblems ??= [];
                  nameProblems.push(problem);
                }
              }
            }
            if (nameProblems) {
              for (const problem of nameProblems)
                issues.push({ file: name, line, message: `[${sectionName}] ${problem}` });
            }
            if (extName !== currentName) {
              currentName = extName;
              if (current) compact(current);
              current = ctx.exts.get(extName);
              if (!current) {
                current = { file: name, line, labels: NONE, priorities: [], apps: NONE };
                ctx.exts.set(extName, current);
              }
              priority = 0;
            }
          } else if (!current) {
            issues.push({ file: name, line, message: `[${sectionName}] "same =>" without an extension before it` });
            return;
          }
          const comma = rest.indexOf(',');
          const prio = comma === -1 ? rest : rest.slice(0, comma);
          // Most priorities are a bare 'n', '1' or 'hint': no regular expression for those.
          const simple = prio === 'n' || prio === '1' || prio === 'hint';
          const match = simple ? null : /^(hint|\d+|n)(?:\(([\w-]+)\))?$/.exec(prio.trim());
          if (!simple && !match) {
            issues.push({ file: name, line, message: `[${sectionName}] invalid priority "${prio}"` });
            return;
          }
          const base = simple ? prio : (match?.[1] as string);
          const label = simple ? undefined : match?.[2];
          const ext = current as Ext;
          const prioKey = base === 'hint' ? 'hint' : String(base === 'n' ? priority + 1 : Number(base));
          if (base !== 'hint') priority = Number(prioKey);
          const known = ext.priorities.includes(prioKey);
          if (known && !ext.dup) {
            ext.dup = true;
            issues.push({
              file: name,
              line,
              message: `[${sectionName}] duplicate priority ${prioKey} of extension ${currentName}`,
            });
          }
          if (!known) ext.priorities.push(prioKey);
          if (label && !ext.labels.includes(label)) {
            if (ext.labels === NONE) ext.labels = [];
            // The same few labels (busy, noanswer…) recur in every user's dialplan: one string each.
            let shared = labels.get(label);
            if (shared === undefined) {
              shared = label;
              labels.set(label, label);
            }
            ext.labels.push(shared);
          }
          if (base !== 'hint' && comma !== -1 && rest.startsWith('Go', comma + 1)) {
            if (ext.apps === NONE) ext.apps = [];
            ext.apps.push(rest.slice(comma + 1), line);
          }
        },
      });
      if (current) compact(current);
    } else if (role === 'voicemail') {
      const seen = new Set<string>();
      let skip = true;
      let sectionName = '';
      scanConf(text, {
        ...common,
        section: (nameOfSection) => {
          sectionName = nameOfSection;
          skip = nameOfSection === 'general' || nameOfSection === 'zonemessages';
        },
        entry: (key, value, line, arrow) => {
          if (skip || !arrow) return;
          const id = `${key}@${sectionName}`;
          if (seen.has(id)) issues.push({ file: name, line, message: `duplicate mailbox ${id}` });
          else state.mailboxes.push({ id, line });
          seen.add(id);
          // 'pin,name,…': no PIN when the value is empty or starts with the comma.
          if (value === '' || value.charCodeAt(0) === 44 /* , */) {
            issues.push({ file: name, line, message: `mailbox ${id} has no PIN` });
          }
        },
      });
    } else {
      scanConf(text, { ...common, section: () => {}, entry: () => {} });
    }
  }

  /** The last template named so, defined before a position (file order, line). */
  private template(name: string, pos: number, line: number): PjSection | undefined {
    // After the last template (where nearly every object is), the last definition of each name.
    if (pos > this.templateTail.pos || (pos === this.templateTail.pos && line > this.templateTail.line)) {
      return this.templateLatest.get(name);
    }
    let found: PjSection | undefined;
    for (const t of this.templateList) {
      if (t.name !== name) continue;
      if (t.pos < pos || (t.pos === pos && t.line < line)) found = t.section;
    }
    return found;
  }

  /** The last value of a key, templates first then the section's own entries, as Asterisk reads it. */
  private value(section: PjSection, key: string, pos: number, line: number, depth = 0): string | undefined {
    const own = valOf(section, key);
    if (own !== undefined) return own;
    const inherits = section.inherits;
    if (inherits.length === 0) return undefined;
    let parents: (PjSection | undefined)[] | undefined;
    if (pos > this.templateTail.pos || (pos === this.templateTail.pos && line > this.templateTail.line)) {
      parents = this.parents.get(inherits);
      if (!parents) {
        parents = inherits.map((name) => this.templateLatest.get(name));
        this.parents.set(inherits, parents);
      }
    }
    for (let i = inherits.length - 1; i >= 0; i--) {
      const t = parents ? parents[i] : this.template(inherits[i] as string, pos, line);
      if (!t) continue;
      const v = depth < 10 ? this.value(t, key, pos, line, depth + 1) : valOf(t, key);
      if (v !== undefined) return v;
    }
    return undefined;
  }

  private unknownTemplates(
    file: string,
    section: PjSection,
    pos: number,
    line: number,
    out: ValidationIssue[],
    depth = 0,
  ): void {
    for (const name of section.inherits) {
      const t = this.template(name, pos, line);
      if (!t) {
        out.push({ file, line: section.line, message: `[${section.name}] inherits from unknown template "${name}"` });
        continue;
      }
      if (depth < 10) this.unknownTemplates(file, t, pos, line, out, depth + 1);
    }
  }

  private space(kind: Kind, of: string): Space {
    const key = kind === 'e' || kind === 'p' ? `${kind}:${of}` : kind;
    let space = this.spaces.get(key);
    if (!space) {
      space = { kind, key, defs: new Map() };
      this.spaces.set(key, space);
    }
    return space;
  }

  /** A context's extensions (made empty when first looked up, so a missing one can be noted too). */
  private extSpace(ctx: string): Space {
    let space = this.extSpaces.get(ctx);
    if (!space) {
      space = this.space('e', ctx);
      this.extSpaces.set(ctx, space);
    }
    return space;
  }

  private pjsipSpace(type: string): Space {
    let space = this.pjsipSpaces.get(type);
    if (!space) {
      space = this.space('p', type);
      this.pjsipSpaces.set(type, space);
    }
    return space;
  }

  private buildDefs(name: string, state: FileState): void {
    state.defsBuilt = true;
    const list = emptyDefs();
    const define = (space: Space, defName: string, def: Def) => {
      list.spaces.push(space);
      list.names.push(defName);
      list.defs.push(def);
    };
    state.defs = list;
    state.defIssues = [];
    const pos = this.order.get(name) ?? 0;
    if (state.role === 'pjsip') {
      const seenTemplates = new Set<string>();
      const seen = new Map<Space, Map<string, PjSection>>();
      for (const s of state.sections) {
        if (s.template) {
          if (seenTemplates.has(s.name)) {
            state.defIssues.push({ file: name, line: s.line, message: `duplicate template [${s.name}]` });
          }
          seenTemplates.add(s.name);
          continue;
        }
        this.unknownTemplates(name, s, pos, s.line, state.defIssues);
        const type = this.value(s, 'type', pos, s.line);
        if (!type) {
          state.defIssues.push({ file: name, line: s.line, message: `[${s.name}] has no type` });
          continue;
        }
        if (!PJSIP_TYPES.has(type)) {
          state.defIssues.push({ file: name, line: s.line, message: `[${s.name}] has unknown type "${type}"` });
          continue;
        }
        const space = this.pjsipSpace(type);
        let inSpace = seen.get(space);
        if (!inSpace) {
          inSpace = new Map();
          seen.set(space, inSpace);
        }
        const previous = inSpace.get(s.name);
        if (previous) {
          state.defIssues.push({
            file: name,
            line: s.line,
            message: `duplicate ${type} [${s.name}] (first at ${previous.file}:${previous.line})`,
          });
          continue;
        }
        s.type = type;
        inSpace.set(s.name, s);
        define(space, s.name, s);
      }
    } else if (state.role === 'dialplan') {
      for (const [ctx, context] of state.contexts) {
        const patterns: string[] = [];
        const space = this.extSpace(ctx);
        for (const [extName, ext] of context.exts) {
          if (extName.startsWith('_')) patterns.push(extName);
          define(space, extName, ext);
        }
        const def: ContextDef = {
          file: name,
          line: context.line,
          sig: `${patterns.join('\n')}|${context.includes.map((i) => i.name).join('\n')}`,
        };
        define(this.contextSpace, ctx, def);
      }
      const seenGlobals = new Set<string>();
      for (const g of state.globals) {
        if (seenGlobals.has(g.key)) continue;
        seenGlobals.add(g.key);
        define(this.globalSpace, g.key, { file: name, line: g.line });
      }
    } else if (state.role === 'voicemail') {
      for (const m of state.mailboxes) define(this.mailboxSpace, m.id, { file: name, line: m.line });
    }
  }

  private addDef(space: Space, name: string, def: Def): void {
    const existing = space.defs.get(name);
    if (existing === undefined) space.defs.set(name, def);
    else if (Array.isArray(existing)) existing.push(def);
    else {
      space.defs.set(name, [existing, def]);
      const key = keyOf(space, name);
      if (space.kind !== 'c' && space.kind !== 'g') this.multi.set(key, { space, name });
      this.multiChanged.set(key, { space, name });
    }
  }

  /** The same object defined again by the same file (its text changed elsewhere). */
  private replaceDef(space: Space, name: string, old: Def, def: Def): void {
    const existing = space.defs.get(name);
    if (existing === old) space.defs.set(name, def);
    else if (Array.isArray(existing)) {
      const at = existing.indexOf(old);
      if (at !== -1) existing[at] = def;
      else this.addDef(space, name, def);
    } else this.addDef(space, name, def);
  }

  /** Down to one definition again: no longer a duplicate, and its files are checked again. */
  private single(space: Space, name: string, left: Def[]): void {
    if (left.length === 0) {
      space.defs.delete(name);
      return;
    }
    if (left.length > 1) {
      space.defs.set(name, left);
      return;
    }
    space.defs.set(name, left[0] as Def);
    const key = keyOf(space, name);
    this.multi.delete(key);
    this.multiChanged.set(key, { space, name });
  }

  private removeDef(space: Space, name: string, old: Def): void {
    const existing = space.defs.get(name);
    if (existing === old) space.defs.delete(name);
    else if (Array.isArray(existing))
      this.single(
        space,
        name,
        existing.filter((d) => d !== old),
      );
  }

  private removeDefs(name: string, state: FileState): void {
    const { spaces, names } = state.defs;
    for (let i = 0; i < names.length; i++) {
      const space = spaces[i] as Space;
      const defName = names[i] as string;
      const existing = space.defs.get(defName);
      if (existing === undefined) continue;
      if (!Array.isArray(existing)) {
        if (existing.file === name) space.defs.delete(defName);
        continue;
      }
      this.single(
        space,
        defName,
        existing.filter((d) => d.file !== name),
      );
    }
  }

  private dropDeps(name: string, state: FileState): void {
    for (const key of state.deps) {
      const readers = this.rdeps.get(key);
      if (readers === undefined) continue;
      if (typeof readers === 'string') {
        if (readers === name) this.rdeps.delete(key);
      } else {
        readers.delete(name);
        if (readers.size === 0) this.rdeps.delete(key);
      }
    }
    state.deps = [];
  }

  private defList(space: Space, name: string): Def[] {
    const d = space.defs.get(name);
    if (d === undefined) return [];
    if (!Array.isArray(d)) return [d];
    return [...d].sort((a, b) => (this.order.get(a.file) ?? 0) - (this.order.get(b.file) ?? 0) || a.line - b.line);
  }

  /** An extension as all files define it together, noting the lookup as has() does. */
  private noteExt(ctx: string, exten: string, deps: Deps): Ext | undefined {
    const space = this.extSpace(ctx);
    const d = space.defs.get(exten);
    if (d === undefined || Array.isArray(d) || d.file !== this.checking) note(deps, space, exten);
    return d === undefined ? undefined : this.mergedExt(d);
  }

  private mergedExt(d: Def | Def[]): Ext {
    if (!Array.isArray(d)) return d as Ext;
    const merged: Ext = { file: '', line: 0, labels: [], priorities: [], apps: [] };
    for (const def of d as Ext[]) {
      for (const l of def.labels) if (!merged.labels.includes(l)) merged.labels.push(l);
      for (const p of def.priorities) if (!merged.priorities.includes(p)) merged.priorities.push(p);
    }
    return merged;
  }

  /** Patterns and includes of a context across its files, in load order. */
  private shape(ctx: string): { patterns: string[]; includes: string[] } {
    const cached = this.shapes.get(ctx);
    if (cached) return cached;
    const patterns: string[] = [];
    const seen = new Set<string>();
    const includes: string[] = [];
    for (const def of this.defList(this.contextSpace, ctx)) {
      const context = this.states.get(def.file)?.contexts.get(ctx);
      if (!context) continue;
      for (const name of context.exts.keys()) {
        if (name.startsWith('_') && !seen.has(name)) {
          seen.add(name);
          patterns.push(name);
        }
      }
      for (const i of context.includes) includes.push(i.name);
    }
    const shape = { patterns, includes };
    this.shapes.set(ctx, shape);
    return shape;
  }

  /**
   * Whether something is defined, noting that the file being checked read it unless only that file
   * defines it (a change of it is a change of the file itself; see multiChanged for the rest).
   */
  private has(space: Space, name: string, deps: Deps): boolean {
    const d = space.defs.get(name);
    if (d === undefined || Array.isArray(d) || d.file !== this.checking) note(deps, space, name);
    return d !== undefined;
  }

  private findExtension(
    ctx: string,
    exten: string,
    deps: Deps,
    seen?: Set<string>,
    contextChecked = false,
  ): Ext | undefined {
    // Most lookups end at once in the first context: the set of visited contexts is made only when
    // the search follows an include.
    if (seen?.has(ctx)) return undefined;
    if (!contextChecked && !this.has(this.contextSpace, ctx, deps)) return undefined;
    const exact = this.noteExt(ctx, exten, deps);
    if (exact) return exact;
    const shape = this.shape(ctx);
    for (const name of shape.patterns) {
      if (matches(name.split('/')[0] as string, exten)) {
        return this.noteExt(ctx, name, deps);
      }
    }
    const visited = seen ?? new Set<string>();
    visited.add(ctx);
    for (const include of shape.includes) {
      const found = this.findExtension(include, exten, deps, visited);
      if (found) return found;
    }
    return undefined;
  }

  private checkJump(contextName: string, extenName: string, target: string, deps: Deps): string | null {
    const parts = splitTop(target.trim(), ',');
    for (let i = 0; i < parts.length; i++) parts[i] = withoutArguments((parts[i] as string).trim());
    if (parts.length === 1) {
      const label = parts[0] as string;
      if (dynamic(label) || isNumber(label)) return null;
      const own = this.noteExt(contextName, extenName, deps);
      return own?.labels.includes(label) ? null : `label "${label}" does not exist in extension ${extenName}`;
    }
    const [ctx, exten, prio] = parts.length === 2 ? [contextName, parts[0], parts[1]] : parts;
    if (ctx === undefined || exten === undefined || prio === undefined) return null;
    if (dynamic(ctx)) return null;
    if (!this.has(this.contextSpace, ctx, deps)) return `context "${ctx}" does not exist`;
    if (dynamic(exten)) return null;
    const found = this.findExtension(ctx, exten, deps, undefined, true);
    if (!found) return `extension "${exten}" does not exist in context "${ctx}"`;
    const numbered = isNumber(prio);
    if (!dynamic(prio) && !numbered && !found.labels.includes(prio)) {
      return `label "${prio}" does not exist in ${ctx},${exten}`;
    }
    if (numbered && !found.priorities.includes(prio)) return `priority ${prio} does not exist in ${ctx},${exten}`;
    return null;
  }

  private checkDialplanFile(file: string, state: FileState, deps: Deps): void {
    const issues = state.refIssues;
    for (const g of state.globals) {
      const suffix = /^OUT_(\d+)_SUFFIX$/.exec(g.key);
      if (!suffix) continue;
      const endpoint = g.value.replace(/^@/, '');
      if (!this.has(this.pjsipSpace('endpoint'), endpoint, deps)) {
        issues.push({
          file,
          line: g.line,
          message: `trunk ${suffix[1]} dials endpoint "${endpoint}", which does not exist`,
        });
      }
    }
    for (const [contextName, context] of state.contexts) {
      for (const include of context.includes) {
        if (!this.has(this.contextSpace, include.name, deps)) {
          issues.push({
            file,
            line: include.line,
            message: `[${contextName}] includes context "${include.name}", which does not exist`,
          });
        }
      }
      for (const [extenName, ext] of context.exts) {
        for (let i = 0; i < ext.apps.length; i += 2) {
          const app = ext.apps[i] as string;
          const line = ext.apps[i + 1] as number;
          const jump = JUMP_APPS.exec(app);
          if (!jump) continue;
          for (const target of jumpTargets(jump[1] as string, jump[2] as string)) {
            const problem = this.checkJump(contextName, extenName, target, deps);
            if (problem) issues.push({ file, line, message: `[${contextName}] ${jump[1]}: ${problem}` });
          }
          const call = /^Gosub\(sub-dial-trunk,s,1\((\d+),/.exec(app);
          if (call) {
            if (!this.has(this.globalSpace, `OUT_${call[1]}`, deps)) {
              issues.push({ file, line, message: `[${contextName}] dials trunk ${call[1]}, which does not exist` });
            }
          }
        }
      }
    }
  }

  private checkPjsipFile(file: string, state: FileState, deps: Deps): void {
    const issues = state.refIssues;
    const pos = this.order.get(file) ?? 0;
    const { spaces, names, defs } = state.defs;
    for (let i = 0; i < defs.length; i++) {
      const space = spaces[i] as Space;
      const def = defs[i] as Def;
      if (this.multi.size > 0 && Array.isArray(space.defs.get(names[i] as string))) {
        // Defined in another file too: only the first definition is checked, as Asterisk loads only it.
        this.has(space, names[i] as string, deps);
        if (this.defList(space, names[i] as string)[0] !== def) continue;
      }
      const o = def as PjSection;
      const type = o.type as string;
      const name = o.name;
      if (type === 'endpoint') {
        this.need(o, pos, 'aors', 'aor', deps, issues, true);
        this.need(o, pos, 'auth', 'auth', deps, issues);
        this.need(o, pos, 'outbound_auth', 'auth', deps, issues);
        this.need(o, pos, 'transport', 'transport', deps, issues);
        const context = this.value(o, 'context', pos, o.line);
        if (!context) issues.push({ file, line: o.line, message: `endpoint [${name}] has no context` });
        else {
          if (!this.has(this.contextSpace, context, deps)) {
            issues.push({
              file,
              line: o.line,
              message: `endpoint [${name}] context = ${context}: no such dialplan context`,
            });
          }
        }
        for (const box of (this.value(o, 'mailboxes', pos, o.line) ?? '').split(',')) {
          if (!box) continue;
          if (!this.has(this.mailboxSpace, box.trim(), deps)) {
            issues.push({ file, line: o.line, message: `endpoint [${name}] mailboxes = ${box}: no such mailbox` });
          }
        }
      } else if (type === 'registration') {
        this.need(o, pos, 'outbound_auth', 'auth', deps, issues);
        this.need(o, pos, 'endpoint', 'endpoint', deps, issues);
        this.need(o, pos, 'transport', 'transport', deps, issues);
        if (!this.value(o, 'server_uri', pos, o.line))
          issues.push({ file, line: o.line, message: `registration [${name}] has no server_uri` });
      } else if (type === 'identify') {
        this.need(o, pos, 'endpoint', 'endpoint', deps, issues, true);
        if (!this.value(o, 'match', pos, o.line))
          issues.push({ file, line: o.line, message: `identify [${name}] has no match` });
      } else if (type === 'auth') {
        if (this.value(o, 'auth_type', pos, o.line) !== 'md5' && !this.value(o, 'password', pos, o.line)) {
          issues.push({ file, line: o.line, message: `auth [${name}] has no password` });
        }
      } else if (type === 'transport') {
        if (!this.value(o, 'protocol', pos, o.line))
          issues.push({ file, line: o.line, message: `transport [${name}] has no protocol` });
      }
    }
  }

  /** A reference from a PJSIP object to others of a type (a comma-separated list). */
  private need(
    o: PjSection,
    pos: number,
    key: string,
    refType: string,
    deps: Deps,
    issues: ValidationIssue[],
    required = false,
  ): void {
    const v = this.value(o, key, pos, o.line);
    if (!v) {
      if (required) issues.push({ file: o.file, line: o.line, message: `${o.type} [${o.name}] has no ${key}` });
      return;
    }
    const space = this.pjsipSpace(refType);
    for (const raw of v.includes(',') ? v.split(',') : [v]) {
      const ref = raw.trim();
      if (!ref) continue;
      if (!this.has(space, ref, deps)) {
        issues.push({
          file: o.file,
          line: o.line,
          message: `${o.type} [${o.name}] ${key} = ${ref}: no ${refType} named "${ref}"`,
        });
      }
    }
  }

  /** Objects defined by more than one file: reported where the second one is. */
  private duplicates(): ValidationIssue[] {
    const issues: ValidationIssue[] = [];
    for (const { space, name } of this.multi.values()) {
      const list = this.defList(space, name);
      const first = list[0] as Def;
      if (space.kind === 'p') {
        for (const def of list.slice(1) as PjSection[]) {
          issues.push({
            file: def.file,
            line: def.line,
            message: `duplicate ${def.type} [${def.name}] (first at ${first.file}:${first.line})`,
          });
        }
      } else if (space.kind === 'm') {
        for (const def of list.slice(1)) {
          issues.push({ file: def.file, line: def.line, message: `duplicate mailbox ${name}` });
        }
      } else if (space.kind === 'e') {
        const ctx = space.key.slice(2);
        const extName = name;
        const seen = new Set((first as Ext).priorities);
        for (const def of list.slice(1) as Ext[]) {
          const again = def.priorities.find((p) => seen.has(p));
          if (again !== undefined) {
            issues.push({
              file: def.file,
              line: def.line,
              message: `[${ctx}] duplicate priority ${again} of extension ${extName}`,
            });
          }
          for (const p of def.priorities) seen.add(p);
        }
      }
    }
    return issues;
  }
}
