import type { ParkedCall } from '@centralino/contract';
import { Alert, Button, Card, Group, Loader, Modal, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { WriteButton } from '../../components/WriteControls.tsx';
import { flowsApi } from '../flows/flowsApi.ts';
import { parkingApi } from './parkingApi.ts';

/** How often the list is read again: the server keeps it from AMI events, so a read costs Asterisk nothing. */
const POLL_MS = 2000;

/** Users by main extension, as the destinations catalogue lists them ("201 Alice Rossi"). */
function useUserPhones() {
  const destinations = useQuery({ queryKey: ['destinations'], queryFn: flowsApi.destinations });
  return Object.values(destinations.data?.Extensions ?? {}).map((d) => ({
    value: /^from-did-direct,(\d+),1$/.exec(d.destination)?.[1] ?? '',
    label: d.description,
  }));
}

function PickUpModal({ call, onClose }: { call: ParkedCall; onClose: () => void }) {
  const { t } = useTranslation();
  const phones = useUserPhones();
  const [extension, setExtension] = useState<string | null>(null);
  const ring = useMutation({
    mutationFn: () => parkingApi.pickUp(call.slot, extension ?? ''),
    onSuccess: () => {
      notifySuccess(t('parking.ringing', { extension }));
      onClose();
    },
    onError: (e) => notifyError(t('parking.pickUpFailed'), e),
  });
  return (
    <Modal opened onClose={onClose} title={t('parking.pickUpTitle', { slot: call.slot })}>
      <Stack>
        <Text size="sm">{t('parking.pickUpHint')}</Text>
        <Select
          label={t('parking.pickUpPhone')}
          data={phones.filter((p) => p.value)}
          value={extension}
          onChange={setExtension}
          searchable
          nothingFoundMessage={t('flows.noMatch')}
          comboboxProps={{ withinPortal: true }}
          data-testid="parking-pickup-phone"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('flows.cancel')}
          </Button>
          <WriteButton disabled={!extension} loading={ring.isPending} onClick={() => ring.mutate()}>
            {t('parking.ring')}
          </WriteButton>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The calls parked now, in every lot, with "Pick up on…" a user's phone; on the parking screen and the dashboard. */
export function ParkedCallsCard() {
  const { t } = useTranslation();
  const id = useId();
  const [picking, setPicking] = useState<ParkedCall | null>(null);
  const calls = useQuery({
    queryKey: ['parking', 'calls'],
    queryFn: parkingApi.calls,
    refetchInterval: POLL_MS,
    retry: false,
  });
  return (
    <Card withBorder component="section" aria-labelledby={id} data-testid="parked-calls">
      <Stack gap="sm">
        <Title order={2} size="h3" id={id}>
          {t('parking.parkedCalls')}
        </Title>
        {calls.error ? (
          <Alert color="yellow">
            {calls.error instanceof ApiError ? calls.error.body.detail : String(calls.error)}
          </Alert>
        ) : !calls.data ? (
          <Loader aria-label={t('app.loading')} />
        ) : calls.data.length === 0 ? (
          <Text c="dimmed">{t('parking.noneParked')}</Text>
        ) : (
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('parking.slot')}</Table.Th>
                <Table.Th>{t('parking.caller')}</Table.Th>
                <Table.Th>{t('parking.parkedBy')}</Table.Th>
                <Table.Th>{t('parking.waiting')}</Table.Th>
                <Table.Th>{t('flows.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {calls.data.map((c) => (
                <Table.Tr key={c.channel} data-testid={`parked-${c.slot}`}>
                  <Table.Td>{c.slot}</Table.Td>
                  <Table.Td>{[c.caller_number, c.caller_name].filter(Boolean).join(' ') || c.channel}</Table.Td>
                  <Table.Td>{[c.parker_number, c.parker_name].filter(Boolean).join(' ') || '—'}</Table.Td>
                  <Table.Td>{t('parking.seconds', { count: c.seconds })}</Table.Td>
                  <Table.Td>
                    <WriteButton size="xs" variant="default" onClick={() => setPicking(c)}>
                      {t('parking.pickUp')}
                    </WriteButton>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
      {picking ? <PickUpModal call={picking} onClose={() => setPicking(null)} /> : null}
    </Card>
  );
}
