import { LIST_PAGE_SIZE, LIST_SCROLL_INCREMENT } from '@centralino/contract';
import { Center, Loader, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ShowMore } from '../../components/listParts.tsx';
import { phonebookApi } from './phonebookApi.ts';

/**
 * The central phonebook as the phones see it (the PBX users and what the sources' last syncs brought), searched
 * on the server and paged as the list scrolls: an installer checks what a sync brought in.
 */
export function ContactsList() {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const [search] = useDebouncedValue(query.trim(), 250);
  const list = useInfiniteQuery({
    // Under the sources' key: a sync or a deleted source (which reload ['phonebook']) reloads the list too.
    queryKey: ['phonebook', 'contacts', search],
    initialPageParam: 0,
    queryFn: ({ pageParam }) =>
      phonebookApi.contacts({
        search: search || undefined,
        offset: pageParam,
        limit: pageParam === 0 ? LIST_PAGE_SIZE : LIST_SCROLL_INCREMENT,
      }),
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.items.length, 0);
      return loaded < last.total ? loaded : undefined;
    },
    placeholderData: (previous) => previous,
  });
  const pages = list.data?.pages ?? [];
  const contacts = pages.flatMap((p) => p.items);
  const total = pages.at(-1)?.total ?? 0;
  const numbers = (c: (typeof contacts)[number]) =>
    [c.workphone, c.cellphone, c.homephone].filter((n): n is string => Boolean(n)).join(', ');
  return (
    <Stack gap="sm" component="section" aria-labelledby="phonebook-contacts-title">
      <Title order={2} size="h3" id="phonebook-contacts-title">
        {t('phonebook.contacts.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('phonebook.contacts.intro')}
      </Text>
      <TextInput
        label={t('phonebook.contacts.search')}
        placeholder={t('phonebook.contacts.searchPlaceholder')}
        leftSection={<IconSearch size={16} />}
        value={query}
        onChange={(e) => setQuery(e.currentTarget.value)}
        maw={420}
      />
      <Text size="xs" c="dimmed" data-testid="contacts-count" role="status">
        {t('phonebook.contacts.count', { shown: contacts.length, count: total })}
      </Text>
      {list.isPending ? (
        <Center>
          <Loader size="sm" aria-label={t('app.loading')} />
        </Center>
      ) : list.isError ? (
        <Text c="var(--mantine-color-error)">{list.error.message}</Text>
      ) : contacts.length === 0 ? (
        <Text c="dimmed">{search ? t('phonebook.contacts.noMatch') : t('phonebook.contacts.empty')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table verticalSpacing="xs" aria-labelledby="phonebook-contacts-title" data-testid="phonebook-contacts">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('phonebook.fields.name')}</Table.Th>
                <Table.Th>{t('phonebook.fields.company')}</Table.Th>
                <Table.Th>{t('phonebook.contacts.numbers')}</Table.Th>
                <Table.Th>{t('phonebook.fields.workemail')}</Table.Th>
                <Table.Th>{t('phonebook.contacts.source')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {contacts.map((c) => (
                <Table.Tr key={c.id}>
                  <Table.Td>{c.name}</Table.Td>
                  <Table.Td>{c.company}</Table.Td>
                  <Table.Td>{numbers(c)}</Table.Td>
                  <Table.Td>{c.workemail}</Table.Td>
                  <Table.Td>{c.type === 'extension' ? t('phonebook.contacts.pbxUsers') : c.type}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {list.hasNextPage && <ShowMore loading={list.isFetchingNextPage} onMore={() => void list.fetchNextPage()} />}
    </Stack>
  );
}
