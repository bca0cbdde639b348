import { Button, Center, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { IconPencil, IconPlus } from '@tabler/icons-react';
import { type QueryKey, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCanWrite } from '../../app/auth.tsx';
import { DeleteButton } from '../../components/DeleteButton.tsx';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { WriteButton } from '../../components/WriteControls.tsx';
import { destinationOptions } from './DestinationSelect.tsx';
import { flowsApi } from './flowsApi.ts';

export interface FlowColumn<T> {
  header: string;
  cell: (item: T) => ReactNode;
  /** The object's name: shown in bold. */
  strong?: boolean;
}

/**
 * The screen every call-flow object type shares: title, intro, a create button, a table of the objects with edit
 * and delete (confirmed; a refusal names who uses it), and the type's own modal for creating and editing. After a
 * change the lists named by `invalidates` are read again (the destinations catalogue always is).
 */
export function FlowListPage<T>({
  title,
  intro,
  createLabel,
  empty,
  queryKey,
  load,
  keyOf,
  nameOf,
  columns,
  remove,
  invalidates = [],
  testId,
  rowTestId,
  modal,
  extraActions,
}: {
  title: string;
  intro: string;
  createLabel: string;
  empty: string;
  queryKey: string;
  load: () => Promise<T[]>;
  keyOf: (item: T) => string | number;
  nameOf: (item: T) => string;
  columns: FlowColumn<T>[];
  remove: (item: T) => Promise<unknown>;
  invalidates?: string[];
  testId: string;
  rowTestId: (item: T) => string;
  /** The create (item null) or edit form; `saved` closes it, says so and reloads. */
  modal: (item: T | null, close: () => void, saved: () => void) => ReactNode;
  extraActions?: (item: T) => ReactNode;
}) {
  const { t } = useTranslation();
  // A read-only account sees the list without the New button and with Edit and Delete disabled.
  const canWrite = useCanWrite();
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: [queryKey], queryFn: load });
  const [editing, setEditing] = useState<{ item: T | null } | null>(null);
  const reload = () =>
    Promise.all(
      [queryKey, 'destinations', ...invalidates].map((k) =>
        queryClient.invalidateQueries({ queryKey: [k] as QueryKey }),
      ),
    );
  const removal = useMutation({
    mutationFn: remove,
    onSuccess: (_, item) => {
      notifySuccess(t('flows.deleted', { name: nameOf(item) }));
      void reload();
    },
    onError: (e) => notifyError(t('flows.deleteFailed'), e),
  });
  const close = () => setEditing(null);
  const saved = () => {
    setEditing(null);
    notifySuccess(t('flows.saved'));
    void reload();
  };

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {title}
      </Title>
      <Text c="dimmed">{intro}</Text>
      {canWrite && (
        <Group>
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing({ item: null })}>
            {createLabel}
          </Button>
        </Group>
      )}
      {!list.data ? (
        <Center>
          <Loader aria-label={t('app.loading')} />
        </Center>
      ) : list.data.length === 0 ? (
        <Text c="dimmed">{empty}</Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table data-testid={testId}>
            <Table.Thead>
              <Table.Tr>
                {columns.map((c) => (
                  <Table.Th key={c.header}>{c.header}</Table.Th>
                ))}
                <Table.Th>{t('flows.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.map((item) => (
                <Table.Tr key={keyOf(item)} data-testid={rowTestId(item)}>
                  {columns.map((c) => (
                    <Table.Td key={c.header} fw={c.strong ? 600 : undefined}>
                      {c.cell(item)}
                    </Table.Td>
                  ))}
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      {extraActions?.(item)}
                      <WriteButton
                        variant="default"
                        size="xs"
                        leftSection={<IconPencil size={14} />}
                        onClick={() => setEditing({ item })}
                      >
                        {t('flows.edit')}
                      </WriteButton>
                      <DeleteButton
                        label={t('flows.delete')}
                        title={t('flows.deleteTitle')}
                        message={t('flows.deleteConfirm', { name: nameOf(item) })}
                        onConfirm={() => removal.mutate(item)}
                      />
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {editing && modal(editing.item, close, saved)}
    </Stack>
  );
}

/** A destination as the pickers name it: translated category, then the entry. */
export function useDestinationLabel(): (destination: string) => string {
  const { t } = useTranslation();
  const destinations = useQuery({ queryKey: ['destinations'], queryFn: flowsApi.destinations });
  return (d: string) => {
    for (const group of destinationOptions(destinations.data ?? {}, t)) {
      const item = group.items.find((i) => i.value === d);
      if (item) return `${group.group}: ${item.label}`;
    }
    return d;
  };
}
