import { DAYNIGHT_FEATURE_CODE, type DayNight, dayNightWriteSchema } from '@centralino/contract';
import { Badge, Center, Group, Loader, Select, Stack, Table, Text, Title } from '@mantine/core';
import { IconMoon, IconPencil, IconPlus, IconSun } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DeleteButton } from '../../components/DeleteButton.tsx';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { WriteButton } from '../../components/WriteControls.tsx';
import { DestinationSelect, destinationOptions } from './DestinationSelect.tsx';
import { FlowFormModal, FlowNameInput, useFlowForm } from './FlowFormModal.tsx';
import { flowsApi } from './flowsApi.ts';

const DIGITS = Array.from({ length: 10 }, (_, i) => i);

function DayNightModal({
  current,
  taken,
  onClose,
  onSaved,
}: {
  current: DayNight | null;
  taken: number[];
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const free = DIGITS.filter((d) => d === current?.ext || !taken.includes(d));
  const { form, set, invalid, serverFields, modal, nameInput } = useFlowForm({
    initial: current ?? { ext: free[0] ?? 0, name: '', day_dest: '', night_dest: '' },
    schema: dayNightWriteSchema,
    write: (body) => (current ? flowsApi.updateDayNight(current.ext, body) : flowsApi.createDayNight(body)),
    onSaved,
    onClose,
  });
  return (
    <FlowFormModal title={current ? t('flows.daynight.editTitle') : t('flows.daynight.create')} {...modal}>
      <FlowNameInput {...nameInput('name')} />
      <Select
        label={t('flows.daynight.code')}
        description={t('flows.daynight.codeHelp')}
        data={free.map((d) => ({ value: String(d), label: `${DAYNIGHT_FEATURE_CODE}${d}` }))}
        value={String(form.ext)}
        onChange={(v) => v !== null && set({ ext: Number(v) })}
        disabled={current !== null}
        allowDeselect={false}
        error={serverFields.ext}
        comboboxProps={{ withinPortal: true }}
      />
      <DestinationSelect
        label={t('flows.daynight.dayDestination')}
        value={form.day_dest}
        onChange={(v) => set({ day_dest: v })}
        error={invalid('day_dest') ? t('flows.chooseDestination') : serverFields.day_dest}
      />
      <DestinationSelect
        label={t('flows.daynight.nightDestination')}
        value={form.night_dest}
        onChange={(v) => set({ night_dest: v })}
        error={invalid('night_dest') ? t('flows.chooseDestination') : serverFields.night_dest}
      />
    </FlowFormModal>
  );
}

/** Call flows › Day/night: switches between two destinations, flipped here or with *28<n> from a phone. */
export function DayNightPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: ['daynight'], queryFn: flowsApi.dayNight, refetchInterval: 15_000 });
  const destinations = useQuery({ queryKey: ['destinations'], queryFn: flowsApi.destinations });
  const [editing, setEditing] = useState<DayNight | 'new' | null>(null);
  const reload = () =>
    Promise.all(['daynight', 'destinations'].map((k) => queryClient.invalidateQueries({ queryKey: [k] })));
  const remove = useMutation({
    mutationFn: (d: DayNight) => flowsApi.removeDayNight(d.ext),
    onSuccess: (_, d) => {
      notifySuccess(t('flows.deleted', { name: d.name }));
      void reload();
    },
    onError: (e) => notifyError(t('flows.deleteFailed'), e),
  });
  const flip = useMutation({
    mutationFn: (d: DayNight) => flowsApi.setDayNight(d.ext, d.state === 'night' ? 'day' : 'night'),
    onSuccess: () => void reload(),
    onError: (e) => notifyError(t('flows.daynight.switchFailed'), e),
  });
  const destinationLabel = (d: string) => {
    for (const group of destinationOptions(destinations.data ?? {}, t)) {
      const item = group.items.find((i) => i.value === d);
      if (item) return `${group.group}: ${item.label}`;
    }
    return d;
  };
  const taken = (list.data ?? []).map((d) => d.ext);

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('flows.daynight.title')}
      </Title>
      <Text c="dimmed">{t('flows.daynight.intro')}</Text>
      <Group>
        <WriteButton
          leftSection={<IconPlus size={16} />}
          onClick={() => setEditing('new')}
          disabled={taken.length >= 10}
        >
          {t('flows.daynight.create')}
        </WriteButton>
      </Group>
      {!list.data ? (
        <Center>
          <Loader aria-label={t('app.loading')} />
        </Center>
      ) : list.data.length === 0 ? (
        <Text c="dimmed">{t('flows.daynight.empty')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table data-testid="daynight">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('flows.name')}</Table.Th>
                <Table.Th>{t('flows.daynight.code')}</Table.Th>
                <Table.Th>{t('flows.daynight.mode')}</Table.Th>
                <Table.Th>{t('flows.daynight.dayDestination')}</Table.Th>
                <Table.Th>{t('flows.daynight.nightDestination')}</Table.Th>
                <Table.Th>{t('flows.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.map((d) => (
                <Table.Tr key={d.ext} data-testid={`daynight-${d.name}`}>
                  <Table.Td fw={600}>{d.name}</Table.Td>
                  <Table.Td>{d.feature_code}</Table.Td>
                  <Table.Td>
                    <Badge
                      color={d.state === 'night' ? 'indigo' : d.state === 'day' ? 'yellow' : 'gray'}
                      variant="light"
                      leftSection={d.state === 'night' ? <IconMoon size={12} /> : <IconSun size={12} />}
                    >
                      {t(`flows.daynight.states.${d.state}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{destinationLabel(d.day_dest)}</Table.Td>
                  <Table.Td>{destinationLabel(d.night_dest)}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <WriteButton
                        variant="light"
                        size="xs"
                        disabled={d.state === 'unknown'}
                        loading={flip.isPending && flip.variables?.ext === d.ext}
                        onClick={() => flip.mutate(d)}
                      >
                        {d.state === 'night' ? t('flows.daynight.toDay') : t('flows.daynight.toNight')}
                      </WriteButton>
                      <WriteButton
                        variant="default"
                        size="xs"
                        leftSection={<IconPencil size={14} />}
                        onClick={() => setEditing(d)}
                      >
                        {t('flows.edit')}
                      </WriteButton>
                      <DeleteButton
                        label={t('flows.delete')}
                        title={t('flows.deleteTitle')}
                        message={t('flows.deleteConfirm', { name: d.name })}
                        onConfirm={() => remove.mutate(d)}
                      />
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {list.data?.some((d) => d.state === 'unknown') && (
        <Text size="sm" c="dimmed">
          {t('flows.daynight.unknownHelp')}
        </Text>
      )}
      {editing && (
        <DayNightModal
          current={editing === 'new' ? null : editing}
          taken={taken}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            notifySuccess(t('flows.saved'));
            void reload();
          }}
        />
      )}
    </Stack>
  );
}
