import { describe, expect, it } from 'vitest';
import {
  applyCtiChange,
  CTI_CASCADE_MACROS,
  type CtiContext,
  type CtiProfile,
  ctiMacros,
  ctiProfileProblems,
  ctiStaticPermissions,
  defaultCtiProfiles,
  groupPermission,
  groupPermissionName,
  groupsNotEnabled,
  isPermissionVisible,
  permissionValue,
  phonebookLevel,
  withPhonebookLevel,
} from '../src/index.ts';

const licensed: CtiContext = { engine: 'tancredi', licenceActive: true };
const community: CtiContext = { engine: 'tancredi', licenceActive: false };

/** A profile as the API answers it, with the given macros and permissions on. */
function profile(on: { macros?: string[]; permissions?: string[] } = {}, groups: string[] = []): CtiProfile {
  const catalogue = [...ctiStaticPermissions, ...groups.map((name, i) => groupPermission({ id: i + 1, name }))];
  return {
    id: 9,
    name: 'Test',
    macro_permissions: Object.fromEntries(
      ctiMacros.map((m) => [
        m.name,
        {
          value: on.macros?.includes(m.name) ?? false,
          displayname: m.displayname,
          description: m.description,
          permissions: catalogue
            .filter((p) => p.macro === m.name)
            .map((p) => ({ ...p, value: on.permissions?.includes(p.name) ?? false })),
        },
      ]),
    ),
  };
}
const macroValues = (p: CtiProfile) =>
  Object.fromEntries(Object.entries(p.macro_permissions).map(([k, m]) => [k, m.value]));

describe('CTI catalogue', () => {
  it('has the 12 macros and 31 static permissions of the contract, each in a known macro', () => {
    expect(ctiMacros).toHaveLength(12);
    expect(ctiStaticPermissions).toHaveLength(31);
    const macroNames = new Set(ctiMacros.map((m) => m.name));
    for (const p of ctiStaticPermissions) expect(macroNames.has(p.macro)).toBe(true);
    expect(new Set(ctiStaticPermissions.map((p) => p.id)).size).toBe(31);
  });

  it('names group permissions from letters and digits only, lower case', () => {
    expect(groupPermissionName('Sales Team-2')).toBe('grp_salesteam2');
    expect(groupPermission({ id: 4, name: 'Support' })).toMatchObject({
      id: 1_000_004,
      name: 'grp_support',
      displayname: 'Group: Support',
      macro: 'presence_panel',
    });
  });

  it('defines Base, Standard and Advanced with permissions that exist', () => {
    expect(defaultCtiProfiles.map((p) => p.name)).toEqual(['Base', 'Standard', 'Advanced']);
    const names = new Set(ctiStaticPermissions.map((p) => p.name));
    for (const p of defaultCtiProfiles) for (const perm of p.permissions) expect(names.has(perm)).toBe(true);
  });
});

describe('CTI rules', () => {
  it('switching NethVoice CTI on or off sets the same value on the nine dependent macros', () => {
    const on = applyCtiChange(profile(), { kind: 'macro', macro: 'nethvoice_cti', value: true }, licensed);
    expect(on.ok).toBe(true);
    if (!on.ok) return;
    for (const name of CTI_CASCADE_MACROS) expect(on.profile.macro_permissions[name]?.value).toBe(true);
    expect(on.profile.macro_permissions.settings?.value).toBe(false);
    expect(on.profile.macro_permissions.remote_sites?.value).toBe(false);
    const off = applyCtiChange(on.profile, { kind: 'macro', macro: 'nethvoice_cti', value: false }, licensed);
    if (!off.ok) throw new Error('expected ok');
    expect(Object.values(macroValues(off.profile)).every((v) => v === false)).toBe(true);
  });

  it('keeps the queue manager off when the CTI is switched on without a licence', () => {
    const on = applyCtiChange(profile(), { kind: 'macro', macro: 'nethvoice_cti', value: true }, community);
    if (!on.ok) throw new Error('expected ok');
    expect(on.profile.macro_permissions.qmanager?.value).toBe(false);
    expect(on.profile.macro_permissions.phonebook?.value).toBe(true);
  });

  it('refuses the queue manager without an active licence, and allows it with one', () => {
    expect(applyCtiChange(profile(), { kind: 'macro', macro: 'qmanager', value: true }, community)).toEqual({
      ok: false,
      reason: 'licence',
    });
    expect(applyCtiChange(profile(), { kind: 'macro', macro: 'qmanager', value: true }, licensed).ok).toBe(true);
    // Switching it off is always allowed.
    expect(
      applyCtiChange(profile({ macros: ['qmanager'] }), { kind: 'macro', macro: 'qmanager', value: false }, community)
        .ok,
    ).toBe(true);
  });

  it('makes operator panel permissions mutually exclusive', () => {
    const p = profile({ macros: ['operator_panel'] });
    p.macro_permissions.operator_panel?.permissions?.push(
      { id: 40, name: 'in_queue_401', displayname: 'Queue Sales (401)', description: '', value: true },
      { id: 41, name: 'in_queue_402', displayname: 'Queue Help (402)', description: '', value: false },
    );
    const result = applyCtiChange(
      p,
      { kind: 'permission', macro: 'operator_panel', permission: 'in_queue_402', value: true },
      licensed,
    );
    if (!result.ok) throw new Error('expected ok');
    expect(permissionValue(result.profile, 'in_queue_401')).toBe(false);
    expect(permissionValue(result.profile, 'in_queue_402')).toBe(true);
    expect(ctiProfileProblems(result.profile, licensed)).toEqual({});
    expect(ctiProfileProblems(p, licensed)).toEqual({});
    p.macro_permissions.operator_panel?.permissions?.forEach((x) => {
      x.value = true;
    });
    expect(Object.keys(ctiProfileProblems(p, licensed))).toEqual(['macro_permissions.operator_panel']);
  });

  it.each(['recording', 'spy', 'intrude'])('warns about privacy when %s turns on, not when it turns off', (name) => {
    const on = applyCtiChange(
      profile(),
      { kind: 'permission', macro: 'settings', permission: name, value: true },
      licensed,
    );
    expect(on).toMatchObject({ ok: true, privacyWarning: true });
    const off = applyCtiChange(
      profile(),
      { kind: 'permission', macro: 'settings', permission: name, value: false },
      licensed,
    );
    expect(off).toMatchObject({ ok: true, privacyWarning: false });
  });

  it('warns about privacy for advanced recording too, but not for an ordinary permission', () => {
    expect(
      applyCtiChange(
        profile(),
        { kind: 'permission', macro: 'presence_panel', permission: 'ad_recording', value: true },
        licensed,
      ),
    ).toMatchObject({ privacyWarning: true });
    expect(
      applyCtiChange(profile(), { kind: 'permission', macro: 'settings', permission: 'dnd', value: true }, licensed),
    ).toMatchObject({ privacyWarning: false });
  });

  it('does not change the profile it was given', () => {
    const before = profile();
    const copy = JSON.stringify(before);
    applyCtiChange(before, { kind: 'macro', macro: 'nethvoice_cti', value: true }, licensed);
    expect(JSON.stringify(before)).toBe(copy);
  });

  it('answers unknown for a switch that does not exist', () => {
    expect(applyCtiChange(profile(), { kind: 'macro', macro: 'nope', value: true }, licensed)).toEqual({
      ok: false,
      reason: 'unknown',
    });
    expect(
      applyCtiChange(profile(), { kind: 'permission', macro: 'settings', permission: 'nope', value: true }, licensed),
    ).toEqual({ ok: false, reason: 'unknown' });
  });

  it('hides chat, video conference, trunks and operator queues; phone buttons only in the new mode', () => {
    const p = profile();
    for (const name of ['chat', 'video_conference', 'trunks', 'in_queue_401'])
      expect(isPermissionVisible(name, p, licensed)).toBe(false);
    expect(isPermissionVisible('dnd', p, licensed)).toBe(true);
    expect(isPermissionVisible('phone_buttons', p, licensed)).toBe(true);
    expect(isPermissionVisible('phone_buttons', p, { engine: 'freepbx', licenceActive: true })).toBe(false);
  });

  it('hides group permissions while all_groups is on', () => {
    const p = profile({ macros: ['presence_panel'] }, ['support']);
    expect(isPermissionVisible('grp_support', p, licensed)).toBe(true);
    const all = applyCtiChange(
      p,
      { kind: 'permission', macro: 'presence_panel', permission: 'all_groups', value: true },
      licensed,
    );
    if (!all.ok) throw new Error('expected ok');
    expect(isPermissionVisible('grp_support', all.profile, licensed)).toBe(false);
  });

  it('finds the groups no profile enables, unless a profile sees all groups', () => {
    const groups = [
      { id: 1, name: 'support' },
      { id: 2, name: 'sales' },
    ];
    const a = profile({ permissions: ['grp_support'] }, ['support', 'sales']);
    const b = profile({}, ['support', 'sales']);
    expect(groupsNotEnabled([a, b], groups)).toEqual([{ id: 2, name: 'sales' }]);
    expect(groupsNotEnabled([a, profile({ permissions: ['all_groups'] }, ['support', 'sales'])], groups)).toEqual([]);
  });

  it('maps the phonebook level to its permissions and back', () => {
    const p = profile({ macros: ['phonebook'] });
    expect(phonebookLevel(p)).toBe(0);
    const two = withPhonebookLevel(p, 2);
    expect(phonebookLevel(two)).toBe(2);
    expect(
      ['phonebook_level_0', 'phonebook_level_1', 'phonebook_level_2', 'ad_phonebook'].map((n) =>
        permissionValue(two, n),
      ),
    ).toEqual([true, true, true, true]);
    const one = withPhonebookLevel(two, 1);
    expect(phonebookLevel(one)).toBe(1);
    expect(permissionValue(one, 'ad_phonebook')).toBe(false);
  });
});
