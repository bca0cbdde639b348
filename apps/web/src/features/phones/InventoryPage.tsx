import { vendorOfMac } from '@centralino/contract';
import { Alert, Button, Card, Center, Group, List, Loader, Select, Stack, Text } from '@mantine/core';
import { IconDeviceDesktop, IconHelp, IconInfoCircle, IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DeleteButton } from '../../components/DeleteButton.tsx';
import { ListView } from '../../components/ListView.tsx';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { WriteButton, WriteFieldset } from '../../components/WriteControls.tsx';
import { StepScreen } from '../wizard/StepScreen.tsx';
import { AddPhonesModal } from './AddPhonesModal.tsx';
import { type ModelSummary, modelOptions } from './macs.ts';
import { PhoneInfoModal } from './PhoneInfoModal.tsx';
import { phonesApi } from './phonesApi.ts';
import { RebootMenu } from './RebootMenu.tsx';
import type { RebootTime } from './reboot.ts';

const PATH = '/devices/inventory';
/** Local flag (spec §3 local settings): the administrator closed the inventory help. */
export const HIDE_HELP_KEY = 'hideInventoryHelp';

function helpHidden(): boolean {
  try {
    return localStorage.getItem(HIDE_HELP_KEY) === 'true';
  } catch {
    return false;
  }
}

interface Phone {
  mac: string;
  model: string;
  display_name: string;
}

function PhoneRow({
  phone,
  models,
  scheduled,
  onChanged,
}: {
  phone: Phone;
  models: readonly ModelSummary[];
  scheduled: RebootTime | undefined;
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const vendor = vendorOfMac(phone.mac);
  const [showInfo, setShowInfo] = useState(false);
  const setModel = useMutation({
    mutationFn: (model: string | null) => phonesApi.setModel(phone.mac, model),
    onSuccess: () => {
      notifySuccess(t('phones.modelSaved', { mac: phone.mac }));
      onChanged();
    },
    onError: (e) => notifyError(t('phones.modelFailed'), e),
  });
  const remove = useMutation({
    mutationFn: async () => {
      await phonesApi.remove(phone.mac);
      // A reboot scheduled for a phone that is gone would only fail later. Its cancellation failing is
      // reported apart: the phone is deleted all the same.
      return phonesApi.cancelDelayedReboot([phone.mac]).then(
        () => undefined,
        (error: unknown) => error,
      );
    },
    onSuccess: (cancelError) => {
      notifySuccess(t('phones.deleted', { mac: phone.mac }));
      if (cancelError) notifyError(t('phones.rebootCancelFailed'), cancelError);
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
          <Button
            variant="default"
            leftSection={<IconInfoCircle size={16} />}
            onClick={() => setShowInfo(true)}
            aria-label={t('phones.info.open', { mac: phone.mac })}
          >
            {t('phones.info.button')}
          </Button>
          <WriteFieldset>
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
          </WriteFieldset>
          <RebootMenu mac={phone.mac} scheduled={scheduled} onChanged={onChanged} />
          <DeleteButton
            label={t('phones.delete')}
            title={t('phones.deleteTitle')}
            message={t('phones.deleteConfirm', { mac: phone.mac })}
            loading={remove.isPending}
            onConfirm={() => remove.mutate()}
          />
        </Group>
      </Group>
      {showInfo && (
        <PhoneInfoModal
          mac={phone.mac}
          vendor={vendor ?? (phone.display_name || t('phones.unknownVendor'))}
          modelName={phone.model ? (models.find((m) => m.name === phone.model)?.display_name ?? phone.model) : null}
          onClose={() => setShowInfo(false)}
        />
      )}
    </Card>
  );
}

/** Phone inventory: the phones the provisioning engine knows, their model, adding and removing them. */
export function InventoryPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const phones = useQuery({ queryKey: ['phones'], queryFn: phonesApi.list });
  const models = useQuery({ queryKey: ['phone-models'], queryFn: phonesApi.models });
  // Scheduled reboots are shown when known; without them the list still works.
  const reboots = useQuery({ queryKey: ['phone-reboots'], queryFn: phonesApi.reboots, retry: false });
  const [adding, setAdding] = useState(false);
  const [hideHelp, setHideHelp] = useState(helpHidden);
  const reload = () => {
    void queryClient.invalidateQueries({ queryKey: ['phones'] });
    void queryClient.invalidateQueries({ queryKey: ['phone-links'] });
    void queryClient.invalidateQueries({ queryKey: ['phone-reboots'] });
  };
  const rememberHelp = (hidden: boolean) => {
    setHideHelp(hidden);
    try {
      if (hidden) localStorage.setItem(HIDE_HELP_KEY, 'true');
      else localStorage.removeItem(HIDE_HELP_KEY);
    } catch {
      // Private windows may refuse storage: the choice then lasts for this page only.
    }
  };

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
        {!hideHelp && (
          <Alert color="blue" icon={<IconHelp size={18} />} title={t('phones.help.title')} data-testid="inventory-help">
            <List size="sm" spacing={4}>
              <List.Item>{t('phones.help.add')}</List.Item>
              <List.Item>{t('phones.help.model')}</List.Item>
              <List.Item>{t('phones.help.provisioning')}</List.Item>
            </List>
            <Button variant="subtle" size="compact-sm" mt="xs" onClick={() => rememberHelp(true)}>
              {t('phones.help.hide')}
            </Button>
          </Alert>
        )}
        <Group>
          <WriteButton leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
            {t('phones.add')}
          </WriteButton>
          {hideHelp && (
            <Button variant="subtle" leftSection={<IconHelp size={16} />} onClick={() => rememberHelp(false)}>
              {t('phones.help.show')}
            </Button>
          )}
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
            renderItem={(p) => (
              <PhoneRow phone={p} models={models.data} scheduled={reboots.data?.[p.mac]} onChanged={reload} />
            )}
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
