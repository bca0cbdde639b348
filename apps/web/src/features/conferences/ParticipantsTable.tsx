import type { ConferenceParticipant } from '@centralino/contract';
import { Group, Table } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { notifyError } from '../../components/notify.ts';
import { WriteButton } from '../../components/WriteControls.tsx';
import { conferencesApi } from './conferencesApi.ts';

/**
 * Who is in one room, with Mute/Unmute and Kick for accounts that may write: the room's participants window and
 * the dashboard's "Conferences now" card show the same table. `refresh` is the query to read again after an action.
 */
export function ParticipantsTable({
  roomId,
  roomLabel,
  participants,
  refresh,
}: {
  roomId: number;
  roomLabel: string;
  participants: ConferenceParticipant[];
  refresh: readonly unknown[];
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const act = useMutation({
    mutationFn: (a: { channel: string; kind: 'mute' | 'unmute' | 'kick' }) =>
      a.kind === 'kick'
        ? conferencesApi.kick(roomId, a.channel)
        : conferencesApi.mute(roomId, a.channel, a.kind === 'mute'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: refresh }),
    onError: (e) => notifyError(t('conferences.actionFailed'), e),
  });
  return (
    <Table
      data-testid={`conference-participants-${roomId}`}
      aria-label={t('conferences.participantsTitle', { room: roomLabel })}
    >
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('conferences.caller')}</Table.Th>
          <Table.Th>{t('conferences.since')}</Table.Th>
          <Table.Th>{t('flows.actions')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {participants.map((p) => {
          const who = [p.caller_number, p.caller_name].filter(Boolean).join(' ') || p.channel;
          return (
            <Table.Tr key={p.channel}>
              <Table.Td>
                {who}
                {p.admin ? ` (${t('conferences.admin')})` : ''}
                {p.muted ? ` · ${t('conferences.muted')}` : ''}
              </Table.Td>
              <Table.Td>{t('conferences.seconds', { count: p.seconds })}</Table.Td>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  <WriteButton
                    size="xs"
                    variant="default"
                    aria-label={`${p.muted ? t('conferences.unmute') : t('conferences.mute')} ${who}`}
                    onClick={() => act.mutate({ channel: p.channel, kind: p.muted ? 'unmute' : 'mute' })}
                  >
                    {p.muted ? t('conferences.unmute') : t('conferences.mute')}
                  </WriteButton>
                  <WriteButton
                    size="xs"
                    color="red"
                    aria-label={`${t('conferences.kick')} ${who}`}
                    onClick={() => act.mutate({ channel: p.channel, kind: 'kick' })}
                  >
                    {t('conferences.kick')}
                  </WriteButton>
                </Group>
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}
