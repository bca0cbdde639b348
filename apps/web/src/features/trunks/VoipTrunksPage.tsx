import type { Trunk } from '@centralino/contract';
import { Badge, Card, Center, Grid, Group, Loader, Stack, Table, Text, Title, UnstyledButton } from '@mantine/core';
import { IconPencil, IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DeleteButton } from '../../components/DeleteButton.tsx';
import { ListView } from '../../components/ListView.tsx';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { WriteButton } from '../../components/WriteControls.tsx';
import { StepScreen } from '../wizard/StepScreen.tsx';
import { CreateTrunkModal, EditTrunkModal } from './TrunkModals.tsx';
import { type LiveTrunk, trunksApi } from './trunksApi.ts';

const PATH = '/trunks/voip';

function TrunkDetail({
  trunk,
  providerName,
  live,
  onEdit,
  onDeleted,
}: {
  trunk: Trunk;
  providerName: string;
  live: LiveTrunk | undefined;
  onEdit: () => void;
  onDeleted: () => void;
}) {
  const { t } = useTranslation();
  const remove = useMutation({
    mutationFn: () => trunksApi.remove(trunk.trunkid),
    onSuccess: () => {
      notifySuccess(t('voip.deleted', { name: trunk.name }));
      onDeleted();
    },
    onError: (e) => notifyError(t('voip.deleteFailed'), e),
  });
  const status = live?.status ?? 'unknown';
  const registration = live?.registration ?? 'unknown';
  const rows: [string, React.ReactNode][] = [
    [t('voip.provider'), providerName],
    [t('voip.username'), trunk.username ?? '—'],
    [t('voip.phone'), trunk.outcid ?? '—'],
    [t('voip.providerIp'), live?.ip ?? trunk.server ?? '—'],
    [t('voip.port'), String(live?.port ?? trunk.port ?? '—')],
    [
      t('voip.status'),
      <Badge key="s" color={status === 'online' ? 'teal' : status === 'unknown' ? 'gray' : 'red'}>
        {t(`voip.statuses.${status}`, { defaultValue: status })}
      </Badge>,
    ],
    [
      t('voip.registration'),
      <Badge key="r" color={registration === 'registered' ? 'teal' : registration === 'unknown' ? 'gray' : 'red'}>
        {t(`voip.registrations.${registration}`, { defaultValue: registration })}
      </Badge>,
    ],
    [t('voip.codecs'), trunk.codecs.join(', ')],
  ];
  return (
    <Card withBorder radius="md" data-testid="trunk-detail">
      <Stack>
        <Title order={4}>{trunk.name}</Title>
        <Table>
          <Table.Tbody>
            {rows.map(([label, value]) => (
              <Table.Tr key={label}>
                <Table.Th w={180}>{label}</Table.Th>
                <Table.Td>{value}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {!live && (
          <Text size="xs" c="dimmed">
            {t('voip.noLiveState')}
          </Text>
        )}
        <Group justify="flex-end">
          <WriteButton variant="default" leftSection={<IconPencil size={16} />} onClick={onEdit}>
            {t('voip.editButton')}
          </WriteButton>
          <DeleteButton
            label={t('voip.delete')}
            title={t('voip.deleteTitle')}
            message={t('voip.deleteConfirm', { name: trunk.name })}
            loading={remove.isPending}
            onConfirm={() => remove.mutate()}
          />
        </Group>
      </Stack>
    </Card>
  );
}

/** 'Provider settings': VoIP trunks created from the provider catalogue. */
export function VoipTrunksPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const trunks = useQuery({ queryKey: ['trunks'], queryFn: trunksApi.list });
  const providers = useQuery({ queryKey: ['providers'], queryFn: trunksApi.providers });
  const live = useQuery({ queryKey: ['trunks', 'live'], queryFn: trunksApi.live, refetchInterval: 15_000 });
  const [selected, setSelected] = useState<number | null>(null);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Trunk | null>(null);
  const reload = () => queryClient.invalidateQueries({ queryKey: ['trunks'] });

  if (!trunks.data || !providers.data) {
    return (
      <Center mt="xl">
        <Loader aria-label={t('app.loading')} />
      </Center>
    );
  }
  const voip = trunks.data.filter((tr) => tr.kind === 'voip').sort((a, b) => a.name.localeCompare(b.name));
  const providerName = (key: string | null) => providers.data.find((p) => p.provider === key)?.description ?? '—';
  const current = voip.find((tr) => tr.trunkid === selected) ?? voip[0];

  const body = (
    <Stack gap="md">
      <Group>
        <WriteButton leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
          {t('voip.create')}
        </WriteButton>
      </Group>
      {voip.length === 0 ? (
        <Text c="dimmed">{t('voip.empty')}</Text>
      ) : (
        <Grid>
          <Grid.Col span={{ base: 12, md: 5 }}>
            <ListView<Trunk>
              items={voip}
              getKey={(tr) => String(tr.trunkid)}
              searchText={(tr) => `${tr.name} ${providerName(tr.provider)} ${tr.outcid ?? ''}`}
              label={t('voip.listLabel')}
              renderItem={(tr) => (
                <UnstyledButton onClick={() => setSelected(tr.trunkid)} w="100%" data-testid={`trunk-${tr.name}`}>
                  <Card
                    withBorder
                    radius="md"
                    p="sm"
                    bg={tr.trunkid === current?.trunkid ? 'var(--mantine-primary-color-light)' : undefined}
                  >
                    <Text fw={600}>{tr.name}</Text>
                    <Text size="sm" c="dimmed">
                      {providerName(tr.provider)} · {tr.outcid}
                    </Text>
                  </Card>
                </UnstyledButton>
              )}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 7 }}>
            {current && (
              <TrunkDetail
                trunk={current}
                providerName={providerName(current.provider)}
                live={live.data?.[current.name]}
                onEdit={() => setEditing(current)}
                onDeleted={() => {
                  setSelected(null);
                  void reload();
                }}
              />
            )}
          </Grid.Col>
        </Grid>
      )}
      {creating && (
        <CreateTrunkModal
          opened
          onClose={() => setCreating(false)}
          onCreated={(id) => {
            setCreating(false);
            setSelected(id);
            notifySuccess(t('voip.created'));
            void reload();
          }}
        />
      )}
      {editing && (
        <EditTrunkModal
          trunk={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            notifySuccess(t('voip.saved'));
            void reload();
          }}
        />
      )}
    </Stack>
  );

  return (
    <StepScreen path={PATH} title={t('voip.title')}>
      {body}
    </StepScreen>
  );
}
