import type { BulkPhoneSelection } from '@centralino/contract';
import { Button, Center, Group, Loader, Modal, NativeSelect, Stack, Text } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { modelsOfVendor } from '../phones/macs.ts';
import { bulkPhonesApi } from './bulkPhonesApi.ts';

/** Set model: the models of the selection's one vendor, a placeholder first; saved for every selected phone. */
export function SetModelModal({
  selection,
  vendor,
  count,
  onClose,
  onDone,
}: {
  selection: BulkPhoneSelection | undefined;
  vendor: string;
  count: number;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const [model, setModel] = useState('');
  const models = useQuery({
    queryKey: ['phone-models'],
    queryFn: async () => {
      try {
        return await bulkPhonesApi.models();
      } catch (error) {
        notifyError(t('bulkPhones.errors.models'), error);
        throw error;
      }
    },
  });
  const save = useMutation({
    mutationFn: () => {
      if (!selection) throw new Error(t('bulkPhones.setModel.nothing'));
      return bulkPhonesApi.setModel({ selection, model });
    },
    onSuccess: (result) => {
      notifySuccess(t('bulkPhones.setModel.saved', { count: result.updated }));
      onDone();
    },
    onError: (error) => notifyError(t('bulkPhones.errors.setModel'), error),
  });
  const choices = modelsOfVendor(models.data ?? [], vendor);
  return (
    <Modal opened onClose={onClose} title={t('bulkPhones.setModel.title')}>
      <Stack>
        <Text size="sm">{t('bulkPhones.setModel.help', { count, vendor })}</Text>
        {models.isPending ? (
          <Center>
            <Loader size="sm" aria-label={t('app.loading')} />
          </Center>
        ) : (
          <NativeSelect
            label={t('bulkPhones.setModel.label')}
            data={[
              { value: '', label: t('bulkPhones.setModel.placeholder') },
              ...choices.map((m) => ({ value: m.name, label: m.display_name || m.name })),
            ]}
            value={model}
            onChange={(e) => setModel(e.currentTarget.value)}
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button disabled={model === ''} loading={save.isPending} onClick={() => save.mutate()}>
            {t('bulkPhones.setModel.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
