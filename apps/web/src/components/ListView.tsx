import { LIST_PAGE_SIZE, LIST_SCROLL_INCREMENT } from '@centralino/contract';
import { Stack, Text } from '@mantine/core';
import { type ReactNode, useDeferredValue, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ListOption, ListToolbar, ShowMore } from './listParts.tsx';

export type { ListOption };

export interface ListFilter<T> extends ListOption {
  test: (item: T) => boolean;
}
export interface ListSort<T> extends ListOption {
  compare: (a: T, b: T) => number;
}

export interface ListViewProps<T> {
  items: readonly T[];
  getKey: (item: T) => string;
  renderItem: (item: T) => ReactNode;
  /** Text the search box matches against (case-insensitive). */
  searchText: (item: T) => string;
  filters?: ListFilter<T>[];
  sorts?: ListSort<T>[];
  emptyText?: string;
  label?: string;
}

/**
 * The list pattern of every screen: search, optional filter and sort, 20 rows at first and 20 more
 * each time the end of the list scrolls into view (or "Show more" is pressed).
 */
export function ListView<T>({
  items,
  getKey,
  renderItem,
  searchText,
  filters,
  sorts,
  emptyText,
  label,
}: ListViewProps<T>) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const deferredQuery = useDeferredValue(query);
  const [filter, setFilter] = useState<string | null>(filters?.[0]?.value ?? null);
  const [sort, setSort] = useState<string | null>(sorts?.[0]?.value ?? null);
  const [limit, setLimit] = useState(LIST_PAGE_SIZE);

  const visible = useMemo(() => {
    const needle = deferredQuery.trim().toLowerCase();
    const activeFilter = filters?.find((f) => f.value === filter);
    const activeSort = sorts?.find((s) => s.value === sort);
    const matched = items.filter(
      (item) =>
        (!activeFilter || activeFilter.test(item)) && (!needle || searchText(item).toLowerCase().includes(needle)),
    );
    return activeSort ? matched.sort(activeSort.compare) : matched;
  }, [items, deferredQuery, filter, sort, filters, sorts, searchText]);

  // A new search, filter or sort starts again from the first page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the reset is triggered by these inputs on purpose
  useEffect(() => setLimit(LIST_PAGE_SIZE), [deferredQuery, filter, sort]);

  const hasMore = visible.length > limit;

  const shown = visible.slice(0, limit);
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
        shown={shown.length}
        total={visible.length}
      />
      {shown.length === 0 ? (
        <Text c="dimmed">{emptyText ?? t('list.noResults')}</Text>
      ) : (
        <Stack component="ul" gap="xs" m={0} p={0} style={{ listStyle: 'none' }}>
          {shown.map((item) => (
            <li key={getKey(item)}>{renderItem(item)}</li>
          ))}
        </Stack>
      )}
      {hasMore && <ShowMore onMore={() => setLimit((n) => n + LIST_SCROLL_INCREMENT)} />}
    </Stack>
  );
}
