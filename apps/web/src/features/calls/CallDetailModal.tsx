import type { Call, CallDetail } from '@centralino/contract';
import { Alert, Center, List, Loader, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { callsApi, formatSeconds } from './api.ts';
import { RecordingPlayer } from './RecordingPlayer.tsx';

type Step = CallDetail['path'][number];

/** One step of the way in words: "Queue 401", "Rang 201 — answered". */
function StepText({ step }: { step: Step }) {
  const { t } = useTranslation();
  const words = t(`calls.steps.${step.kind}`, { target: step.target });
  return <>{step.answered ? `${words} — ${t('calls.steps.answered')}` : words}</>;
}

/** A call's legs in order, with the way it went through routes, queues, phones and voicemail. */
export function CallDetailModal({ call, onClose }: { call: Call | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const detail = useQuery({
    queryKey: ['call', call?.id],
    queryFn: () => callsApi.detail(call?.id as number),
    enabled: call !== null,
  });
  return (
    <Modal
      opened={call !== null}
      onClose={onClose}
      size="xl"
      title={call ? t('calls.detailTitle', { time: new Date(call.at).toLocaleString(i18n.language) }) : ''}
    >
      {detail.isPending ? (
        <Center>
          <Loader size="sm" aria-label={t('app.loading')} />
        </Center>
      ) : detail.isError ? (
        <Alert color="red">{detail.error.message}</Alert>
      ) : (
        <Stack>
          {detail.data.call.recording !== 'none' && (
            <>
              <Title order={2} size="h4">
                {t('calls.recording.title')}
              </Title>
              <RecordingPlayer call={detail.data.call} />
            </>
          )}
          <Title order={2} size="h4">
            {t('calls.path')}
          </Title>
          {detail.data.path.length === 0 ? (
            <Text c="dimmed">{t('calls.noPath')}</Text>
          ) : (
            <List type="ordered">
              {detail.data.path.map((step, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the steps are in order and never move.
                <List.Item key={i}>
                  <StepText step={step} />
                </List.Item>
              ))}
            </List>
          )}
          <Title order={2} size="h4">
            {t('calls.legs')}
          </Title>
          <Table.ScrollContainer minWidth={700}>
            <Table withTableBorder aria-label={t('calls.legs')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('calls.time')}</Table.Th>
                  <Table.Th>{t('calls.legFrom')}</Table.Th>
                  <Table.Th>{t('calls.legTo')}</Table.Th>
                  <Table.Th>{t('calls.legApp')}</Table.Th>
                  <Table.Th>{t('calls.legDuration')}</Table.Th>
                  <Table.Th>{t('calls.talk')}</Table.Th>
                  <Table.Th>{t('calls.legOutcome')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {detail.data.legs.map((leg, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: legs are listed in the order Asterisk wrote them.
                  <Table.Tr key={i}>
                    <Table.Td>{new Date(leg.at).toLocaleTimeString(i18n.language)}</Table.Td>
                    <Table.Td>
                      {leg.fromName ? `${leg.fromName} (${leg.from})` : leg.from}
                      <Text size="xs" c="dimmed">
                        {leg.channel}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      {leg.to}
                      <Text size="xs" c="dimmed">
                        {leg.dstchannel}
                      </Text>
                    </Table.Td>
                    <Table.Td>{leg.app}</Table.Td>
                    <Table.Td>{formatSeconds(leg.duration)}</Table.Td>
                    <Table.Td>{formatSeconds(leg.billsec)}</Table.Td>
                    <Table.Td>
                      {t(`calls.dispositions.${leg.disposition.replace(' ', '_')}`, { defaultValue: leg.disposition })}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Stack>
      )}
    </Modal>
  );
}
