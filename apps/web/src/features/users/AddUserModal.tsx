import { type CreatedUser, isSystemAccount, newUserSchema } from '@centralino/contract';
import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { controlCharsError } from '../../components/controlChars.ts';
import { usersApi } from './usersApi.ts';

/** Adds a user to the local directory; the server picks a random password, shown once. */
export function AddUserModal({
  opened,
  onClose,
  onCreated,
}: {
  opened: boolean;
  onClose: () => void;
  onCreated: (user: CreatedUser) => void;
}) {
  const { t, i18n } = useTranslation();
  const [username, setUsername] = useState('');
  const [fullname, setFullname] = useState('');
  const [touched, setTouched] = useState(false);
  const parsed = newUserSchema.safeParse({ username, fullname });
  const fieldError = (field: 'username' | 'fullname') => {
    if (!touched || parsed.success) return undefined;
    const issue = parsed.error.issues.find((i) => i.path[0] === field);
    if (!issue) return undefined;
    const control = controlCharsError(parsed.error.issues, field, i18n.resolvedLanguage);
    if (control) return control;
    if (field === 'fullname') return t('addUser.fullnameRequired');
    if (username.trim() === '') return t('addUser.usernameRequired');
    // admin is the console administrator (its password route is /api/users/admin/password).
    return isSystemAccount(username.trim()) ? t('addUser.usernameReserved') : t('addUser.usernameInvalid');
  };

  const create = useMutation({
    mutationFn: () => usersApi.create({ username, fullname }),
    onSuccess: (user) => {
      setUsername('');
      setFullname('');
      setTouched(false);
      onCreated(user);
    },
  });
  const serverError =
    create.error instanceof ApiError && create.error.code === 'user_exists'
      ? t('addUser.exists')
      : create.error?.message;

  return (
    <Modal opened={opened} onClose={onClose} title={t('addUser.title')}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          if (parsed.success) create.mutate();
        }}
      >
        <Stack>
          <TextInput
            label={t('addUser.username')}
            withAsterisk
            data-autofocus
            value={username}
            error={fieldError('username') ?? serverError}
            onChange={(e) => {
              setUsername(e.currentTarget.value);
              // The server's refusal was about the name as it was: a changed name is not refused yet.
              if (create.isError) create.reset();
            }}
          />
          <TextInput
            label={t('addUser.fullname')}
            withAsterisk
            value={fullname}
            error={fieldError('fullname')}
            onChange={(e) => setFullname(e.currentTarget.value)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {t('addUser.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
