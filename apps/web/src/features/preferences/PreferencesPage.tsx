import type { User, UserListFilter, UserListSort } from '@centralino/contract';
import { Badge, Card, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { PagedList } from '../../components/PagedList.tsx';
import { usersApi } from '../users/usersApi.ts';
import { StepScreen } from '../wizard/StepScreen.tsx';
import { UserConfig } from './UserConfig.tsx';

/** Per-user configuration (both provisioning modes): profile, groups, mobile, voicemail and devices. */
export function PreferencesPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState<string | null>(null);
  const reload = useCallback(() => void queryClient.invalidateQueries({ queryKey: ['users'] }), [queryClient]);

  const body = (
    <PagedList<User>
      queryKey={['users', 'preferences']}
      label={t('preferences.title')}
      fetchPage={async (request) => {
        const query = {
          search: request.search || undefined,
          sort: request.sort as UserListSort | undefined,
          offset: request.offset,
          limit: request.limit,
        };
        // The configured users are the ones a phone is linked to here: listed through the choosers' filter.
        if (request.filter === 'configured') {
          const { users, total, next } = await usersApi.configured(query);
          return { items: users, total, next };
        }
        const { users, total } = await usersApi.page({
          ...query,
          filter: request.filter as UserListFilter | undefined,
        });
        return { items: users, total };
      }}
      filters={[
        { value: 'configured', label: t('extensions.filters.configured') },
        { value: 'unconfigured', label: t('extensions.filters.unconfigured') },
        { value: 'all', label: t('extensions.filters.all') },
      ]}
      sorts={[
        { value: 'extension', label: t('extensions.sorts.extension') },
        { value: 'username', label: t('extensions.sorts.username') },
      ]}
      getKey={(u) => u.username}
      renderItem={(user) => {
        const expanded = open === user.username;
        return (
          <Card withBorder radius="md" p="sm">
            <UnstyledButton w="100%" onClick={() => setOpen(expanded ? null : user.username)} aria-expanded={expanded}>
              <Group justify="space-between">
                <Group gap="xs">
                  {expanded ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
                  <Text fw={600}>{user.displayname}</Text>
                  <Text size="sm" c="dimmed">
                    {user.username}
                  </Text>
                </Group>
                <Group gap="xs">
                  <Badge variant="light">{t('preferences.deviceCount', { count: user.devices.length })}</Badge>
                  <Text fw={700}>{user.default_extension === 'none' ? '—' : user.default_extension}</Text>
                </Group>
              </Group>
            </UnstyledButton>
            {expanded && (
              <Stack mt="md">
                <UserConfig user={user} onChanged={reload} />
              </Stack>
            )}
          </Card>
        );
      }}
    />
  );
  return (
    <StepScreen path={pathname} title={t('preferences.title')}>
      {body}
    </StepScreen>
  );
}
