import { type BulkPhone, type BulkPhoneFilter, LIST_PAGE_SIZE, LIST_SCROLL_INCREMENT } from '@centralino/contract';
import {
  Badge,
  Button,
  Center,
  Checkbox,
  Group,
  Loader,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDeviceDesktopCog, IconRefresh } from '@tabler/icons-react';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { ShowMore } from '../../components/listParts.tsx';
import { reported } from '../../components/notify.ts';
import { WriteButton } from '../../components/WriteControls.tsx';
import { bulkPhonesApi } from './bulkPhonesApi.ts';
import { ReconfigureModal } from './ReconfigureModal.tsx';
import { SetModelModal } from './SetModelModal.tsx';
import { isSelected, NONE, type Selection, summarize, toggle, toRequest } from './selection.ts';

function PhoneRow({
  phone,
  selected,
  onToggle,
}: {
  phone: BulkPhone;
  selected: boolean;
  onToggle: (on: boolean) => void;
}) {
  const { t } = useTranslation();
  return (
    <Table.Tr data-testid={`bulk-phone-${phone.mac}`}>
      <Table.Td>
        <Checkbox
          aria-label={t('bulkPhones.selectPhone', { mac: phone.mac })}
          checked={selected}
          onChange={(e) => onToggle(e.currentTarget.checked)}
        />
      </Table.Td>
      <Table.Td ff="monospace">{phone.mac}</Table.Td>
      <Table.Td>{phone.vendor ?? t('bulkPhones.unknownVendor')}</Table.Td>
      <Table.Td>{phone.modelName ?? t('bulkPhones.noModel')}</Table.Td>
      <Table.Td>
        {phone.user ? (
          <>
            {phone.user.name}
            {phone.extension && (
              <Text span c="dimmed" size="sm">
                {' '}
                ({phone.extension})
              </Text>
            )}
          </>
        ) : (
          <Text span c="dimmed" size="sm">
            {t('bulkPhones.noUser')}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Badge variant="light" color={phone.registered ? 'teal' : 'gray'}>
          {phone.registered ? t('bulkPhones.registered') : t('bulkPhones.notRegistered')}
        </Badge>
      </Table.Td>
    </Table.Tr>
  );
}

/**
 * Bulk phones (/apps/bulkdevices, /bulkdevices): the inventory's phones filtered by CTI group, model and a
 * search, paged on the server; a selection (one by one, or all of the filter) gets a model or is reconfigured.
 */
export function BulkPhonesPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [query, setQuery] = useState('');
  const [search] = useDebouncedValue(query.trim(), 250);
  const [group, setGroup] = useState<string | null>(null);
  const [model, setModel] = useState<string | null>(null);
  const [selection, setSelection] = useState<Selection>(NONE);
  const [dialog, setDialog] = useState<'model' | 'reconfigure' | null>(null);
  const hintIds = useId();

  const filter = useMemo<BulkPhoneFilter>(
    () => ({ group: group ? Number(group) : undefined, model: model ?? undefined, search: search || undefined }),
    [group, model, search],
  );
  const filtered = filter.group !== undefined || filter.model !== undefined || filter.search !== undefined;
  // "All" means all of the filter it was chosen on: a new filter starts a new choice.
  const filterKey = JSON.stringify(filter);
  const [selectionFilterKey, setSelectionFilterKey] = useState(filterKey);
  if (selectionFilterKey !== filterKey) {
    setSelectionFilterKey(filterKey);
    if (selection.kind === 'all') setSelection(NONE);
  }

  const groups = useQuery({
    queryKey: ['cti-groups'],
    queryFn: reported(t('bulkPhones.errors.groups'), bulkPhonesApi.groups),
  });
  const usedModels = useQuery({
    queryKey: ['phone-models', 'used'],
    queryFn: reported(t('bulkPhones.errors.models'), () => bulkPhonesApi.models(true)),
  });
  const list = useInfiniteQuery({
    queryKey: ['bulk-phones', filter],
    initialPageParam: 0,
    queryFn: ({ pageParam }) =>
      reported(t('bulkPhones.errors.phones'), () =>
        bulkPhonesApi.page({
          ...filter,
          offset: pageParam,
          limit: pageParam === 0 ? LIST_PAGE_SIZE : LIST_SCROLL_INCREMENT,
        }),
      )(),
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.items.length, 0);
      return loaded < last.total ? loaded : undefined;
    },
    placeholderData: (previous) => previous,
    retry: false,
  });

  const pages = list.data?.pages ?? [];
  const phones = pages.flatMap((p) => p.items);
  const facets = pages.at(-1);
  const summary = summarize(selection, facets);
  const [vendor] = summary.vendors;
  const oneVendor = summary.vendors.length === 1 && vendor !== '';
  const reload = () => {
    void queryClient.invalidateQueries({ queryKey: ['bulk-phones'] });
    void queryClient.invalidateQueries({ queryKey: ['phone-models'] });
  };

  if (!list.isPlaceholderData && facets && !filtered && facets.total === 0) {
    return <Navigate to="/devices/inventory" replace />;
  }

  // Why each action is greyed out, under the buttons and read with each (aria-describedby); null when it is not.
  const setModelWhy =
    summary.count === 0 ? t('bulkPhones.selectFirst') : !oneVendor ? t('bulkPhones.setModel.mixedVendors') : null;
  const reconfigureWhy =
    summary.count === 0
      ? t('bulkPhones.selectFirst')
      : summary.registered === 0
        ? t('bulkPhones.reconfigure.needsRegistered')
        : null;
  const hints = [...new Set([setModelWhy, reconfigureWhy].filter((why): why is string => why !== null))];
  const hintId = (why: string | null) => (why === null ? undefined : `${hintIds}-${hints.indexOf(why)}`);

  return (
    <Stack gap="md" data-testid="bulk-phones">
      <Title order={1} size="h2">
        {t('bulkPhones.title')}
      </Title>
      <Text c="dimmed">{t('bulkPhones.intro')}</Text>
      <Group gap="sm" align="end">
        <Select
          label={t('bulkPhones.filters.group')}
          placeholder={t('bulkPhones.filters.allGroups')}
          data={(groups.data ?? []).map((g) => ({ value: String(g.id), label: g.name }))}
          value={group}
          onChange={setGroup}
          clearable
          searchable
          w={220}
        />
        <Select
          label={t('bulkPhones.filters.model')}
          placeholder={t('bulkPhones.filters.allModels')}
          data={(usedModels.data ?? []).map((m) => ({ value: m.name, label: m.display_name || m.name }))}
          value={model}
          onChange={setModel}
          clearable
          searchable
          w={240}
        />
        <TextInput
          label={t('bulkPhones.filters.search')}
          placeholder={t('bulkPhones.filters.searchPlaceholder')}
          value={query}
          onChange={(e) => setQuery(e.currentTarget.value)}
          style={{ flex: 1, minWidth: 200 }}
        />
      </Group>
      <Group gap="sm">
        <Button
          variant="default"
          disabled={!facets || facets.total === 0}
          onClick={() => setSelection({ kind: 'all', filter, except: new Map() })}
        >
          {t('bulkPhones.selectAll', { count: facets?.total ?? 0 })}
        </Button>
        <Button variant="default" disabled={selection.kind === 'none'} onClick={() => setSelection(NONE)}>
          {t('bulkPhones.selectNone')}
        </Button>
        <Text size="sm" data-testid="bulk-selected" role="status">
          {t('bulkPhones.selected', { count: summary.count })}
        </Text>
        <WriteButton
          leftSection={<IconDeviceDesktopCog size={16} />}
          disabled={setModelWhy !== null}
          aria-describedby={hintId(setModelWhy)}
          onClick={() => setDialog('model')}
        >
          {t('bulkPhones.setModel.button')}
        </WriteButton>
        <WriteButton
          leftSection={<IconRefresh size={16} />}
          disabled={reconfigureWhy !== null}
          aria-describedby={hintId(reconfigureWhy)}
          onClick={() => setDialog('reconfigure')}
        >
          {t('bulkPhones.reconfigure.button')}
        </WriteButton>
      </Group>
      {hints.length > 0 && (
        <Stack gap={2} data-testid="bulk-hint">
          {hints.map((why) => (
            <Text key={why} size="sm" c="dimmed" id={hintId(why)}>
              {why}
            </Text>
          ))}
        </Stack>
      )}
      <Text size="xs" c="dimmed" data-testid="list-count">
        {t('bulkPhones.count', { shown: phones.length, count: facets?.total ?? 0 })}
      </Text>
      {list.isPending ? (
        <Center>
          <Loader size="sm" aria-label={t('app.loading')} />
        </Center>
      ) : list.isError ? (
        <Text c="red">{t('bulkPhones.errors.phones')}</Text>
      ) : phones.length === 0 ? (
        <Text c="dimmed">{t('bulkPhones.noResults')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table verticalSpacing="xs" aria-label={t('bulkPhones.listLabel')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>
                  <VisuallyHidden>{t('bulkPhones.columns.selected')}</VisuallyHidden>
                </Table.Th>
                <Table.Th>{t('bulkPhones.columns.mac')}</Table.Th>
                <Table.Th>{t('bulkPhones.columns.vendor')}</Table.Th>
                <Table.Th>{t('bulkPhones.columns.model')}</Table.Th>
                <Table.Th>{t('bulkPhones.columns.user')}</Table.Th>
                <Table.Th>{t('bulkPhones.columns.status')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {phones.map((phone) => (
                <PhoneRow
                  key={phone.mac}
                  phone={phone}
                  selected={isSelected(selection, phone.mac)}
                  onToggle={(on) => setSelection((current) => toggle(current, phone, on))}
                />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {list.hasNextPage && <ShowMore loading={list.isFetchingNextPage} onMore={() => void list.fetchNextPage()} />}
      {dialog === 'model' && oneVendor && vendor && (
        <SetModelModal
          selection={toRequest(selection)}
          vendor={vendor}
          count={summary.count}
          onClose={() => setDialog(null)}
          onDone={() => {
            setDialog(null);
            reload();
          }}
        />
      )}
      {dialog === 'reconfigure' && (
        <ReconfigureModal
          selection={toRequest(selection)}
          count={summary.count}
          onClose={() => {
            setDialog(null);
            reload();
          }}
        />
      )}
    </Stack>
  );
}
