import {
  QUEUE_STRATEGIES,
  type Queue,
  type QueueWrite,
  queueDestination,
  queueWriteSchema,
  type RecordingPolicy,
  recordingPolicies,
} from '@centralino/contract';
import { Checkbox, Group, MultiSelect, NumberInput, Select, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useMusicChoices } from '../music/MusicPage.tsx';
import { DestinationSelect } from './DestinationSelect.tsx';
import { FlowFormModal, useFlowForm } from './FlowFormModal.tsx';
import { FlowListPage, useDestinationLabel } from './FlowListPage.tsx';
import { flowsApi } from './flowsApi.ts';

const EMPTY: QueueWrite = {
  extension: '',
  name: '',
  strategy: 'ringall',
  members: [],
  agents: [],
  ring_time: 15,
  max_wait: 0,
  failover_dest: '',
  music: 'default',
  announce_position: false,
  recording: 'on_demand',
};

/** Users to choose members from: the catalogue's extensions ('201 Alice Rossi'), by main extension. */
function useUserOptions() {
  const destinations = useQuery({ queryKey: ['destinations'], queryFn: flowsApi.destinations });
  const extensions = Object.values(destinations.data?.Extensions ?? {});
  return extensions.map((d) => ({ value: d.destination.split(',')[1] as string, label: d.description }));
}

function QueueModal({ queue, onClose, onSaved }: { queue: Queue | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const users = useUserOptions();
  const music = useMusicChoices();
  const { form, set, issue, serverFields, modal } = useFlowForm({
    initial: queue ?? EMPTY,
    schema: queueWriteSchema,
    write: (body) => (queue ? flowsApi.updateQueue(queue.id, body) : flowsApi.createQueue(body)),
    onSaved,
    onClose,
  });
  const seconds = (v: string | number) => (typeof v === 'number' ? v : Number.parseInt(v, 10) || 0);
  return (
    <FlowFormModal title={queue ? t('flows.queues.editTitle') : t('flows.queues.create')} size="lg" {...modal}>
      <Group grow align="flex-start">
        <TextInput
          label={t('flows.queues.extension')}
          value={form.extension}
          inputMode="numeric"
          onChange={(e) => set({ extension: e.currentTarget.value })}
          error={issue('extension') ? t('flows.queues.extensionError') : serverFields.extension}
          data-autofocus
        />
        <TextInput
          label={t('flows.name')}
          value={form.name}
          onChange={(e) => set({ name: e.currentTarget.value })}
          error={issue('name') ? t('flows.nameError') : serverFields.name}
        />
      </Group>
      <Select
        label={t('flows.queues.strategy')}
        data={QUEUE_STRATEGIES.map((s) => ({ value: s, label: t(`flows.queues.strategies.${s}`) }))}
        value={form.strategy ?? 'ringall'}
        onChange={(v) => set({ strategy: (v ?? 'ringall') as QueueWrite['strategy'] })}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
      />
      <MultiSelect
        label={t('flows.queues.members')}
        description={t('flows.queues.membersHint')}
        data={users}
        value={form.members ?? []}
        onChange={(v) => set({ members: v })}
        searchable
        limit={50}
        nothingFoundMessage={t('flows.noMatch')}
        error={issue('members') ?? serverFields.members}
        data-testid="queue-members"
        comboboxProps={{ withinPortal: true }}
      />
      <MultiSelect
        label={t('flows.queues.agents')}
        description={t('flows.queues.agentsHint')}
        data={users}
        value={form.agents ?? []}
        onChange={(v) => set({ agents: v })}
        searchable
        limit={50}
        nothingFoundMessage={t('flows.noMatch')}
        error={issue('agents') ?? serverFields.agents}
        data-testid="queue-agents"
        comboboxProps={{ withinPortal: true }}
      />
      <Group grow align="flex-start">
        <NumberInput
          label={t('flows.queues.ringTime')}
          value={form.ring_time}
          min={1}
          max={120}
          onChange={(v) => set({ ring_time: seconds(v) })}
          error={issue('ring_time')}
        />
        <NumberInput
          label={t('flows.queues.maxWait')}
          value={form.max_wait}
          min={0}
          max={86_400}
          onChange={(v) => set({ max_wait: seconds(v) })}
          error={issue('max_wait')}
        />
      </Group>
      <DestinationSelect
        label={t('flows.queues.failover')}
        value={form.failover_dest}
        onChange={(v) => set({ failover_dest: v })}
        exclude={queue ? queueDestination(queue.extension) : undefined}
        error={issue('failover_dest') ? t('flows.chooseDestination') : serverFields.failover_dest}
        testId="queue-failover"
      />
      <Select
        label={t('flows.queues.music')}
        data={[
          ...music.map((m) => (m.value === 'default' ? { ...m, label: t('flows.queues.musics.default') } : m)),
          { value: 'ringing', label: t('flows.queues.musics.ringing') },
        ]}
        data-testid="queue-music"
        value={form.music ?? 'default'}
        onChange={(v) => set({ music: (v ?? 'default') as QueueWrite['music'] })}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
      />
      <Checkbox
        label={t('flows.queues.announcePosition')}
        checked={form.announce_position ?? false}
        onChange={(e) => set({ announce_position: e.currentTarget.checked })}
      />
      <Select
        label={t('callRecording.policy')}
        description={t('callRecording.help')}
        data={recordingPolicies.map((p) => ({ value: p, label: t(`callRecording.policies.${p}`) }))}
        value={form.recording ?? 'on_demand'}
        onChange={(v) => set({ recording: (v ?? 'on_demand') as RecordingPolicy })}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
        data-testid="queue-recording"
      />
    </FlowFormModal>
  );
}

/** Call flows › Queues: callers wait for the members and agents, then go to the failover destination. */
export function QueuesPage() {
  const { t } = useTranslation();
  const destinationLabel = useDestinationLabel();
  return (
    <FlowListPage<Queue>
      title={t('flows.queues.title')}
      intro={t('flows.queues.intro')}
      createLabel={t('flows.queues.create')}
      empty={t('flows.queues.empty')}
      queryKey="queues"
      load={flowsApi.queues}
      keyOf={(q) => q.id}
      nameOf={(q) => `${q.extension} ${q.name}`}
      columns={[
        { header: t('flows.queues.extension'), cell: (q) => q.extension, strong: true },
        { header: t('flows.name'), cell: (q) => q.name },
        { header: t('flows.queues.strategy'), cell: (q) => t(`flows.queues.strategies.${q.strategy}`) },
        {
          header: t('flows.queues.people'),
          cell: (q) => t('flows.queues.memberCount', { members: q.members.length, agents: q.agents.length }),
        },
        {
          header: t('flows.queues.codes'),
          cell: (q) => t('flows.queues.codesValue', { login: q.login_code, pause: q.pause_code }),
        },
        { header: t('flows.queues.failover'), cell: (q) => destinationLabel(q.failover_dest) },
      ]}
      remove={(q) => flowsApi.removeQueue(q.id)}
      testId="queues"
      rowTestId={(q) => `queue-${q.extension}`}
      modal={(q, close, saved) => <QueueModal queue={q} onClose={close} onSaved={saved} />}
    />
  );
}
