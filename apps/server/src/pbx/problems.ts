import type { PbxApplyProblem } from '@centralino/contract';
import type { PbxModel, PbxUser } from './model.ts';
import { patternName } from './render/dialplan.ts';
import type { ValidationIssue } from './validate.ts';

type ProblemObject = PbxApplyProblem['object'];

const CONFIGURATION: ProblemObject = { kind: 'configuration', id: '', label: '' };

/** Where a refused line stands in its file: the section above it and the dialplan extension it belongs to. */
interface Place {
  section: string;
  /** Comment after the section header ('; national_it'). */
  note: string;
  /** `exten => NAME,` of the line or of the nearest line above it in the same section. */
  exten: string | null;
  /** The refused line itself, trimmed. */
  text: string;
  /** `; trunk N` above the section (pjsip.trunks.conf). */
  trunkId: number | null;
}

function placeOf(text: string, line: number): Place | null {
  const lines = text.split('\n');
  if (line < 1 || line > lines.length) return null;
  let exten: string | null = null;
  for (let i = line - 1; i >= 0; i--) {
    const current = (lines[i] as string).trim();
    if (exten === null) {
      const match = /^exten\s*=>?\s*([^,]+),/.exec(current);
      if (match) exten = (match[1] as string).trim();
    }
    const header = /^\[([^\]]+)\](?:\([^)]*\))?\s*(?:;\s*(.*))?$/.exec(current);
    if (header) {
      let trunkId: number | null = null;
      for (let j = i - 1; j >= 0 && trunkId === null; j--) {
        const comment = /^;\s*trunk\s+(\d+)\s*$/.exec((lines[j] as string).trim());
        if (comment) trunkId = Number(comment[1]);
      }
      return {
        section: header[1] as string,
        note: (header[2] ?? '').trim(),
        exten,
        text: (lines[line - 1] as string).trim(),
        trunkId,
      };
    }
  }
  return null;
}

const userLabel = (user: PbxUser) => `${user.name || user.username} (${user.extension})`;

/**
 * Traces each refused line of a rendered configuration back to the console object that produced it
 * (user, trunk, route, group, profile), so that the console can say what to fix or remove. Lines that
 * belong to no such object are the configuration's own.
 */
export function problemsOf(
  issues: ValidationIssue[],
  files: ReadonlyMap<string, string>,
  model: PbxModel,
): PbxApplyProblem[] {
  const byNumber = new Map<string, PbxUser>();
  for (const user of model.users) {
    byNumber.set(user.extension, user);
    for (const device of user.devices) if (!byNumber.has(device.number)) byNumber.set(device.number, user);
  }
  const user = (number: string | undefined): ProblemObject | null => {
    const found = number === undefined ? undefined : byNumber.get(number);
    return found ? { kind: 'user', id: found.username, label: userLabel(found) } : null;
  };
  const trunk = (id: number | null, name?: string): ProblemObject | null => {
    const found = model.trunks.find((t) => t.id === id) ?? model.trunks.find((t) => t.name === name);
    if (found) {
      const kind = found.registration === 'receive' ? 'gateway_trunk' : 'trunk';
      return { kind, id: String(found.id), label: found.name };
    }
    // A port of a gateway described as such (its trunk is named after the gateway and the port).
    const gateway = model.gateways.find((g) => g.ports.some((p) => p.trunkId === id));
    if (gateway && id !== null) return { kind: 'gateway_trunk', id: String(id), label: name ?? gateway.manufacturer };
    return null;
  };
  const outboundRoute = (id: number, note: string): ProblemObject => {
    const found = model.outboundRoutes.find((r) => r.id === id);
    return { kind: 'outbound_route', id: String(id), label: found?.name ?? note ?? String(id) };
  };
  const inboundRoute = (exten: string | null): ProblemObject | null => {
    if (exten === null) return null;
    const [didPart, cidPart] = exten.split('/');
    const found = model.inboundRoutes.find((r) => {
      const cid = r.cid ? patternName(r.cid) : undefined;
      if (cid !== cidPart) return false;
      return r.did ? patternName(r.did) === didPart : ['_X.', '_+X.', 's'].includes(didPart as string);
    });
    if (!found) return null;
    const did = found.did || '*';
    return {
      kind: 'inbound_route',
      id: found.cid ? `${found.did}/${found.cid}` : found.did,
      label: `${found.cid ? `${did} / ${found.cid}` : did}${found.description ? ` (${found.description})` : ''}`,
    };
  };

  const objectOf = (issue: ValidationIssue, place: Place | null): ProblemObject | null => {
    const { file } = issue;
    if (!place) return null;
    const { section, exten } = place;
    if (file.startsWith('pjsip.users.')) return user(/^(\d+)/.exec(section)?.[1]);
    if (file.startsWith('extensions.users.')) return user(/^(?:vm[a-z])?(\d+)$/.exec(exten ?? '')?.[1]);
    if (file === 'voicemail.conf') return user(/^(\d+)\s*=>/.exec(place.text)?.[1]);
    if (file.startsWith('pjsip.')) {
      // Trunks: their objects are named after the trunk (registration, auth, aor, endpoint, identify).
      return trunk(place.trunkId, section);
    }
    if (!file.startsWith('extensions.')) return null;
    if (section === 'globals') {
      const id = /^OUT(?:PREFIX|CID|MAXCHANS|DISABLE|CONTINUE)?_(\d+)/i.exec(place.text)?.[1];
      return id === undefined ? null : trunk(Number(id));
    }
    const route = /^outrt-(\d+)$/.exec(section);
    if (route) return outboundRoute(Number(route[1]), place.note);
    if (/^ext-did-\d+$/.test(section)) return inboundRoute(exten);
    const profile = /^cti-profile-(\d+)$/.exec(section);
    if (profile) {
      const found = model.profiles.find((p) => p.id === Number(profile[1]));
      return { kind: 'profile', id: profile[1] as string, label: found?.name ?? (profile[1] as string) };
    }
    if (section === 'ext-group' && exten) {
      const group = model.ringGroups.find((g) => g.key === exten);
      const id = /^cti-group-(\d+)$/.exec(exten)?.[1];
      if (group && id) return { kind: 'group', id, label: group.name };
    }
    if (section === 'ext-local') return user(/^(?:vm[a-z])?(\d+)$/.exec(exten ?? '')?.[1]);
    return null;
  };

  return issues.map((issue) => {
    const text = files.get(issue.file);
    const place = text === undefined ? null : placeOf(text, issue.line);
    return {
      file: issue.file,
      line: issue.line,
      object: objectOf(issue, place) ?? CONFIGURATION,
      message: issue.message,
    };
  });
}
