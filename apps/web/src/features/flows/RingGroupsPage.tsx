import {
  type RecordingPolicy,
  RING_GROUP_STRATEGIES,
  type RingGroup,
  type RingGroupStrategy,
  type RingGroupWrite,
  recordingPolicies,
  ringGroupDestination,
  ringGroupWriteSchema,
} from '@centralino/contract';
import {
  ActionIcon,
  Button,
  Checkbox,
  Fieldset,
  Group,
  NumberInput,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconArrowUp, IconPhoneOutgoing, IconPlus, IconX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { DestinationSelect } from './DestinationSelect.tsx';
import { FlowFormModal, FlowNameInput, useFlowForm } from './FlowFormModal.tsx';
import { FlowListPage, useDestinationLabel } from './FlowListPage.tsx';
import { flowsApi } from './flowsApi.ts';

/** A member row of the form: `key` keeps each row's inputs its own while rows move (the schema drops it). */
type Row = RingGroupWrite['members'][number] & { key: number };
type Draft = Omit<RingGroupWrite, 'members'> & { members: Row[] };

/** Users to choose members from: the catalogue's extensions ('201 Alice Rossi'), by main extension. */
function useUserOptions() {
  const destinations = useQuery({ queryKey: ['destinations'], queryFn: flowsApi.destinations });
  return Object.values(destinations.data?.Extensions ?? {}).map((d) => ({
    value: d.destination.split(',')[1] as string,
    label: d.description,
  }));
}

function RingGroupModal({
  group,
  onClose,
  onSaved,
}: {
  group: RingGroup | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const users = useUserOptions();
  const nextKey = useRef(0);
  const row = (m: RingGroupWrite['members'][number]): Row => ({ ...m, key: nextKey.current++ });
  const { form, set, issue, serverFields, nameInput, modal } = useFlowForm<Draft, RingGroupWrite>({
    initial: () =>
      group
        ? { ...group, members: group.members.map(row) }
        : {
            extension: '',
            name: '',
            strategy: 'ringall',
            ring_time: 20,
            members: [],
            confirm_external: false,
            failover_dest: '',
            recording: 'on_demand',
          },
    schema: ringGroupWriteSchema,
    write: (body) => (group ? flowsApi.updateRingGroup(group.id, body) : flowsApi.createRingGroup(body)),
    onSaved,
    onClose,
  });
  const members = form.members;
  const setMember = (index: number, patch: Partial<RingGroupWrite['members'][number]>) =>
    set({ members: members.map((m, i) => (i === index ? ({ ...m, ...patch } as Row) : m)) });
  const move = (index: number) => {
    const list = [...members];
    [list[index - 1], list[index]] = [list[index] as Row, list[index - 1] as Row];
    set({ members: list });
  };
  const memberError = (index: number) =>
    serverFields[`members.${index}.number`] ??
    (issue('members', index, 'number')
      ? t(
          members[index]?.type === 'external'
            ? 'flows.ringGroups.memberNumberError'
            : 'flows.ringGroups.memberUserError',
        )
      : undefined);
  const seconds = (v: string | number) => (typeof v === 'number' ? v : Number.parseInt(v, 10) || 0);
  // A problem with the list as a whole (empty, a member twice), not with one row.
  const listIssue = issue('members') !== undefined && members.every((_, i) => issue('members', i) === undefined);
  return (
    <FlowFormModal title={group ? t('flows.ringGroups.editTitle') : t('flows.ringGroups.create')} size="lg" {...modal}>
      <Group grow align="flex-start">
        <TextInput
          label={t('flows.ringGroups.extension')}
          value={form.extension}
          inputMode="numeric"
          onChange={(e) => set({ extension: e.currentTarget.value })}
          error={issue('extension') ? t('flows.ringGroups.extensionError') : serverFields.extension}
          data-autofocus
        />
        <FlowNameInput {...nameInput('name')} />
      </Group>
      <Group grow align="flex-start">
        <Select
          label={t('flows.ringGroups.strategy')}
          data={RING_GROUP_STRATEGIES.map((s) => ({ value: s, label: t(`flows.ringGroups.strategies.${s}`) }))}
          value={form.strategy ?? 'ringall'}
          onChange={(v) => set({ strategy: (v ?? 'ringall') as RingGroupStrategy })}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
          data-testid="ringgroup-strategy"
        />
        <NumberInput
          label={t('flows.ringGroups.ringTime')}
          description={t('flows.ringGroups.ringTimeHint')}
          value={form.ring_time}
          min={1}
          max={300}
          onChange={(v) => set({ ring_time: seconds(v) })}
          error={issue('ring_time') ? t('flows.ringGroups.ringTimeError') : serverFields.ring_time}
        />
      </Group>
      <Fieldset legend={t('flows.ringGroups.members')}>
        <Stack gap="xs">
          {members.map((m, index) => {
            const n = index + 1;
            return (
              <Group key={m.key} align="flex-start" wrap="nowrap" data-testid={`ringgroup-member-${index}`}>
                {m.type === 'extension' ? (
                  <Select
                    style={{ flex: 1 }}
                    label={t('flows.ringGroups.memberUserLabel', { n })}
                    data={users}
                    value={m.number || null}
                    onChange={(v) => setMember(index, { number: v ?? '' })}
                    searchable
                    limit={50}
                    nothingFoundMessage={t('flows.noMatch')}
                    error={memberError(index)}
                    comboboxProps={{ withinPortal: true }}
                  />
                ) : (
                  <TextInput
                    style={{ flex: 1 }}
                    label={t('flows.ringGroups.memberNumberLabel', { n })}
                    value={m.number}
                    inputMode="tel"
                    onChange={(e) => setMember(index, { number: e.currentTarget.value })}
                    error={memberError(index)}
                  />
                )}
                <ActionIcon
                  variant="subtle"
                  mt={28}
                  disabled={index === 0}
                  aria-label={t('flows.ringGroups.moveUp', { n })}
                  onClick={() => move(index)}
                >
                  <IconArrowUp size={16} />
                </ActionIcon>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  mt={28}
                  aria-label={t('flows.ringGroups.removeMember', { n })}
                  onClick={() => set({ members: members.filter((_, i) => i !== index) })}
                >
                  <IconX size={16} />
                </ActionIcon>
              </Group>
            );
          })}
          {listIssue && (
            <Text size="sm" c="red" role="alert">
              {t('flows.ringGroups.membersError')}
            </Text>
          )}
          <Group>
            <Button
              variant="light"
              leftSection={<IconPlus size={16} />}
              onClick={() => set({ members: [...members, row({ type: 'extension', number: '' })] })}
            >
              {t('flows.ringGroups.addUser')}
            </Button>
            <Button
              variant="light"
              leftSection={<IconPhoneOutgoing size={16} />}
              onClick={() => set({ members: [...members, row({ type: 'external', number: '' })] })}
            >
              {t('flows.ringGroups.addExternal')}
            </Button>
          </Group>
        </Stack>
      </Fieldset>
      <Checkbox
        label={t('flows.ringGroups.confirm')}
        description={t('flows.ringGroups.confirmHint')}
        checked={form.confirm_external ?? false}
        onChange={(e) => set({ confirm_external: e.currentTarget.checked })}
      />
      <DestinationSelect
        label={t('flows.ringGroups.failover')}
        value={form.failover_dest}
        onChange={(v) => set({ failover_dest: v })}
        exclude={group ? ringGroupDestination(group.extension) : undefined}
        error={issue('failover_dest') ? t('flows.chooseDestination') : serverFields.failover_dest}
        testId="ringgroup-failover"
      />
      <Select
        label={t('callRecording.policy')}
        description={t('callRecording.help')}
        data={recordingPolicies.map((p) => ({ value: p, label: t(`callRecording.policies.${p}`) }))}
        value={form.recording ?? 'on_demand'}
        onChange={(v) => set({ recording: (v ?? 'on_demand') as RecordingPolicy })}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
        data-testid="ringgroup-recording"
      />
    </FlowFormModal>
  );
}

/** Call flows › Ring groups: one number ringing users and outside numbers, then a destination when unanswered. */
export function RingGroupsPage() {
  const { t } = useTranslation();
  const destinationLabel = useDestinationLabel();
  return (
    <FlowListPage<RingGroup>
      title={t('flows.ringGroups.title')}
      intro={t('flows.ringGroups.intro')}
      createLabel={t('flows.ringGroups.create')}
      empty={t('flows.ringGroups.empty')}
      queryKey="ringgroups"
      load={flowsApi.ringGroups}
      keyOf={(g) => g.id}
      nameOf={(g) => `${g.extension} ${g.name}`}
      columns={[
        { header: t('flows.ringGroups.extension'), cell: (g) => g.extension, strong: true },
        { header: t('flows.name'), cell: (g) => g.name },
        {
          header: t('flows.ringGroups.strategy'),
          cell: (g) => `${t(`flows.ringGroups.strategies.${g.strategy}`)}, ${g.ring_time} s`,
        },
        { header: t('flows.ringGroups.membersColumn'), cell: (g) => g.members.map((m) => m.number).join(', ') },
        { header: t('flows.ringGroups.failover'), cell: (g) => destinationLabel(g.failover_dest) },
      ]}
      remove={(g) => flowsApi.removeRingGroup(g.id)}
      testId="ringgroups"
      rowTestId={(g) => `ringgroup-${g.extension}`}
      modal={(g, close, saved) => <RingGroupModal group={g} onClose={close} onSaved={saved} />}
    />
  );
}
