import { EXTENSION_PATTERN, NO_EXTENSION, type User } from '@centralino/contract';
import { ActionIcon, Badge, Button, Code, Group, Paper, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { IconCheck, IconEye, IconEyeOff, IconPencil, IconRoute, IconX } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { CredentialButton, WriteButton } from '../../components/WriteControls.tsx';
import { FollowMeModal } from './FollowMeModal.tsx';
import { usersApi } from './usersApi.ts';

/**
 * A user's console-set password, read from its own call when the administrator asks (the list carries none)
 * and forgotten when hidden.
 */
function PasswordReveal({ username }: { username: string }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState<string | null>(null);
  const read = useMutation({
    mutationFn: () => usersApi.password(username),
    onSuccess: (answer) => setShown(answer.result),
  });
  if (shown !== null) {
    return (
      <Group gap={4} wrap="nowrap">
        <Code data-testid="user-password">{shown}</Code>
        <ActionIcon
          variant="subtle"
          size="sm"
          aria-label={t('extensions.hidePasswordOf', { username })}
          onClick={() => setShown(null)}
        >
          <IconEyeOff size={14} />
        </ActionIcon>
      </Group>
    );
  }
  return (
    <Group gap={4} wrap="nowrap">
      <CredentialButton
        variant="subtle"
        size="compact-xs"
        leftSection={<IconEye size={14} />}
        loading={read.isPending}
        aria-label={t('extensions.showPasswordOf', { username })}
        onClick={() => read.mutate()}
      >
        {t('extensions.showPassword')}
      </CredentialButton>
      {read.isError && (
        <Text size="xs" c="red">
          {t('extensions.passwordUnavailable')}
        </Text>
      )}
    </Group>
  );
}

/** A user with their main extension: add one, or change it. */
export function ExtensionRow({
  user,
  licenceExhausted,
  onChanged,
}: {
  user: User;
  /** No configurable extensions left: adding is disabled (changing a number still works). */
  licenceExhausted: boolean;
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const configured = user.default_extension !== NO_EXTENSION;
  const [editing, setEditing] = useState(!configured);
  const [value, setValue] = useState(configured ? user.default_extension : '');
  const [problem, setProblem] = useState<string | null>(null);
  const [following, setFollowing] = useState(false);

  const save = useMutation({
    mutationFn: (extension: string) => usersApi.setMainExtension({ username: user.username, extension }),
    onSuccess: () => {
      setProblem(null);
      setEditing(false);
      onChanged();
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 422) setProblem(t('extensions.inUse'));
      else if (error instanceof ApiError && error.status === 403) setProblem(t('extensions.licence'));
      else setProblem(error.message);
      onChanged();
    },
  });

  const trimmed = value.trim();
  const malformed = trimmed !== '' && !EXTENSION_PATTERN.test(trimmed);
  const submit = () => {
    if (!trimmed || malformed) return;
    save.mutate(trimmed);
  };
  const addDisabled = !configured && licenceExhausted;

  return (
    <Paper withBorder p="sm" radius="md" data-testid={`user-${user.username}`}>
      <Group justify="space-between" wrap="nowrap" align="start">
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Text fw={600} truncate>
            {user.displayname}
          </Text>
          <Group gap={6}>
            <Text size="sm" c="dimmed">
              {user.username}
            </Text>
            {configured ? (
              <Badge size="sm" variant="light" color="teal">
                {t('extensions.configured')}
              </Badge>
            ) : (
              <Badge size="sm" variant="light" color="gray">
                {t('extensions.unconfigured')}
              </Badge>
            )}
            {user.has_password && <PasswordReveal username={user.username} />}
          </Group>
        </Stack>
        {editing ? (
          <Group gap="xs" align="start" wrap="nowrap">
            <TextInput
              aria-label={t('extensions.extensionOf', { name: user.displayname })}
              placeholder={t('extensions.extension')}
              value={value}
              w={130}
              inputMode="numeric"
              error={malformed ? t('extensions.malformed') : problem}
              onChange={(e) => {
                setValue(e.currentTarget.value);
                setProblem(null);
              }}
              onKeyDown={(e) => {
                if (e.key === 'Enter') submit();
              }}
            />
            <Tooltip label={t('extensions.licenceTooltip')} disabled={!addDisabled}>
              <WriteButton
                loading={save.isPending}
                disabled={!trimmed || malformed || addDisabled}
                onClick={submit}
                leftSection={<IconCheck size={16} />}
              >
                {configured ? t('extensions.save') : t('extensions.add')}
              </WriteButton>
            </Tooltip>
            {configured && (
              <ActionIcon
                variant="subtle"
                size="lg"
                aria-label={t('extensions.cancel')}
                onClick={() => {
                  setEditing(false);
                  setValue(user.default_extension);
                  setProblem(null);
                }}
              >
                <IconX size={16} />
              </ActionIcon>
            )}
          </Group>
        ) : (
          <Group gap="xs">
            <Text fw={700} size="lg" data-testid="main-extension">
              {user.default_extension}
            </Text>
            <WriteButton variant="default" leftSection={<IconPencil size={16} />} onClick={() => setEditing(true)}>
              {t('extensions.modify')}
            </WriteButton>
            <Button
              variant="default"
              leftSection={<IconRoute size={16} />}
              aria-label={t('followMe.openFor', { name: user.displayname })}
              onClick={() => setFollowing(true)}
            >
              {t('followMe.open')}
            </Button>
          </Group>
        )}
      </Group>
      {following && (
        <FollowMeModal
          username={user.username}
          extension={user.default_extension}
          onClose={() => setFollowing(false)}
        />
      )}
    </Paper>
  );
}
