import {
  type LdapKind,
  type LdapSecurity,
  type LdapSettings,
  type LdapTestResult,
  ldapPresets,
  ldapSecurities,
  ldapSettingsSchema,
} from '@centralino/contract';
import {
  Alert,
  Anchor,
  Checkbox,
  Divider,
  Group,
  List,
  NumberInput,
  PasswordInput,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconBook, IconCircleCheck, IconPlugConnected } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { WriteButton } from '../../components/WriteControls.tsx';
import { usersApi } from './usersApi.ts';

const EMPTY: LdapSettings = {
  ...ldapPresets.ldap,
  host: '',
  bindDn: '',
  bindPassword: '',
  baseDn: '',
};

type FieldErrors = Partial<Record<string, string>>;

function fieldErrors(settings: LdapSettings): FieldErrors {
  const parsed = ldapSettingsSchema.safeParse(settings);
  if (parsed.success) return {};
  const out: FieldErrors = {};
  for (const issue of parsed.error.issues) out[issue.path.join('.')] ??= issue.message;
  return out;
}

/** How to connect a directory, in the console's language; shown with the Configure Provider choice. */
export function DirectoryHelpLink() {
  const { t, i18n } = useTranslation();
  const href = `/help/directory.${i18n.language?.startsWith('it') ? 'it' : 'en'}.html`;
  return (
    <Anchor href={href} target="_blank" rel="noreferrer" size="sm">
      <Group gap={4} component="span">
        <IconBook size={16} />
        {t('directory.documentation')}
      </Group>
    </Anchor>
  );
}

/** Connection to an existing LDAP server or Active Directory, with a test before saving. */
export function DirectoryForm({ initial, onSaved }: { initial?: LdapSettings; onSaved: () => void }) {
  const { t } = useTranslation();
  const [settings, setSettings] = useState<LdapSettings>(initial ?? EMPTY);
  const [testUser, setTestUser] = useState('');
  const [showErrors, setShowErrors] = useState(false);
  const [tested, setTested] = useState<LdapTestResult | null>(null);
  const errors = fieldErrors(settings);
  const valid = Object.keys(errors).length === 0;
  const error = (path: string) => (showErrors ? errors[path] : undefined);

  const update = (patch: Partial<LdapSettings>) => {
    setSettings((s) => ({ ...s, ...patch }));
    setTested(null);
  };
  const setAttribute = (key: keyof LdapSettings['attributes'], value: string) =>
    update({ attributes: { ...settings.attributes, [key]: value } });
  const applyPreset = (kind: LdapKind) => update({ ...ldapPresets[kind] });

  const test = useMutation({
    mutationFn: () => usersApi.testDirectory(settings, testUser.trim() || undefined),
    onSuccess: setTested,
  });
  const save = useMutation({ mutationFn: () => usersApi.saveDirectory(settings), onSuccess: onSaved });

  const run = (action: () => void) => {
    setShowErrors(true);
    if (valid) action();
  };
  const failure = (test.error ?? save.error) as ApiError | Error | null;

  return (
    <Stack gap="md" data-testid="directory-form">
      <Group justify="space-between">
        <SegmentedControl
          aria-label={t('directory.preset')}
          value={settings.kind}
          onChange={(v) => applyPreset(v as LdapKind)}
          data={[
            { value: 'ldap', label: t('directory.presets.ldap') },
            { value: 'ad', label: t('directory.presets.ad') },
          ]}
        />
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label={t('directory.host')}
          placeholder="ldap.example.com"
          required
          value={settings.host}
          error={error('host')}
          onChange={(e) => update({ host: e.currentTarget.value })}
        />
        <NumberInput
          label={t('directory.port')}
          required
          min={1}
          max={65535}
          value={settings.port}
          error={error('port')}
          onChange={(v) => update({ port: typeof v === 'number' ? v : Number(v) || 0 })}
        />
      </SimpleGrid>
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          {t('directory.security')}
        </Text>
        <SegmentedControl
          aria-label={t('directory.security')}
          value={settings.security}
          onChange={(v) => {
            const security = v as LdapSecurity;
            // Follow the usual port when the administrator has not chosen another one.
            const port =
              settings.port === 389 && security === 'ldaps'
                ? 636
                : settings.port === 636 && security !== 'ldaps'
                  ? 389
                  : settings.port;
            update({ security, port });
          }}
          data={ldapSecurities.map((s) => ({ value: s, label: t(`directory.securities.${s}`) }))}
        />
        {settings.security !== 'none' && (
          <Checkbox
            mt="xs"
            label={t('directory.allowInvalidCertificate')}
            checked={settings.allowInvalidCertificate}
            onChange={(e) => update({ allowInvalidCertificate: e.currentTarget.checked })}
          />
        )}
      </Stack>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label={t('directory.bindDn')}
          placeholder={settings.kind === 'ad' ? 'EXAMPLE\\ldapservice' : 'cn=admin,dc=example,dc=com'}
          value={settings.bindDn}
          error={error('bindDn')}
          onChange={(e) => update({ bindDn: e.currentTarget.value })}
        />
        <PasswordInput
          label={t('directory.bindPassword')}
          placeholder={initial ? t('directory.keepPassword') : undefined}
          value={settings.bindPassword}
          error={error('bindPassword')}
          onChange={(e) => update({ bindPassword: e.currentTarget.value })}
        />
        <TextInput
          label={t('directory.baseDn')}
          placeholder="dc=example,dc=com"
          required
          value={settings.baseDn}
          error={error('baseDn')}
          onChange={(e) => update({ baseDn: e.currentTarget.value })}
        />
        <TextInput
          label={t('directory.userFilter')}
          required
          value={settings.userFilter}
          error={error('userFilter')}
          onChange={(e) => update({ userFilter: e.currentTarget.value })}
        />
      </SimpleGrid>
      <Divider label={t('directory.mapping')} labelPosition="left" />
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {(['username', 'displayname', 'fname', 'lname', 'email'] as const).map((key) => (
          <TextInput
            key={key}
            label={t(`directory.attributes.${key}`)}
            required={key === 'username' || key === 'displayname'}
            value={settings.attributes[key]}
            error={error(`attributes.${key}`)}
            onChange={(e) => setAttribute(key, e.currentTarget.value)}
          />
        ))}
      </SimpleGrid>
      <Divider />
      <Group align="end">
        <TextInput
          label={t('directory.testUser')}
          description={t('directory.testUserHelp')}
          value={testUser}
          onChange={(e) => setTestUser(e.currentTarget.value)}
          style={{ flex: 1 }}
        />
        <WriteButton
          variant="default"
          leftSection={<IconPlugConnected size={16} />}
          loading={test.isPending}
          onClick={() => run(() => test.mutate())}
        >
          {t('directory.test')}
        </WriteButton>
        <WriteButton loading={save.isPending} disabled={!tested} onClick={() => run(() => save.mutate())}>
          {t('directory.save')}
        </WriteButton>
      </Group>
      {failure && (
        <Alert color="red" title={failure instanceof ApiError ? failure.body.title : t('directory.failed')}>
          {failure.message}
        </Alert>
      )}
      {tested && (
        <Alert color="teal" icon={<IconCircleCheck />} title={t('directory.testOk', { count: tested.users })}>
          <Stack gap={4}>
            {tested.skipped > 0 && <Text size="sm">{t('directory.skipped', { count: tested.skipped })}</Text>}
            {tested.sample.length > 0 && (
              <List size="sm" data-testid="directory-sample">
                {tested.sample.map((u) => (
                  <List.Item key={u.username}>
                    {u.username} — {u.displayname}
                    {u.email ? ` <${u.email}>` : ''}
                  </List.Item>
                ))}
              </List>
            )}
            {tested.found !== undefined && (
              <Text size="sm" data-testid="directory-found">
                {tested.found
                  ? t('directory.found', { username: tested.found.username, name: tested.found.displayname })
                  : t('directory.notFound', { username: testUser })}
              </Text>
            )}
            <Text size="sm" c="dimmed">
              {t('directory.saveHint')}
            </Text>
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}
