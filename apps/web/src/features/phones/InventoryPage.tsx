import { vendorOfMac } from '@centralino/contract';
import { Button, Card, Center, Group, Loader, Select, Stack, Text } from '@mantine/core';
import { IconDeviceDesktop, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { confirmAction } from '../../components/confirm.tsx';
import { ListView } from '../../components/ListView.tsx';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { StepScreen } from '../wizard/StepScreen.tsx';
import { AddPhonesModal } from './AddPhonesModal.tsx';
import { type ModelSummary, modelOptions } from './macs.ts';
import { phonesApi } from './phonesApi.ts';

const PATH = '/devices/inventory';

interface Phone {
  mac: string;
  model: string;
  display_name: string;
}

function PhoneRow({
  phone,
  models,
  onChanged,
}: {
  phone: Phone;
  models: readonly ModelSummary[];
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const vendor = vendorOfMac(phone.mac);
  const setModel = useMutation({
    mutationFn: (model: string | null) => phonesApi.setModel(phone.mac, model),
    onSuccess: () => {
      notifySuccess(t('phones.modelSaved', { mac: phone.mac }));
      onChanged();
    },
    onError: (e) => notifyError(t('phones.modelFailed'), e),
  });
  const remove = useMutation({
    mutationFn: () => phonesApi.remove(phone.mac),
    onSuccess: () => {
      notifySuccess(t('phones.deleted', { mac: phone.mac }));
      onChanged();
    },
    onError: (e) => notifyError(t('phones.deleteFailed'), e),
  });
  return (
    <Card withBorder radius="md" p="sm" data-testid={`phone-${phone.mac}`}>
      <Group justify="space-between" wrap="wrap">
        <Group gap="sm">
          <IconDeviceDesktop size={20} />
          <div>
            <Text fw={600} ff="monospace">
              {phone.mac}
            </Text>
            <Text size="sm" c="dimmed">
              {vendor ?? (phone.display_name || t('phones.unknownVendor'))}
            </Text>
          </div>
        </Group>
        <Group gap="sm">
          <Select
            aria-label={t('phones.modelOf', { mac: phone.mac })}
            placeholder={t('phones.noModel')}
            data={modelOptions(models, vendor, phone.model)}
            value={phone.model || null}
            onChange={(value) => setModel.mutate(value)}
            disabled={setModel.isPending}
            searchable
            clearable
            w={240}
          />
          <Button
            color="red"
            variant="light"
            leftSection={<IconTrash size={16} />}
            loading={remove.isPending}
            onClick={async () => {
              const ok = await confirmAction({
                title: t('phones.deleteTitle'),
                message: t('phones.deleteConfirm', { mac: phone.mac }),
                confirmLabel: t('phones.delete'),
                danger: true,
              });
              if (ok) remove.mutate();
            }}
          >
            {t('phones.delete')}
          </Button>
        </Group>
      </Group>
    </Card>
  );
}

/** Phone inventory: the phones the provisioning engine knows, their model, adding and removing them. */
export function InventoryPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const phones = useQuery({ queryKey: ['phones'], queryFn: phonesApi.list });
  const models = useQuery({ queryKey: ['phone-models'], queryFn: phonesApi.models });
  const [adding, setAdding] = useState(false);
  const reload = () => void queryClient.invalidateQueries({ queryKey: ['phones'] });

  let body: React.ReactNode;
  if (!phones.data || !models.data) {
    body = (
      <Center mt="xl">
        <Loader aria-label={t('app.loading')} />
      </Center>
    );
  } else {
    const list = [...phones.data].sort((a, b) => a.mac.localeCompare(b.mac));
    const modelName = (name: string) => models.data.find((m) => m.name === name)?.display_name ?? name;
    body = (
      <Stack gap="md">
        <Text c="dimmed">{t('phones.intro')}</Text>
        <Group>
          <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
            {t('phones.add')}
          </Button>
        </Group>
        {list.length === 0 ? (
          <Card withBorder radius="md" p="lg" data-testid="phones-empty">
            <Stack align="center" gap="xs">
              <IconDeviceDesktop size={32} />
              <Text fw={600}>{t('phones.empty')}</Text>
              <Text size="sm" c="dimmed">
                {t('phones.emptyHint')}
              </Text>
            </Stack>
          </Card>
        ) : (
          <ListView<Phone>
            items={list}
            getKey={(p) => p.mac}
            label={t('phones.listLabel')}
            searchText={(p) => `${p.mac} ${vendorOfMac(p.mac) ?? p.display_name} ${p.model} ${modelName(p.model)}`}
            renderItem={(p) => <PhoneRow phone={p} models={models.data} onChanged={reload} />}
          />
        )}
        {adding && (
          <AddPhonesModal
            inventory={new Set(list.map((p) => p.mac))}
            models={models.data}
            onAdded={reload}
            onClose={() => setAdding(false)}
          />
        )}
      </Stack>
    );
  }

  return (
    <StepScreen path={PATH} title={t('wizard.steps.devices_inventory')}>
      {body}
    </StepScreen>
  );
}
