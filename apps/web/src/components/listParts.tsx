import { Button, Group, Select, Text, TextInput } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

export interface ListOption {
  value: string;
  label: string;
}

/** Filter or sort chooser; hidden when the screen offers no choices. */
export function OptionSelect({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: ListOption[] | undefined;
  value: string | null;
  onChange: (value: string | null) => void;
}) {
  if (!options || options.length === 0) return null;
  return (
    <Select
      label={label}
      data={options.map(({ value: v, label: l }) => ({ value: v, label: l }))}
      value={value}
      onChange={onChange}
      allowDeselect={false}
      w={200}
    />
  );
}

/** Search box, filter and sort choosers, and the "N of M" count above every list. */
export function ListToolbar({
  query,
  onQuery,
  filters,
  filter,
  onFilter,
  sorts,
  sort,
  onSort,
  shown,
  total,
}: {
  query: string;
  onQuery: (query: string) => void;
  filters: ListOption[] | undefined;
  filter: string | null;
  onFilter: (value: string | null) => void;
  sorts: ListOption[] | undefined;
  sort: string | null;
  onSort: (value: string | null) => void;
  shown: number;
  total: number;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Group gap="sm" align="end">
        <TextInput
          label={t('list.search')}
          placeholder={t('list.search')}
          value={query}
          onChange={(e) => onQuery(e.currentTarget.value)}
          style={{ flex: 1, minWidth: 200 }}
        />
        <OptionSelect label={t('list.filter')} options={filters} value={filter} onChange={onFilter} />
        <OptionSelect label={t('list.sort')} options={sorts} value={sort} onChange={onSort} />
      </Group>
      <Text size="xs" c="dimmed" data-testid="list-count">
        {t('list.count', { shown, total })}
      </Text>
    </>
  );
}

/** "Show more" at the end of a list; scrolling it into view asks for more by itself. */
export function ShowMore({ loading, onMore }: { loading?: boolean; onMore: () => void }) {
  const { t } = useTranslation();
  const sentinel = useRef<HTMLDivElement>(null);
  const more = useRef(onMore);
  more.current = onMore;
  const busy = useRef(loading);
  busy.current = loading;
  useEffect(() => {
    const node = sentinel.current;
    if (!node || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && !busy.current) more.current();
    });
    observer.observe(node);
    return () => observer.disconnect();
  }, []);
  // The end came into view while a page was loading (a fast scroll, a screen taller than the page): the observer
  // does not call again while it stays in view, so once the page has come, the end is looked at where it now is.
  const wasLoading = useRef(false);
  useEffect(() => {
    const finished = wasLoading.current && !loading;
    wasLoading.current = Boolean(loading);
    const node = sentinel.current;
    if (!finished || !node) return;
    const { top, bottom } = node.getBoundingClientRect();
    if (bottom > 0 && top < window.innerHeight) more.current();
  }, [loading]);
  return (
    <div ref={sentinel}>
      <Button variant="subtle" loading={loading} onClick={onMore}>
        {t('list.showMore')}
      </Button>
    </div>
  );
}
