import {
  FOLLOWME_STRATEGIES,
  FOLLOWME_TIME,
  type FollowMe,
  type FollowMeStrategy,
  type FollowMeWrite,
  followMeSchema,
} from '@centralino/contract';
import {
  ActionIcon,
  Button,
  Checkbox,
  Fieldset,
  Group,
  Loader,
  NumberInput,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { IconArrowUp, IconPhoneOutgoing, IconPlus, IconX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { FlowFormModal, useFlowForm } from '../flows/FlowFormModal.tsx';
import { flowsApi } from '../flows/flowsApi.ts';
import { usersApi } from './usersApi.ts';

/** A number of the list: `key` keeps each row's inputs its own while rows move (the schema drops it). */
type Row = FollowMe['legs'][number] & { key: number };
type Draft = Omit<FollowMe, 'legs'> & { legs: Row[] };

const seconds = (v: string | number) => (typeof v === 'number' ? v : Number.parseInt(v, 10) || 0);

function FollowMeForm({
  username,
  extension,
  saved,
  onClose,
}: {
  username: string;
  extension: string;
  saved: FollowMe;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const destinations = useQuery({ queryKey: ['destinations'], queryFn: flowsApi.destinations });
  // Colleagues by main extension ('202 Bob Bianchi'); the user's own rings first anyway.
  const users = Object.values(destinations.data?.Extensions ?? {})
    .map((d) => ({ value: d.destination.split(',')[1] as string, label: d.description }))
    .filter((u) => u.value !== extension);
  const nextKey = useRef(0);
  const row = (l: FollowMe['legs'][number]): Row => ({ ...l, key: nextKey.current++ });
  const { form, set, issue, serverFields, modal } = useFlowForm<Draft, FollowMeWrite>({
    initial: () => ({ ...saved, legs: saved.legs.map(row) }),
    schema: followMeSchema,
    write: (body) => usersApi.setFollowMe(username, body),
    onSaved: onClose,
    onClose,
  });
  const legs = form.legs;
  const setLeg = (index: number, patch: Partial<FollowMe['legs'][number]>) =>
    set({ legs: legs.map((l, i) => (i === index ? ({ ...l, ...patch } as Row) : l)) });
  const move = (index: number) => {
    const list = [...legs];
    [list[index - 1], list[index]] = [list[index] as Row, list[index - 1] as Row];
    set({ legs: list });
  };
  const numberError = (index: number) =>
    serverFields[`legs.${index}.number`] ??
    (issue('legs', index, 'number')
      ? t(legs[index]?.type === 'external' ? 'followMe.numberError' : 'followMe.userError')
      : undefined);
  const listIssue = issue('legs') !== undefined && legs.every((_, i) => issue('legs', i) === undefined);
  return (
    <FlowFormModal title={t('followMe.title', { username })} size="lg" {...modal}>
      <Text size="sm" c="dimmed">
        {t('followMe.intro')}
      </Text>
      <Switch
        label={t('followMe.enabled')}
        checked={form.enabled}
        onChange={(e) => set({ enabled: e.currentTarget.checked })}
        data-autofocus
      />
      <Group grow align="flex-start">
        <NumberInput
          label={t('followMe.preRing')}
          description={t('followMe.preRingHint')}
          value={form.pre_ring}
          min={FOLLOWME_TIME.min}
          max={FOLLOWME_TIME.max}
          onChange={(v) => set({ pre_ring: seconds(v) })}
          error={issue('pre_ring') ? t('followMe.timeError') : serverFields.pre_ring}
        />
        <Select
          label={t('followMe.strategy')}
          data={FOLLOWME_STRATEGIES.map((s) => ({ value: s, label: t(`followMe.strategies.${s}`) }))}
          value={form.strategy}
          onChange={(v) => set({ strategy: (v ?? 'hunt') as FollowMeStrategy })}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
        />
      </Group>
      <Fieldset legend={t('followMe.legs')}>
        <Stack gap="xs">
          {legs.map((l, index) => {
            const n = index + 1;
            return (
              <Group key={l.key} align="flex-start" wrap="nowrap" data-testid={`followme-leg-${index}`}>
                {l.type === 'extension' ? (
                  <Select
                    style={{ flex: 1 }}
                    label={t('followMe.userLabel', { n })}
                    data={users}
                    value={l.number || null}
                    onChange={(v) => setLeg(index, { number: v ?? '' })}
                    searchable
                    limit={50}
                    nothingFoundMessage={t('flows.noMatch')}
                    error={numberError(index)}
                    comboboxProps={{ withinPortal: true }}
                  />
                ) : (
                  <TextInput
                    style={{ flex: 1 }}
                    label={t('followMe.numberLabel', { n })}
                    value={l.number}
                    inputMode="tel"
                    onChange={(e) => setLeg(index, { number: e.currentTarget.value })}
                    error={numberError(index)}
                  />
                )}
                <NumberInput
                  w={130}
                  label={t('followMe.ringTimeLabel', { n })}
                  value={l.ring_time}
                  min={FOLLOWME_TIME.min}
                  max={FOLLOWME_TIME.max}
                  onChange={(v) => setLeg(index, { ring_time: seconds(v) })}
                  error={
                    issue('legs', index, 'ring_time')
                      ? t('followMe.timeError')
                      : serverFields[`legs.${index}.ring_time`]
                  }
                />
                <ActionIcon
                  variant="subtle"
                  mt={28}
                  disabled={index === 0}
                  aria-label={t('followMe.moveUp', { n })}
                  onClick={() => move(index)}
                >
                  <IconArrowUp size={16} />
                </ActionIcon>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  mt={28}
                  aria-label={t('followMe.remove', { n })}
                  onClick={() => set({ legs: legs.filter((_, i) => i !== index) })}
                >
                  <IconX size={16} />
                </ActionIcon>
              </Group>
            );
          })}
          {listIssue && (
            <Text size="sm" c="red" role="alert">
              {t('followMe.legsError')}
            </Text>
          )}
          <Group>
            <Button
              variant="light"
              leftSection={<IconPlus size={16} />}
              onClick={() => set({ legs: [...legs, row({ type: 'extension', number: '', ring_time: 20 })] })}
            >
              {t('followMe.addUser')}
            </Button>
            <Button
              variant="light"
              leftSection={<IconPhoneOutgoing size={16} />}
              onClick={() => set({ legs: [...legs, row({ type: 'external', number: '', ring_time: 20 })] })}
            >
              {t('followMe.addExternal')}
            </Button>
          </Group>
        </Stack>
      </Fieldset>
      <Checkbox
        label={t('followMe.confirm')}
        description={t('followMe.confirmHint')}
        checked={form.confirm_external}
        onChange={(e) => set({ confirm_external: e.currentTarget.checked })}
      />
      <Text size="sm" c="dimmed">
        {t('followMe.unanswered')}
      </Text>
    </FlowFormModal>
  );
}

/**
 * A user's follow-me (issue 42): the numbers rung once the user's own phones went unanswered, edited from the
 * user's row of the extensions screen.
 */
export function FollowMeModal({
  username,
  extension,
  onClose,
}: {
  username: string;
  extension: string;
  onClose: () => void;
}) {
  const saved = useQuery({ queryKey: ['followme', username], queryFn: () => usersApi.followMe(username), gcTime: 0 });
  if (!saved.data) return saved.isError ? null : <Loader size="sm" />;
  return <FollowMeForm username={username} extension={extension} saved={saved.data} onClose={onClose} />;
}
