import {
  type Gateway,
  type GatewayCreate,
  gatewayDownloadName,
  gatewayModelDescription,
  gatewayNameIn,
  stepOfPath,
} from '@centralino/contract';
import {
  Alert,
  Badge,
  Button,
  Card,
  Center,
  Grid,
  Group,
  Loader,
  Modal,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import {
  IconCircleCheck,
  IconCircleDashed,
  IconDownload,
  IconPlugConnectedX,
  IconPlus,
  IconSend,
} from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { confirmAction } from '../../components/confirm.tsx';
import { DeleteButton } from '../../components/DeleteButton.tsx';
import { ListView } from '../../components/ListView.tsx';
import { WriteButton } from '../../components/WriteControls.tsx';
import { useEngine, useWizardState } from '../wizard/useWizard.ts';
import { WizardFrame } from '../wizard/WizardFrame.tsx';
import { emptyValues, GatewayForm } from './GatewayForm.tsx';
import { gatewaysApi } from './gatewaysApi.ts';

const PATH = '/trunks/physical';

type Banner = { color: 'teal' | 'red'; title: string; message: string };

function StatusIcon({ gateway }: { gateway: Gateway }) {
  const { t } = useTranslation();
  const [label, icon] = gateway.isConfigured
    ? gateway.isConnected
      ? [t('gateways.status.connected'), <IconCircleCheck key="i" size={22} color="var(--mantine-color-teal-6)" />]
      : [
          t('gateways.status.notConnected'),
          <IconPlugConnectedX key="i" size={22} color="var(--mantine-color-orange-6)" />,
        ]
    : [t('gateways.status.notConfigured'), <IconCircleDashed key="i" size={22} color="var(--mantine-color-gray-6)" />];
  return (
    <Tooltip label={label}>
      <span role="img" aria-label={label} style={{ display: 'inline-flex' }}>
        {icon}
      </span>
    </Tooltip>
  );
}

const key = (g: Gateway) => g.mac;

/** The model's description in the console's language (the API answers the original's Italian). */
const modelDescription = (g: Gateway, language: string) =>
  gatewayModelDescription(g.model_id, g.description ?? '', language);

/** Read-only view of a configured gateway, with its actions. */
function ConfiguredGateway({
  gateway,
  onBanner,
  onDeleted,
}: {
  gateway: Gateway;
  onBanner: (banner: Banner) => void;
  onDeleted: () => void;
}) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const failed = (error: unknown) =>
    onBanner({
      color: 'red',
      title: t('gateways.banner.errorTitle'),
      message:
        error instanceof ApiError && error.code !== 'internal'
          ? `${t('gateways.banner.errorText')}: ${error.body.detail}`
          : t('gateways.banner.errorText'),
    });
  const remove = useMutation({
    mutationFn: () => gatewaysApi.remove(gateway.id as number),
    onSuccess: async () => {
      onBanner({ color: 'teal', title: t('gateways.banner.deletedTitle'), message: t('gateways.banner.deletedText') });
      onDeleted();
      await queryClient.invalidateQueries({ queryKey: ['gateways'] });
      await queryClient.invalidateQueries({ queryKey: ['trunks'] });
    },
    onError: failed,
  });
  const push = useMutation({
    mutationFn: () => gatewaysApi.push(gateway.name, gateway.mac),
    onSuccess: () =>
      onBanner({ color: 'teal', title: t('gateways.banner.pushedTitle'), message: t('gateways.banner.pushedText') }),
    onError: failed,
  });
  const download = useMutation({
    mutationFn: () => gatewaysApi.download(gateway.id as number),
    onSuccess: (text) => {
      const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = gatewayDownloadName(gateway.name, gateway.manufacturer);
      a.click();
      URL.revokeObjectURL(url);
    },
    onError: failed,
  });
  const rows: [string, string][] = [
    [t('gateways.form.model'), modelDescription(gateway, i18n.language)],
    [t('gateways.form.deviceIp'), gateway.ipv4_new],
    [t('gateways.form.mac'), gateway.mac],
    [t('gateways.form.netmask'), gateway.netmask_green],
    [t('gateways.form.gateway'), gateway.gateway],
    [t('gateways.form.pbxIp'), gateway.ipv4_green],
    ...gateway.trunks_isdn.map((p): [string, string] => [
      p.name,
      p.type === 'pp' ? t('gateways.form.pp') : t('gateways.form.pmp'),
    ]),
    ...gateway.trunks_pri.map((p): [string, string] => [p.name, 'PRI']),
    ...gateway.trunks_fxo.map((p): [string, string] => [p.name, p.number || '-']),
    ...gateway.trunks_fxs.map((p): [string, string] => [
      p.name,
      p.linked_extension ? `${p.linked_extension} (${p.physical_extension})` : t('gateways.form.fxsNone'),
    ]),
  ];
  return (
    <Stack gap="sm" data-testid="gateway-detail">
      <Group gap="xs">
        <StatusIcon gateway={gateway} />
        <Title order={3}>
          {gateway.description ? `${gateway.manufacturer} ${modelDescription(gateway, i18n.language)}` : gateway.name}
        </Title>
      </Group>
      <Table withRowBorders={false} verticalSpacing={4}>
        <Table.Tbody>
          {rows.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th w="40%">{label}</Table.Th>
              <Table.Td>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Group>
        <DeleteButton
          label={t('gateways.delete')}
          title={t('gateways.deleteTitle')}
          message={t('gateways.deleteConfirm', { name: gateway.name })}
          loading={remove.isPending}
          onConfirm={() => remove.mutate()}
        />
        <Button
          variant="default"
          leftSection={<IconDownload size={16} />}
          loading={download.isPending}
          onClick={() => download.mutate()}
        >
          {t('gateways.download')}
        </Button>
        {gateway.isConnected && gateway.canPush && !gateway.isGrandStream && (
          <WriteButton
            leftSection={<IconSend size={16} />}
            loading={push.isPending}
            onClick={async () => {
              const ok = await confirmAction({
                title: t('gateways.pushTitle'),
                message: t('gateways.pushConfirm', {
                  name: gatewayNameIn(gateway.name, gateway.model_id, i18n.language),
                }),
                confirmLabel: t('gateways.push'),
              });
              if (ok) push.mutate();
            }}
          >
            {t('gateways.push')}
          </WriteButton>
        )}
      </Group>
    </Stack>
  );
}

/** Physical lines: gateways on the network and configured ones, their files and pushes. */
export function PhysicalTrunksPage() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const engine = useEngine();
  const wizard = useWizardState();
  const gateways = useQuery({ queryKey: ['gateways', 'list'], queryFn: gatewaysApi.list });
  const catalogue = useQuery({ queryKey: ['gateways', 'catalogue'], queryFn: gatewaysApi.manufacturers });
  const users = useQuery({ queryKey: ['gateways', 'users'], queryFn: gatewaysApi.usersWithExtension });
  const [selected, setSelected] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [banner, setBanner] = useState<Banner | null>(null);

  const save = useMutation({
    mutationFn: (body: GatewayCreate) => gatewaysApi.create(body),
    onSuccess: async (_, body) => {
      setBanner({ color: 'teal', title: t('gateways.banner.savedTitle'), message: t('gateways.banner.savedText') });
      setAdding(false);
      setSelected(String(body.mac).toUpperCase());
      await queryClient.invalidateQueries({ queryKey: ['gateways'] });
      await queryClient.invalidateQueries({ queryKey: ['trunks'] });
    },
    onError: (error) =>
      setBanner({
        color: 'red',
        title: t('gateways.banner.errorTitle'),
        message:
          error instanceof ApiError && error.code !== 'internal'
            ? `${t('gateways.banner.errorText')}: ${error.body.detail}`
            : t('gateways.banner.errorText'),
      }),
  });

  if (!gateways.data || !catalogue.data || !engine.data || !wizard.data) {
    return (
      <Center mt="xl">
        <Loader aria-label={t('app.loading')} />
      </Center>
    );
  }
  const list = gateways.data;
  const current = list.find((g) => key(g) === selected);
  const description = (g: Gateway) => modelDescription(g, i18n.language);

  const body = (
    <Stack gap="md">
      <Text c="dimmed">{t('gateways.intro')}</Text>
      {banner && (
        <Alert color={banner.color} title={banner.title} withCloseButton onClose={() => setBanner(null)} role="status">
          {banner.message}
        </Alert>
      )}
      <Group>
        <WriteButton
          leftSection={<IconPlus size={16} />}
          onClick={() => {
            setBanner(null);
            setAdding(true);
          }}
        >
          {t('gateways.add')}
        </WriteButton>
      </Group>
      {list.length === 0 ? (
        <Text c="dimmed">{t('gateways.empty')}</Text>
      ) : (
        <Grid>
          <Grid.Col span={{ base: 12, md: 5 }}>
            <ListView
              label={t('gateways.listLabel')}
              items={list}
              getKey={key}
              searchText={(g) => `${g.manufacturer} ${description(g)} ${g.ipv4} ${g.ipv4_new} ${g.mac}`}
              renderItem={(g) => (
                <UnstyledButton
                  w="100%"
                  onClick={() => setSelected(key(g))}
                  aria-pressed={key(g) === selected}
                  data-testid={`gateway-${g.mac}`}
                >
                  <Card
                    withBorder
                    padding="sm"
                    bg={key(g) === selected ? 'var(--mantine-color-blue-light)' : undefined}
                  >
                    <Group wrap="nowrap" gap="sm">
                      <StatusIcon gateway={g} />
                      <Stack gap={0} style={{ minWidth: 0 }}>
                        <Group gap={6}>
                          <Text fw={600}>{g.manufacturer}</Text>
                          {g.description && <Badge variant="light">{description(g)}</Badge>}
                        </Group>
                        <Text size="sm" c="dimmed">
                          {g.ipv4 || g.ipv4_new} · {g.mac}
                        </Text>
                      </Stack>
                    </Group>
                  </Card>
                </UnstyledButton>
              )}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 7 }}>
            {!current ? (
              <Text c="dimmed">{t('gateways.select')}</Text>
            ) : current.isConfigured ? (
              <ConfiguredGateway gateway={current} onBanner={setBanner} onDeleted={() => setSelected(key(current))} />
            ) : (
              <Stack gap="sm">
                <Group gap="xs">
                  <StatusIcon gateway={current} />
                  <Title order={3}>{current.manufacturer}</Title>
                </Group>
                <GatewayForm
                  key={key(current)}
                  catalogue={catalogue.data}
                  users={users.data ?? []}
                  manual={false}
                  saving={save.isPending}
                  initial={emptyValues({
                    vendor: current.manufacturer,
                    mac: current.mac,
                    ipv4: current.ipv4,
                    ipv4_new: current.ipv4,
                    netmask_green: current.netmask_green,
                    gateway: current.gateway,
                    ipv4_green: catalogue.data[current.manufacturer]?.[0]?.ipv4_green ?? '',
                  })}
                  onSubmit={(request) => save.mutate(request)}
                />
              </Stack>
            )}
          </Grid.Col>
        </Grid>
      )}
      <Modal opened={adding} onClose={() => setAdding(false)} title={t('gateways.newTitle')} size="lg">
        {banner?.color === 'red' && (
          <Alert color="red" title={banner.title} mb="sm" role="alert">
            {banner.message}
          </Alert>
        )}
        <GatewayForm
          catalogue={catalogue.data}
          users={users.data ?? []}
          manual
          saving={save.isPending}
          initial={emptyValues()}
          onSubmit={(request) => save.mutate(request)}
          onCancel={() => setAdding(false)}
        />
      </Modal>
    </Stack>
  );

  const step = stepOfPath(engine.data, PATH);
  if (wizard.data.active && step !== undefined) {
    return (
      <WizardFrame engine={engine.data} step={step}>
        {body}
      </WizardFrame>
    );
  }
  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        {t('gateways.title')}
      </Title>
      {body}
    </Stack>
  );
}
