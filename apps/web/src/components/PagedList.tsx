import { LIST_PAGE_SIZE, LIST_SCROLL_INCREMENT } from '@centralino/contract';
import { Center, Loader, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useInfiniteQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ListOption, ListToolbar, ShowMore } from './listParts.tsx';

export interface PageRequest {
  search: string;
  filter: string | undefined;
  sort: string | undefined;
  offset: number;
  limit: number;
}

export interface PagedListProps<T> {
  /** Identifies the list in the query cache; invalidate it to reload every loaded page. */
  queryKey: readonly unknown[];
  /** `next`: the server's offset after the page, when fewer items are kept than it sent (default: those loaded). */
  fetchPage: (request: PageRequest) => Promise<{ items: T[]; total: number; next?: number }>;
  getKey: (item: T) => string;
  renderItem: (item: T) => ReactNode;
  filters?: ListOption[];
  sorts?: ListOption[];
  emptyText?: string;
  label?: string;
  /** Shown instead of the server's words when the list cannot be read (the spec's message for the screen). */
  errorText?: string;
  /** Told the total of the current search and filter whenever it is known. */
  onTotal?: (total: number, search: string) => void;
}

/**
 * The list pattern for lists that live on the server (10,000 users): search, filter and sort run
 * on the server, 20 rows come first and 20 more each time the end of the list scrolls into view.
 */
export function PagedList<T>({
  queryKey,
  fetchPage,
  getKey,
  renderItem,
  filters,
  sorts,
  emptyText,
  label,
  errorText,
  onTotal,
}: PagedListProps<T>) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const [search] = useDebouncedValue(query.trim(), 250);
  const [filter, setFilter] = useState<string | null>(filters?.[0]?.value ?? null);
  const [sort, setSort] = useState<string | null>(sorts?.[0]?.value ?? null);

  const list = useInfiniteQuery({
    queryKey: [...queryKey, { search, filter, sort }],
    initialPageParam: 0,
    queryFn: ({ pageParam }) =>
      fetchPage({
        search,
        filter: filter ?? undefined,
        sort: sort ?? undefined,
        offset: pageParam,
        limit: pageParam === 0 ? LIST_PAGE_SIZE : LIST_SCROLL_INCREMENT,
      }),
    getNextPageParam: (last, pages) => {
      const loaded = last.next ?? pages.reduce((n, p) => n + p.items.length, 0);
      return loaded < last.total ? loaded : undefined;
    },
    placeholderData: (previous) => previous,
  });

  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  const total = list.data?.pages.at(-1)?.total ?? 0;
  useEffect(() => {
    if (list.data) onTotal?.(total, search);
  }, [list.data, total, search, onTotal]);

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;

  return (
    <Stack gap="sm" aria-label={label}>
      <ListToolbar
        query={query}
        onQuery={setQuery}
        filters={filters}
        filter={filter}
        onFilter={setFilter}
        sorts={sorts}
        sort={sort}
        onSort={setSort}
        shown={items.length}
        total={total}
      />
      {list.isPending ? (
        <Center>
          <Loader size="sm" aria-label={t('app.loading')} />
        </Center>
      ) : list.isError ? (
        <Text c="red">{errorText ?? list.error.message}</Text>
      ) : items.length === 0 ? (
        <Text c="dimmed">{emptyText ?? t('list.noResults')}</Text>
      ) : (
        <Stack component="ul" gap="xs" m={0} p={0} style={{ listStyle: 'none' }}>
          {items.map((item) => (
            <li key={getKey(item)}>{renderItem(item)}</li>
          ))}
        </Stack>
      )}
      {hasNextPage && <ShowMore loading={isFetchingNextPage} onMore={() => void fetchNextPage()} />}
    </Stack>
  );
}
