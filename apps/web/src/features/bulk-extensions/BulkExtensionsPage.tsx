import { EXTENSION_PATTERN, type User } from '@centralino/contract';
import {
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  NumberInput,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconEdit } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { notifyError, reported } from '../../components/notify.ts';
import { PagedList } from '../../components/PagedList.tsx';
import { WriteButton, WriteFieldset } from '../../components/WriteControls.tsx';
import { ctiApi } from '../cti/ctiApi.ts';
import { usersApi } from '../users/usersApi.ts';
import { BulkEditModal } from './BulkEditModal.tsx';
import { bulkApi } from './bulkApi.ts';

/** Search-result selection needs this many characters (spec §5). */
const SEARCH_SELECT_MIN = 2;

/** A user without a main extension: the input to give them one, as on the users screen. */
function AddMainExtension({ user, onAdded }: { user: User; onAdded: () => void }) {
  const { t } = useTranslation();
  const [value, setValue] = useState('');
  const add = useMutation({
    mutationFn: () => usersApi.setMainExtension({ username: user.username, extension: value.trim() }),
    onSuccess: () => {
      setValue('');
      onAdded();
    },
  });
  const malformed = value.trim() !== '' && !EXTENSION_PATTERN.test(value.trim());
  const error = malformed
    ? t('extensions.malformed')
    : add.error instanceof ApiError && add.error.code === 'extension_in_use'
      ? t('extensions.inUse')
      : add.error
        ? add.error.message
        : undefined;
  return (
    <Group gap="xs" align="flex-start" wrap="nowrap">
      <WriteFieldset>
        <TextInput
          size="xs"
          w={150}
          placeholder={t('extensions.extension')}
          aria-label={t('extensions.extensionOf', { name: user.displayname })}
          value={value}
          onChange={(e) => setValue(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && value.trim() && !malformed) add.mutate();
          }}
          error={error}
        />
      </WriteFieldset>
      <WriteButton size="xs" disabled={!value.trim() || malformed} loading={add.isPending} onClick={() => add.mutate()}>
        {t('extensions.add')}
        <VisuallyHidden> {user.displayname}</VisuallyHidden>
      </WriteButton>
    </Group>
  );
}

/**
 * Bulk extensions (/apps/bulkextensions): pick users (all, none, a CTI group, an interval of numbers or the
 * search results), then edit their call settings at once.
 */
export function BulkExtensionsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [group, setGroup] = useState<string | null>(null);
  const [from, setFrom] = useState<number | string>('');
  const [to, setTo] = useState<number | string>('');
  const [search, setSearch] = useState({ text: '', total: 0 });
  const [editing, setEditing] = useState(false);
  const groups = useQuery({
    queryKey: ['cti', 'groups'],
    queryFn: reported(t('bulkExt.errors.groups'), ctiApi.groups),
  });
  const onTotal = useCallback((total: number, text: string) => setSearch({ text, total }), []);

  const pick = useMutation({
    mutationFn: bulkApi.select,
    onSuccess: (extensions) => setSelected(new Set(extensions)),
    onError: (error) => notifyError(t('bulkExt.errors.retrieving'), error),
  });
  const toggle = (extension: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(extension);
      else next.delete(extension);
      return next;
    });
  const intervalInvalid = (typeof from === 'number' && from < 0) || (typeof to === 'number' && to < 0);
  const canSelectSearch = search.text.length >= SEARCH_SELECT_MIN && search.total > 0;

  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        {t('bulkExt.title')}
      </Title>
      <Paper withBorder p="sm" radius="md">
        <Stack gap="sm">
          <Title order={2} size="h4">
            {t('bulkExt.select.title')}
          </Title>
          <Group gap="xs">
            <Button variant="default" onClick={() => pick.mutate({})} loading={pick.isPending}>
              {t('bulkExt.select.all')}
            </Button>
            <Button variant="default" onClick={() => setSelected(new Set())}>
              {t('bulkExt.select.none')}
            </Button>
            {canSelectSearch && (
              <Button variant="default" onClick={() => pick.mutate({ search: search.text })}>
                {t('bulkExt.select.search', { count: search.total, text: search.text })}
              </Button>
            )}
          </Group>
          <Group gap="xs" align="flex-end">
            <Select
              label={t('bulkExt.select.group')}
              placeholder={t('bulkExt.select.groupPlaceholder')}
              data={(groups.data ?? []).map((g) => ({ value: String(g.id), label: g.name }))}
              value={group}
              onChange={setGroup}
              error={groups.isError ? t('bulkExt.errors.groups') : undefined}
              w={220}
            />
            <Button variant="default" disabled={group === null} onClick={() => pick.mutate({ group: Number(group) })}>
              {t('bulkExt.select.byGroup')}
            </Button>
          </Group>
          <Group gap="xs" align="flex-end">
            <NumberInput
              label={t('bulkExt.select.from')}
              min={0}
              allowNegative={false}
              value={from}
              onChange={setFrom}
              w={130}
            />
            <NumberInput
              label={t('bulkExt.select.to')}
              min={0}
              allowNegative={false}
              value={to}
              onChange={setTo}
              w={130}
            />
            <Button
              variant="default"
              disabled={(from === '' && to === '') || intervalInvalid}
              onClick={() =>
                pick.mutate({
                  from: typeof from === 'number' ? from : undefined,
                  to: typeof to === 'number' ? to : undefined,
                })
              }
            >
              {t('bulkExt.select.byInterval')}
            </Button>
          </Group>
          <Group justify="space-between">
            <Text role="status" fw={600}>
              {t('bulkExt.selected', { count: selected.size })}
            </Text>
            <WriteButton
              leftSection={<IconEdit size={16} />}
              disabled={selected.size === 0}
              onClick={() => setEditing(true)}
            >
              {t('bulkExt.edit')}
            </WriteButton>
          </Group>
        </Stack>
      </Paper>
      <PagedList<User>
        queryKey={['users', 'bulk']}
        label={t('bulkExt.listLabel')}
        onTotal={onTotal}
        errorText={t('bulkExt.errors.users')}
        fetchPage={(request) =>
          reported(t('bulkExt.errors.users'), async () => {
            const { users, total } = await usersApi.page({
              search: request.search || undefined,
              sort: 'extension',
              offset: request.offset,
              limit: request.limit,
            });
            return { items: users, total };
          })()
        }
        getKey={(u) => u.username}
        renderItem={(user) => {
          const ext = user.default_extension;
          const configured = ext !== 'none';
          return (
            <Card withBorder radius="md" p="xs">
              <Group justify="space-between" wrap="nowrap">
                {configured ? (
                  <Checkbox
                    checked={selected.has(ext)}
                    onChange={(e) => toggle(ext, e.currentTarget.checked)}
                    label={
                      <Group gap="xs">
                        <Text fw={600}>{ext}</Text>
                        <Text>{user.displayname}</Text>
                        <Text size="sm" c="dimmed">
                          {user.username}
                        </Text>
                      </Group>
                    }
                  />
                ) : (
                  <Group gap="xs">
                    <Text>{user.displayname}</Text>
                    <Text size="sm" c="dimmed">
                      {user.username}
                    </Text>
                  </Group>
                )}
                {configured ? (
                  <Group gap={4}>
                    {user.devices.map((d) => (
                      <Badge key={d.id} variant="light" color={d.registered ? 'green' : 'gray'}>
                        {d.extension}
                      </Badge>
                    ))}
                  </Group>
                ) : (
                  <AddMainExtension
                    user={user}
                    onAdded={() => void queryClient.invalidateQueries({ queryKey: ['users'] })}
                  />
                )}
              </Group>
            </Card>
          );
        }}
      />
      {editing && (
        <BulkEditModal
          extensions={[...selected]}
          onClose={() => setEditing(false)}
          onApplied={() => void queryClient.invalidateQueries({ queryKey: ['users'] })}
        />
      )}
    </Stack>
  );
}
