import {
  CONFERENCE_MAX_MEMBERS,
  type Conference,
  type ConferenceWrite,
  conferenceWriteSchema,
} from '@centralino/contract';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Loader,
  Modal,
  NumberInput,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconUsers } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ApiError } from '../../api/client.ts';
import { FlowFormModal, useFlowForm } from '../flows/FlowFormModal.tsx';
import { FlowListPage } from '../flows/FlowListPage.tsx';
import { useMusicChoices } from '../music/MusicPage.tsx';
import { conferencesApi } from './conferencesApi.ts';
import { ParticipantsTable } from './ParticipantsTable.tsx';

/** The draft: PINs start empty; on an existing room an empty PIN field means "keep" unless "remove" is ticked. */
interface Draft {
  extension: string;
  name: string;
  user_pin: string;
  admin_pin: string;
  max_members: number;
  music_when_alone: boolean;
  music_class: string;
  announce_join_leave: boolean;
  record: boolean;
  clear_user_pin: boolean;
  clear_admin_pin: boolean;
}

/** The body: a PIN left empty on an existing room is left out (kept), or '' when it is to be removed. */
function bodyOf(d: Draft, existing: boolean): ConferenceWrite {
  const pin = (value: string, clear: boolean) => (value !== '' ? value : existing && !clear ? undefined : '');
  return {
    extension: d.extension,
    name: d.name,
    user_pin: pin(d.user_pin, d.clear_user_pin),
    admin_pin: pin(d.admin_pin, d.clear_admin_pin),
    max_members: d.max_members,
    music_when_alone: d.music_when_alone,
    music_class: d.music_class,
    announce_join_leave: d.announce_join_leave,
    record: d.record,
  };
}

function ConferenceModal({
  room,
  onClose,
  onSaved,
}: {
  room: Conference | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const existing = room !== null;
  const music = useMusicChoices();
  const { form, set, issue, serverFields, modal } = useFlowForm<Draft, ConferenceWrite>({
    initial: {
      extension: room?.extension ?? '',
      name: room?.name ?? '',
      user_pin: '',
      admin_pin: '',
      max_members: room?.max_members ?? 0,
      music_when_alone: room?.music_when_alone ?? true,
      music_class: room?.music_class ?? 'default',
      announce_join_leave: room?.announce_join_leave ?? false,
      record: room?.record ?? false,
      clear_user_pin: false,
      clear_admin_pin: false,
    },
    // The draft holds the "remove" boxes: what is checked is the body it stands for, as the server checks it.
    schema: z
      .custom<Draft>()
      .transform((d) => bodyOf(d, existing))
      .pipe(conferenceWriteSchema) as unknown as z.ZodType<ConferenceWrite>,
    write: (body) => (room ? conferencesApi.update(room.id, body) : conferencesApi.create(body)),
    onSaved,
    onClose,
  });
  const shown = (field: keyof ConferenceWrite) => issue(field) ?? serverFields[field];
  const pinHint = (has: boolean | undefined) => (existing && has ? t('conferences.pinKept') : t('conferences.pinHint'));
  return (
    <FlowFormModal title={room ? t('conferences.editTitle') : t('conferences.create')} size="lg" {...modal}>
      <Group grow align="flex-start">
        <TextInput
          label={t('conferences.extension')}
          value={form.extension}
          inputMode="numeric"
          onChange={(e) => set({ extension: e.currentTarget.value })}
          error={issue('extension') ? t('conferences.extensionError') : serverFields.extension}
          data-autofocus
        />
        <TextInput
          label={t('flows.name')}
          value={form.name}
          onChange={(e) => set({ name: e.currentTarget.value })}
          error={issue('name') ? t('flows.nameError') : serverFields.name}
        />
      </Group>
      <Group grow align="flex-start">
        <Stack gap={4}>
          <TextInput
            label={t('conferences.userPin')}
            description={pinHint(room?.has_user_pin)}
            value={form.user_pin}
            inputMode="numeric"
            autoComplete="off"
            onChange={(e) => set({ user_pin: e.currentTarget.value })}
            error={shown('user_pin') ? t('conferences.pinError') : undefined}
            data-testid="conference-user-pin"
          />
          {existing && room?.has_user_pin ? (
            <Checkbox
              size="xs"
              label={t('conferences.removePin')}
              checked={form.clear_user_pin}
              onChange={(e) => set({ clear_user_pin: e.currentTarget.checked })}
            />
          ) : null}
        </Stack>
        <Stack gap={4}>
          <TextInput
            label={t('conferences.adminPin')}
            description={pinHint(room?.has_admin_pin)}
            value={form.admin_pin}
            inputMode="numeric"
            autoComplete="off"
            onChange={(e) => set({ admin_pin: e.currentTarget.value })}
            error={
              shown('admin_pin')
                ? form.admin_pin !== '' && form.admin_pin === form.user_pin
                  ? t('conferences.pinsEqual')
                  : (serverFields.admin_pin ?? t('conferences.pinError'))
                : undefined
            }
            data-testid="conference-admin-pin"
          />
          {existing && room?.has_admin_pin ? (
            <Checkbox
              size="xs"
              label={t('conferences.removePin')}
              checked={form.clear_admin_pin}
              onChange={(e) => set({ clear_admin_pin: e.currentTarget.checked })}
            />
          ) : null}
        </Stack>
      </Group>
      <NumberInput
        label={t('conferences.maxMembers')}
        description={t('conferences.maxMembersHint', { max: CONFERENCE_MAX_MEMBERS })}
        value={form.max_members}
        min={0}
        max={CONFERENCE_MAX_MEMBERS}
        onChange={(v) => set({ max_members: typeof v === 'number' ? v : Number.parseInt(v, 10) || 0 })}
        error={issue('max_members') ? t('conferences.maxMembersError', { max: CONFERENCE_MAX_MEMBERS }) : undefined}
      />
      <Checkbox
        label={t('conferences.music')}
        checked={form.music_when_alone}
        onChange={(e) => set({ music_when_alone: e.currentTarget.checked })}
      />
      <Select
        label={t('conferences.musicClass')}
        data={music}
        value={form.music_class}
        disabled={!form.music_when_alone}
        onChange={(v) => set({ music_class: v ?? 'default' })}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
      />
      <Checkbox
        label={t('conferences.announce')}
        description={t('conferences.announceHint')}
        checked={form.announce_join_leave}
        onChange={(e) => set({ announce_join_leave: e.currentTarget.checked })}
      />
      <Checkbox
        label={t('conferences.record')}
        description={t('conferences.recordHint')}
        checked={form.record}
        onChange={(e) => set({ record: e.currentTarget.checked })}
      />
    </FlowFormModal>
  );
}

/** Who is in a room now, polled while open; Mute and Kick for accounts that may write. */
function ParticipantsModal({ room, onClose }: { room: Conference; onClose: () => void }) {
  const { t } = useTranslation();
  const key = ['conference-participants', room.id];
  const label = `${room.extension} ${room.name}`;
  const list = useQuery({
    queryKey: key,
    queryFn: () => conferencesApi.participants(room.id),
    refetchInterval: 2000,
    retry: false,
  });
  return (
    <Modal opened onClose={onClose} title={t('conferences.participantsTitle', { room: label })} size="lg">
      <Stack>
        {list.error ? (
          <Alert color="red">{list.error instanceof ApiError ? list.error.body.detail : String(list.error)}</Alert>
        ) : !list.data ? (
          <Loader aria-label={t('app.loading')} />
        ) : list.data.length === 0 ? (
          <Text c="dimmed">{t('conferences.nobody')}</Text>
        ) : (
          <ParticipantsTable roomId={room.id} roomLabel={label} participants={list.data} refresh={key} />
        )}
        <Button variant="default" onClick={onClose} style={{ alignSelf: 'flex-end' }}>
          {t('flows.picture.close')}
        </Button>
      </Stack>
    </Modal>
  );
}

/** Call flows › Conferences: rooms callers and phones dial, with their PINs, limits and sounds. */
export function ConferencesPage() {
  const { t } = useTranslation();
  const [watching, setWatching] = useState<Conference | null>(null);
  const yesNo = (v: boolean) => (v ? t('flows.yes') : t('flows.no'));
  return (
    <>
      <FlowListPage<Conference>
        title={t('conferences.title')}
        intro={t('conferences.intro')}
        createLabel={t('conferences.create')}
        empty={t('conferences.empty')}
        queryKey="conferences"
        load={conferencesApi.list}
        keyOf={(r) => r.id}
        nameOf={(r) => `${r.extension} ${r.name}`}
        columns={[
          { header: t('conferences.extension'), cell: (r) => r.extension, strong: true },
          { header: t('flows.name'), cell: (r) => r.name },
          {
            header: t('conferences.pins'),
            cell: (r) =>
              [r.has_user_pin ? t('conferences.userPin') : '', r.has_admin_pin ? t('conferences.adminPin') : '']
                .filter(Boolean)
                .join(', ') || t('conferences.noPin'),
          },
          {
            header: t('conferences.maxMembersShort'),
            cell: (r) => (r.max_members === 0 ? t('conferences.noLimit') : String(r.max_members)),
          },
          { header: t('conferences.recordShort'), cell: (r) => yesNo(r.record) },
        ]}
        remove={(r) => conferencesApi.remove(r.id)}
        testId="conferences"
        rowTestId={(r) => `conference-${r.extension}`}
        modal={(r, close, saved) => <ConferenceModal room={r} onClose={close} onSaved={saved} />}
        extraActions={(r) => (
          <Button variant="default" size="xs" leftSection={<IconUsers size={14} />} onClick={() => setWatching(r)}>
            {t('conferences.participants')}
          </Button>
        )}
      />
      {watching ? <ParticipantsModal room={watching} onClose={() => setWatching(null)} /> : null}
    </>
  );
}
