import {
  type Account,
  type AccountRole,
  ADMIN_PASSWORD_MIN_LENGTH,
  accountCreateSchema,
  accountPasswordSchema,
} from '@centralino/contract';
import {
  Badge,
  Button,
  Card,
  Group,
  PasswordInput,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAuth, useCanWrite } from '../../app/auth.tsx';
import { confirmAction } from '../../components/confirm.tsx';
import { notifyError, notifySuccess, reported } from '../../components/notify.ts';
import { WriteButton, WriteFieldset } from '../../components/WriteControls.tsx';
import { accountsApi } from './api.ts';
import { TwoFactorCard } from './TwoFactorCard.tsx';

const KEY = ['admin-accounts'];

function AddAccount() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<AccountRole>('readonly');
  const [touched, setTouched] = useState(false);
  const parsed = accountCreateSchema.safeParse({ username, password, role });
  const issues = parsed.success ? [] : parsed.error.issues.map((issue) => String(issue.path[0]));
  const add = useMutation({
    mutationFn: () => accountsApi.create({ username, password, role }),
    onSuccess: () => {
      setUsername('');
      setPassword('');
      setTouched(false);
      notifySuccess(t('accounts.added'));
      void client.invalidateQueries({ queryKey: KEY });
    },
    onError: (error) => notifyError(t('accounts.addFailed'), error),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (parsed.success) add.mutate();
  };
  return (
    <Card withBorder radius="md">
      <form onSubmit={submit} noValidate>
        <Group align="flex-end" wrap="wrap">
          <TextInput
            label={t('accounts.username')}
            value={username}
            onChange={(e) => setUsername(e.currentTarget.value)}
            error={touched && issues.includes('username') ? t('accounts.badName') : undefined}
            required
          />
          <PasswordInput
            label={t('accounts.password')}
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={
              touched && issues.includes('password')
                ? t('accounts.tooShort', { min: ADMIN_PASSWORD_MIN_LENGTH })
                : undefined
            }
            required
          />
          <Select
            label={t('accounts.role')}
            value={role}
            onChange={(value) => setRole((value as AccountRole | null) ?? 'readonly')}
            data={(['admin', 'readonly'] as const).map((r) => ({ value: r, label: t(`accounts.roles.${r}`) }))}
            allowDeselect={false}
          />
          <Button type="submit" loading={add.isPending}>
            {t('accounts.add')}
          </Button>
        </Group>
      </form>
    </Card>
  );
}

function ResetPasswordForm({ account, onDone }: { account: string; onDone: () => void }) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const valid = accountPasswordSchema.safeParse(password).success;
  const reset = useMutation({
    mutationFn: () => accountsApi.resetPassword(account, password),
    onSuccess: () => {
      notifySuccess(t('accounts.resetDone'));
      onDone();
    },
    onError: (error) => notifyError(t('accounts.resetFailed'), error),
  });
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        setTouched(true);
        if (valid) reset.mutate();
      }}
    >
      <Stack>
        <PasswordInput
          label={t('accounts.password')}
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          error={touched && !valid ? t('accounts.tooShort', { min: ADMIN_PASSWORD_MIN_LENGTH }) : undefined}
          data-autofocus
        />
        <Group justify="flex-end">
          <Button type="submit" loading={reset.isPending}>
            {t('accounts.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function AccountRow({ account }: { account: Account }) {
  const own = useAuth().user?.toLowerCase() === account.username.toLowerCase();
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: KEY });
  const setRole = useMutation({
    mutationFn: (role: AccountRole) => accountsApi.setRole(account.username, role),
    onSuccess: () => {
      notifySuccess(t('accounts.roleChanged'));
      void refresh();
    },
    onError: (error) => notifyError(t('accounts.roleFailed'), error),
  });
  const setListen = useMutation({
    mutationFn: (listen: boolean) => accountsApi.setListen(account.username, listen),
    onSuccess: () => {
      notifySuccess(t('accounts.listenChanged'));
      void refresh();
    },
    onError: (error) => notifyError(t('accounts.listenFailed'), error),
  });
  const remove = useMutation({
    mutationFn: () => accountsApi.remove(account.username),
    onSuccess: () => {
      notifySuccess(t('accounts.removed'));
      void refresh();
    },
    onError: (error) => notifyError(t('accounts.removeFailed'), error),
  });
  const resetTwoFactor = useMutation({
    mutationFn: () => accountsApi.resetTwoFactor(account.username),
    onSuccess: () => {
      notifySuccess(t('twoFactor.resetDone'));
      void refresh();
      void client.invalidateQueries({ queryKey: ['own-2fa'] });
    },
    onError: (error) => notifyError(t('twoFactor.resetFailed'), error),
  });
  const askResetTwoFactor = async () => {
    const ok = await confirmAction({
      title: t('twoFactor.resetTitle', { name: account.username }),
      message: t('twoFactor.resetBody'),
      confirmLabel: t('twoFactor.reset'),
      danger: true,
    });
    if (ok) resetTwoFactor.mutate();
  };
  const openReset = () => {
    const id = modals.open({
      title: t('accounts.resetTitle', { name: account.username }),
      children: <ResetPasswordForm account={account.username} onDone={() => modals.close(id)} />,
    });
  };
  const askRemove = async () => {
    const ok = await confirmAction({
      title: t('accounts.removeTitle', { name: account.username }),
      message: t('accounts.removeBody'),
      confirmLabel: t('accounts.remove'),
      danger: true,
    });
    if (ok) remove.mutate();
  };
  return (
    <Table.Tr>
      <Table.Td>{account.username}</Table.Td>
      <Table.Td>
        <WriteFieldset>
          <Select
            aria-label={t('accounts.changeRole', { name: account.username })}
            value={account.role}
            onChange={(value) => value && value !== account.role && setRole.mutate(value as AccountRole)}
            data={(['admin', 'readonly'] as const).map((r) => ({ value: r, label: t(`accounts.roles.${r}`) }))}
            allowDeselect={false}
            w={180}
          />
        </WriteFieldset>
      </Table.Td>
      <Table.Td>
        {account.role === 'admin' ? (
          <Text size="sm">{t('accounts.on')}</Text>
        ) : (
          <WriteFieldset>
            <Switch
              aria-label={t('accounts.listenOf', { name: account.username })}
              checked={account.listen_recordings}
              disabled={setListen.isPending}
              onChange={(e) => setListen.mutate(e.currentTarget.checked)}
            />
          </WriteFieldset>
        )}
      </Table.Td>
      <Table.Td>
        <Badge variant="light" color={account.two_factor ? 'teal' : 'gray'}>
          {account.two_factor ? t('accounts.on') : t('accounts.off')}
        </Badge>
      </Table.Td>
      <Table.Td>{new Date(account.created_at).toLocaleDateString(i18n.language)}</Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          {own ? (
            // One's own password is changed with the current one, under Settings (the server refuses a reset here).
            <Button component={Link} to="/admin/settings" size="xs" variant="light">
              {t('accounts.changeOwn')}
            </Button>
          ) : (
            <WriteButton size="xs" variant="light" onClick={openReset}>
              {t('accounts.reset')}
              <VisuallyHidden> {account.username}</VisuallyHidden>
            </WriteButton>
          )}
          {account.two_factor && (
            <WriteButton size="xs" variant="light" onClick={askResetTwoFactor}>
              {t('twoFactor.reset')}
              <VisuallyHidden> {account.username}</VisuallyHidden>
            </WriteButton>
          )}
          <WriteButton size="xs" variant="light" color="red" onClick={askRemove} loading={remove.isPending}>
            {t('accounts.remove')}
            <VisuallyHidden> {account.username}</VisuallyHidden>
          </WriteButton>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/** /admin/accounts: console accounts and their roles. */
export function AccountsPage() {
  const { t } = useTranslation();
  // A read-only account sees the list; the add form is left out rather than shown disabled.
  const canWrite = useCanWrite();
  const accounts = useQuery({ queryKey: KEY, queryFn: reported(t('accounts.loadFailed'), accountsApi.list) });
  return (
    <Stack gap="lg" maw={960}>
      <Title order={1} size="h2">
        {t('accounts.title')}
      </Title>
      <Text c="dimmed">{t('accounts.intro')}</Text>
      <Text c="dimmed" size="sm">
        {t('accounts.listenHelp')}
      </Text>
      <TwoFactorCard />
      {canWrite && <AddAccount />}
      <Table striped withTableBorder>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('accounts.username')}</Table.Th>
            <Table.Th>{t('accounts.role')}</Table.Th>
            <Table.Th title={t('accounts.listenHelp')}>{t('accounts.listen')}</Table.Th>
            <Table.Th>{t('accounts.twoFactor')}</Table.Th>
            <Table.Th>{t('accounts.created')}</Table.Th>
            <Table.Th>{t('accounts.actions')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {accounts.data?.map((account) => (
            <AccountRow key={account.username} account={account} />
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
