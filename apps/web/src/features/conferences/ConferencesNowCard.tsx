import { Anchor, Card, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { conferencesApi } from './conferencesApi.ts';
import { ParticipantsTable } from './ParticipantsTable.tsx';

/** The dashboard reloads this when the event stream says 'conferences' (someone joined, left or was muted). */
export const CONFERENCES_NOW = ['dashboard', 'conferences'] as const;

/**
 * The dashboard's "Conferences now": each room with people in it, who they are, Mute and Kick. Hidden on a
 * system without rooms, and while the PBX is not connected (the dashboard's banner says so already).
 */
export function ConferencesNowCard() {
  const { t } = useTranslation();
  const rooms = useQuery({ queryKey: ['conferences'], queryFn: conferencesApi.list });
  const live = useQuery({
    queryKey: CONFERENCES_NOW,
    queryFn: conferencesApi.live,
    enabled: (rooms.data?.length ?? 0) > 0,
    retry: false,
  });
  if (!rooms.data?.length || !live.data) return null;
  return (
    <Card
      withBorder
      radius="md"
      component="section"
      aria-labelledby="conferences-now-title"
      data-testid="conferences-now"
    >
      <Stack gap="sm">
        <Title order={2} size="h4" id="conferences-now-title">
          {t('conferences.nowTitle')}
        </Title>
        {live.data.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('conferences.nowNone')}{' '}
            <Anchor component={Link} to="/flows/conferences" size="sm">
              {t('conferences.nowRooms', { count: rooms.data.length })}
            </Anchor>
          </Text>
        ) : (
          live.data.map((room) => {
            const label = `${room.extension} ${room.name}`;
            return (
              <Stack key={room.id} gap={4}>
                <Text fw={600} size="sm">
                  {t('conferences.nowRoom', { room: label, count: room.participants.length })}
                </Text>
                <ParticipantsTable
                  roomId={room.id}
                  roomLabel={label}
                  participants={room.participants}
                  refresh={CONFERENCES_NOW}
                />
              </Stack>
            );
          })
        )}
      </Stack>
    </Card>
  );
}
