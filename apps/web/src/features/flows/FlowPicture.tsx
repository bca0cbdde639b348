import { Button, List, Loader, Modal, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { conferencesApi } from '../conferences/conferencesApi.ts';
import { parkingApi } from '../parking/parkingApi.ts';
import { useDestinationLabel } from './FlowListPage.tsx';
import { flowsApi } from './flowsApi.ts';
import { rangeText } from './TimeGroupsPage.tsx';

interface Branch {
  /** How the call gets there ('Key 1', 'Outside'), empty for the first step. */
  via: string;
  destination: string;
}

/**
 * Read-only picture of where a call sent to `destination` goes (route → time condition → IVR → queue or ring group →
 * failover), drawn from the same lists the flow screens show, so an installer can check a flow without placing a
 * call. A flow met again on the same path is named, not expanded (the API refuses loops without an end, not every loop).
 */
export function FlowPicture({ destination }: { destination: string }) {
  const { t } = useTranslation();
  const label = useDestinationLabel();
  const q = {
    announcements: useQuery({ queryKey: ['announcements'], queryFn: flowsApi.announcements }),
    ivrs: useQuery({ queryKey: ['ivrs'], queryFn: flowsApi.ivrs }),
    dayNight: useQuery({ queryKey: ['daynight'], queryFn: flowsApi.dayNight }),
    queues: useQuery({ queryKey: ['queues'], queryFn: flowsApi.queues }),
    conditions: useQuery({ queryKey: ['timeconditions'], queryFn: flowsApi.timeConditions }),
    groups: useQuery({ queryKey: ['timegroups'], queryFn: flowsApi.timeGroups }),
    cqrs: useQuery({ queryKey: ['cqr'], queryFn: flowsApi.cqrs }),
    ringGroups: useQuery({ queryKey: ['ringgroups'], queryFn: flowsApi.ringGroups }),
    conferences: useQuery({ queryKey: ['conferences'], queryFn: conferencesApi.list }),
    parking: useQuery({ queryKey: ['parking'], queryFn: parkingApi.list }),
  };
  if (Object.values(q).some((x) => !x.data)) return <Loader aria-label={t('app.loading')} />;

  /** What a destination leads to, and a detail line about it. */
  const next = (d: string): { detail?: string; branches: Branch[] } => {
    const [context = '', exten = ''] = d.split(',');
    let m = /^ivr-(\d+)$/.exec(context);
    if (m) {
      const ivr = q.ivrs.data?.find((i) => i.id === Number(m?.[1]));
      if (!ivr) return { branches: [] };
      return {
        detail:
          [
            ivr.announcement === null ? t('flows.picture.noRecording') : '',
            ivr.directdial ? t('flows.picture.directDial') : '',
          ]
            .filter(Boolean)
            .join('; ') || undefined,
        branches: [
          ...ivr.entries.map((e) => ({ via: t('flows.picture.key', { key: e.selection }), destination: e.dest })),
          { via: t('flows.picture.timeout'), destination: ivr.timeout_destination },
          { via: t('flows.picture.invalid'), destination: ivr.invalid_destination },
        ],
      };
    }
    m = /^app-announcement-(\d+)$/.exec(context);
    if (m) {
      const a = q.announcements.data?.find((x) => x.id === Number(m?.[1]));
      return a ? { branches: [{ via: t('flows.picture.then'), destination: a.post_dest }] } : { branches: [] };
    }
    if (context === 'timeconditions') {
      const c = q.conditions.data?.find((x) => x.id === Number(exten));
      if (!c) return { branches: [] };
      const group = q.groups.data?.find((g) => g.id === c.time_group_id);
      return {
        detail: group ? `${group.name}: ${group.ranges.map(rangeText).join('; ')}` : undefined,
        branches: [
          { via: t('flows.picture.inside'), destination: c.true_dest },
          { via: t('flows.picture.outside'), destination: c.false_dest },
        ],
      };
    }
    if (context === 'nethcqr') {
      const c = q.cqrs.data?.find((x) => x.id === Number(exten));
      if (!c) return { branches: [] };
      return {
        detail: t('flows.picture.lookup', { timeout: c.timeout }),
        branches: [
          ...c.entries.map((e) => ({ via: t('flows.picture.value', { value: e.value }), destination: e.destination })),
          { via: t('flows.picture.otherwise'), destination: c.default_dest },
        ],
      };
    }
    if (context === 'app-daynight') {
      const s = q.dayNight.data?.find((x) => x.ext === Number(exten));
      return s
        ? {
            branches: [
              { via: t('flows.picture.day'), destination: s.day_dest },
              { via: t('flows.picture.night'), destination: s.night_dest },
            ],
          }
        : { branches: [] };
    }
    if (context === 'ext-queues') {
      const queue = q.queues.data?.find((x) => x.extension === exten);
      return queue
        ? {
            detail: t('flows.picture.members', {
              members: queue.members.join(', ') || '—',
              agents: queue.agents.join(', ') || '—',
            }),
            branches: [{ via: t('flows.picture.failover'), destination: queue.failover_dest }],
          }
        : { branches: [] };
    }
    if (context === 'ext-group') {
      const group = q.ringGroups.data?.find((x) => x.extension === exten);
      return group
        ? {
            detail: t('flows.picture.ringMembers', {
              strategy: t(`flows.ringGroups.strategies.${group.strategy}`),
              time: group.ring_time,
              members: group.members.map((m) => m.number).join(', ') || '—',
            }),
            branches: [{ via: t('flows.picture.unanswered'), destination: group.failover_dest }],
          }
        : { branches: [] };
    }
    if (context === 'ext-meetme') {
      // A room is where the call stays: no branches, what the caller meets there.
      const room = q.conferences.data?.find((x) => x.extension === exten);
      return room
        ? {
            detail: t('conferences.picture', {
              pin: room.has_user_pin ? t('conferences.picturePin') : t('conferences.pictureNoPin'),
              members:
                room.max_members === 0
                  ? t('conferences.pictureNoLimit')
                  : t('conferences.pictureMembers', { count: room.max_members }),
            }),
            branches: [],
          }
        : { branches: [] };
    }
    if (context === 'app-parking') {
      // Parked: someone may pick it up at a slot, else it goes on when its time is up.
      const lot = q.parking.data?.find((x) => x.extension === exten);
      if (!lot) return { branches: [] };
      const detail = t('parking.picture', { first: lot.first_slot, last: lot.last_slot, seconds: lot.timeout });
      return lot.timeout_dest === null
        ? { detail: `${detail}; ${t('parking.pictureBack')}`, branches: [] }
        : { detail, branches: [{ via: t('parking.pictureTimeout'), destination: lot.timeout_dest }] };
    }
    return { branches: [] };
  };

  const step = (branch: Branch, path: string[], key: string): ReactNode => {
    const again = path.includes(branch.destination);
    const { detail, branches } = again ? { detail: undefined, branches: [] } : next(branch.destination);
    return (
      <List.Item key={key}>
        <Text size="sm">
          {branch.via ? <Text span fw={600}>{`${branch.via}: `}</Text> : null}
          {label(branch.destination)}
          {again ? <Text span c="dimmed">{` (${t('flows.picture.again')})`}</Text> : null}
        </Text>
        {detail ? (
          <Text size="xs" c="dimmed">
            {detail}
          </Text>
        ) : null}
        {branches.length > 0 ? (
          <List withPadding size="sm">
            {branches.map((b, i) => step(b, [...path, branch.destination], `${key}.${i}`))}
          </List>
        ) : null}
      </List.Item>
    );
  };
  return (
    <List size="sm" data-testid="flow-picture">
      {step({ via: '', destination }, [], '0')}
    </List>
  );
}

/** The picture in a dialog, for the inbound routes screen. */
export function FlowPictureModal({
  title,
  destination,
  onClose,
}: {
  title: string;
  destination: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened onClose={onClose} title={title} size="lg">
      <Stack>
        <Text size="sm" c="dimmed">
          {t('flows.picture.intro')}
        </Text>
        <FlowPicture destination={destination} />
        <Button variant="default" onClick={onClose} style={{ alignSelf: 'flex-end' }}>
          {t('flows.picture.close')}
        </Button>
      </Stack>
    </Modal>
  );
}
