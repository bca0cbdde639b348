import {
  applyCtiChange,
  type CtiChange,
  type CtiContext,
  type CtiProfile,
  ctiMacros,
  isPermissionVisible,
  LICENCE_REVERT_MS,
  type PhonebookLevel,
  phonebookLevel,
  SAVE_MARK_MS,
  withPhonebookLevel,
} from '@centralino/contract';
import {
  Alert,
  Button,
  Card,
  Group,
  Loader,
  Radio,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  useComputedColorScheme,
} from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconTrash, IconX } from '@tabler/icons-react';
import { type CSSProperties, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { confirmAction } from '../../components/confirm.tsx';
import { notifyError } from '../../components/notify.ts';
import { WriteFieldset } from '../../components/WriteControls.tsx';
import { ctiApi } from './ctiApi.ts';

type SaveState = 'saving' | 'saved' | 'error';
const PHONEBOOK_LEVEL_PERMISSIONS = ['phonebook_level_0', 'phonebook_level_1', 'phonebook_level_2', 'ad_phonebook'];

function StatusMark({ state }: { state: SaveState | undefined }) {
  const { t } = useTranslation();
  if (state === 'saving') return <Loader size={14} aria-label={t('cti.saving')} />;
  if (state === 'saved')
    return <IconCheck size={16} color="var(--mantine-color-teal-6)" aria-label={t('cti.savedMark')} />;
  if (state === 'error') return <IconX size={16} color="var(--mantine-color-red-6)" aria-label={t('cti.notSaved')} />;
  return null;
}

/** One profile: every switch saves the whole profile at once, and reverts when the save fails. */
export function ProfilePanel({
  profile: stored,
  ctx,
  onDeleted,
  onPrivacy,
  onSaved,
}: {
  profile: CtiProfile;
  ctx: CtiContext;
  onDeleted: () => void;
  onPrivacy: () => void;
  /** Told the profile as stored after each successful save (the page's warnings follow it). */
  onSaved: (profile: CtiProfile) => void;
}) {
  const { t } = useTranslation();
  const scheme = useComputedColorScheme('light');
  const [profile, setProfile] = useState(stored);
  const [states, setStates] = useState<Record<string, SaveState>>({});
  const [failed, setFailed] = useState(false);
  const [licenceError, setLicenceError] = useState(false);
  const [pendingOn, setPendingOn] = useState<string | null>(null);
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());

  useEffect(() => setProfile(stored), [stored]);
  useEffect(() => {
    const all = timers.current;
    return () => {
      for (const timer of all.values()) clearTimeout(timer);
    };
  }, []);

  const mark = (key: string, state: SaveState | undefined) => {
    setStates((s) => {
      const next = { ...s };
      if (state) next[key] = state;
      else delete next[key];
      return next;
    });
    const old = timers.current.get(key);
    if (old) clearTimeout(old);
    if (state === 'saved')
      timers.current.set(
        key,
        setTimeout(() => mark(key, undefined), SAVE_MARK_MS),
      );
  };

  const save = async (key: string, next: CtiProfile, previous: CtiProfile) => {
    setProfile(next);
    setFailed(false);
    mark(key, 'saving');
    try {
      await ctiApi.saveProfile(next.id, {
        name: next.name,
        macro_permissions: next.macro_permissions,
        ...(next.outbound_routes_permissions
          ? {
              outbound_routes_permissions: next.outbound_routes_permissions.map((r) => ({
                route_id: r.route_id,
                permission: r.permission,
              })),
            }
          : {}),
      });
      mark(key, 'saved');
      onSaved(next);
    } catch {
      setProfile(previous);
      setFailed(true);
      mark(key, 'error');
    }
  };

  const change = (key: string, c: CtiChange) => {
    const result = applyCtiChange(profile, c, ctx);
    if (!result.ok) {
      if (result.reason === 'licence') {
        // Show the switch moving, then put it back: the queue manager needs a licence.
        setLicenceError(true);
        setPendingOn(key);
        setTimeout(() => setPendingOn(null), LICENCE_REVERT_MS);
      }
      return;
    }
    if (result.privacyWarning) onPrivacy();
    void save(key, result.profile, profile);
  };

  const remove = async () => {
    const ok = await confirmAction({
      title: t('cti.profiles.deleteTitle'),
      message: t('cti.profiles.deleteConfirm', { name: profile.name }),
      confirmLabel: t('cti.delete'),
      danger: true,
    });
    if (!ok) return;
    try {
      await ctiApi.deleteProfile(profile.id);
      onDeleted();
    } catch (error) {
      notifyError(
        error instanceof ApiError && error.code === 'profile_in_use'
          ? t('cti.profiles.inUse')
          : t('cti.profiles.notDeleted'),
        error,
      );
    }
  };

  const level = phonebookLevel(profile);
  // Mantine's light "dimmed" grey (gray-6) is below AA contrast on white for the switch descriptions.
  const readableDimmed =
    scheme === 'light' ? ({ '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' } as CSSProperties) : undefined;
  const routes = profile.outbound_routes_permissions ?? [];

  return (
    <WriteFieldset>
      <Stack gap="md" data-testid={`profile-${profile.name}`} style={readableDimmed}>
        {failed && (
          <Alert
            color="red"
            icon={<IconAlertTriangle />}
            title={t('cti.notSavedTitle')}
            withCloseButton
            onClose={() => setFailed(false)}
          >
            {t('cti.notSavedDetail')}
          </Alert>
        )}
        {licenceError && (
          <Alert color="orange" title={t('cti.licenceTitle')} withCloseButton onClose={() => setLicenceError(false)}>
            {t('cti.licence')}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          {ctiMacros.map((macroInfo) => {
            const macro = profile.macro_permissions[macroInfo.name];
            if (!macro) return null;
            const key = `macro:${macroInfo.name}`;
            const checked = pendingOn === key ? true : macro.value;
            const visible = (macro.permissions ?? []).filter(
              (p) =>
                isPermissionVisible(p.name, profile, ctx) &&
                !(macroInfo.name === 'phonebook' && PHONEBOOK_LEVEL_PERMISSIONS.includes(p.name)),
            );
            return (
              <Card
                key={macroInfo.name}
                withBorder
                radius="md"
                // A tinted card rather than a faded one: faded text fell below readable contrast.
                bg={macro.value ? undefined : 'var(--mantine-color-default-hover)'}
                data-testid={`macro-${macroInfo.name}`}
              >
                <Stack gap="xs">
                  <Group justify="space-between" wrap="nowrap">
                    <Switch
                      label={t(`cti.macros.${macroInfo.name}`, {
                        defaultValue: macro.displayname ?? macroInfo.displayname,
                      })}
                      description={t(`cti.macroDescriptions.${macroInfo.name}`, {
                        defaultValue: macro.description ?? macroInfo.description,
                      })}
                      checked={checked}
                      disabled={states[key] === 'saving'}
                      onChange={(e) =>
                        change(key, { kind: 'macro', macro: macroInfo.name, value: e.currentTarget.checked })
                      }
                    />
                    <StatusMark state={states[key]} />
                  </Group>
                  {macro.value && macroInfo.name === 'phonebook' && (
                    // Radios rather than a segmented control: three long labels side by side did not fit
                    // half a card row and the last one was cut off; stacked radios wrap in any language.
                    <Group gap="xs" pl="xl" justify="space-between" wrap="nowrap" align="flex-start">
                      <Radio.Group
                        label={t('cti.phonebookLevel')}
                        value={String(level)}
                        onChange={(v) => {
                          const next = withPhonebookLevel(profile, Number(v) as PhonebookLevel);
                          void save('phonebook-level', next, profile);
                        }}
                      >
                        <Stack gap={6} mt={6}>
                          {(['0', '1', '2'] as const).map((value) => (
                            <Radio
                              key={value}
                              size="sm"
                              value={value}
                              label={t(`cti.phonebookLevels.${value}`)}
                              disabled={states['phonebook-level'] === 'saving'}
                            />
                          ))}
                        </Stack>
                      </Radio.Group>
                      <StatusMark state={states['phonebook-level']} />
                    </Group>
                  )}
                  {macro.value && visible.length > 0 && (
                    <Stack gap={6} pl="xl">
                      {visible.map((permission) => {
                        const pkey = `perm:${macroInfo.name}:${permission.name}`;
                        const isGroup = permission.name.startsWith('grp_');
                        // "Group: Support" → "Support" under a group label (contract: names split on ': ').
                        const label = isGroup
                          ? t('cti.groupPermission', { name: permission.displayname.split(': ').slice(1).join(': ') })
                          : t(`cti.permissions.${permission.name}`, { defaultValue: permission.displayname });
                        return (
                          <Group key={permission.name} justify="space-between" wrap="nowrap">
                            <Switch
                              size="sm"
                              label={label}
                              description={
                                isGroup
                                  ? undefined
                                  : t(`cti.permissionDescriptions.${permission.name}`, {
                                      defaultValue: permission.description,
                                    })
                              }
                              checked={permission.value}
                              disabled={states[pkey] === 'saving'}
                              onChange={(e) =>
                                change(pkey, {
                                  kind: 'permission',
                                  macro: macroInfo.name,
                                  permission: permission.name,
                                  value: e.currentTarget.checked,
                                })
                              }
                            />
                            <StatusMark state={states[pkey]} />
                          </Group>
                        );
                      })}
                    </Stack>
                  )}
                </Stack>
              </Card>
            );
          })}
        </SimpleGrid>
        <Card withBorder radius="md" data-testid="profile-routes">
          <Stack gap="xs">
            <div>
              <Text fw={600}>{t('cti.routes.title')}</Text>
              {routes.length > 0 && (
                <Text size="sm" c="dimmed">
                  {t('cti.routes.description')}
                </Text>
              )}
            </div>
            {routes.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('cti.routes.none')}
              </Text>
            ) : (
              routes.map((route) => {
                const rkey = `route:${route.route_id}`;
                return (
                  <Group key={route.route_id} justify="space-between" wrap="nowrap">
                    <Switch
                      label={route.name ?? String(route.route_id)}
                      checked={route.permission}
                      disabled={states[rkey] === 'saving'}
                      onChange={(e) =>
                        change(rkey, { kind: 'route', routeId: route.route_id, value: e.currentTarget.checked })
                      }
                    />
                    <StatusMark state={states[rkey]} />
                  </Group>
                );
              })
            )}
          </Stack>
        </Card>
        <Group justify="flex-end">
          <Button color="red" variant="light" leftSection={<IconTrash size={16} />} onClick={remove}>
            {t('cti.profiles.delete')}
          </Button>
        </Group>
      </Stack>
    </WriteFieldset>
  );
}
