import {
  type Announcement,
  type AnnouncementWrite,
  announcementDestination,
  announcementWriteSchema,
  IVR_SELECTIONS,
} from '@centralino/contract';
import { Checkbox, Select } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DestinationSelect } from './DestinationSelect.tsx';
import { FlowFormModal, FlowNameInput, useFlowForm } from './FlowFormModal.tsx';
import { FlowListPage, useDestinationLabel } from './FlowListPage.tsx';
import { flowsApi } from './flowsApi.ts';

const EMPTY: AnnouncementWrite = {
  description: '',
  recording_id: null,
  allow_skip: false,
  post_dest: '',
  return_ivr: false,
  noanswer: false,
  repeat_msg: '',
};

/** The recording picker of announcements and IVRs. */
export function RecordingSelect({
  label,
  value,
  onChange,
}: {
  label: string;
  value: number | null;
  onChange: (id: number | null) => void;
}) {
  const { t } = useTranslation();
  const recordings = useQuery({ queryKey: ['recordings'], queryFn: flowsApi.recordings });
  return (
    <Select
      label={label}
      data={(recordings.data ?? []).map((r) => ({ value: String(r.id), label: r.displayname }))}
      value={value === null ? null : String(value)}
      onChange={(v) => onChange(v ? Number(v) : null)}
      clearable
      searchable
      placeholder={t('flows.noRecording')}
      nothingFoundMessage={t('flows.noMatch')}
      comboboxProps={{ withinPortal: true }}
    />
  );
}

function AnnouncementModal({
  announcement,
  onClose,
  onSaved,
}: {
  announcement: Announcement | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const { form, set, invalid, serverFields, modal } = useFlowForm({
    initial: announcement ?? EMPTY,
    schema: announcementWriteSchema,
    write: (body) =>
      announcement ? flowsApi.updateAnnouncement(announcement.id, body) : flowsApi.createAnnouncement(body),
    onSaved,
    onClose,
  });
  return (
    <FlowFormModal
      title={announcement ? t('flows.announcements.editTitle') : t('flows.announcements.create')}
      {...modal}
    >
      <FlowNameInput
        value={form.description}
        onChange={(name) => set({ description: name })}
        invalid={invalid('description')}
        serverError={serverFields.name}
      />
      <RecordingSelect
        label={t('flows.announcements.recording')}
        value={form.recording_id}
        onChange={(id) => set({ recording_id: id })}
      />
      <DestinationSelect
        label={t('flows.announcements.destination')}
        value={form.post_dest}
        onChange={(v) => set({ post_dest: v })}
        exclude={announcement ? announcementDestination(announcement.id) : undefined}
        error={invalid('post_dest') ? t('flows.chooseDestination') : serverFields.post_dest}
        testId="announcement-destination"
      />
      <Checkbox
        label={t('flows.announcements.allowSkip')}
        checked={form.allow_skip ?? false}
        onChange={(e) => set({ allow_skip: e.currentTarget.checked })}
      />
      <Select
        label={t('flows.announcements.repeat')}
        data={[
          { value: '', label: t('flows.announcements.noRepeat') },
          ...IVR_SELECTIONS.map((k) => ({ value: k, label: k })),
        ]}
        value={form.repeat_msg ?? ''}
        onChange={(v) => set({ repeat_msg: (v ?? '') as AnnouncementWrite['repeat_msg'] })}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
      />
      <Checkbox
        label={t('flows.announcements.returnIvr')}
        checked={form.return_ivr ?? false}
        onChange={(e) => set({ return_ivr: e.currentTarget.checked })}
      />
      <Checkbox
        label={t('flows.announcements.noAnswer')}
        checked={form.noanswer ?? false}
        onChange={(e) => set({ noanswer: e.currentTarget.checked })}
      />
    </FlowFormModal>
  );
}

/** Call flows › Announcements: a recording, then a destination. */
export function AnnouncementsPage() {
  const { t } = useTranslation();
  const recordings = useQuery({ queryKey: ['recordings'], queryFn: flowsApi.recordings });
  const destinationLabel = useDestinationLabel();
  const recordingName = (id: number | null) =>
    id === null ? '—' : (recordings.data?.find((r) => r.id === id)?.displayname ?? String(id));
  return (
    <FlowListPage<Announcement>
      title={t('flows.announcements.title')}
      intro={t('flows.announcements.intro')}
      createLabel={t('flows.announcements.create')}
      empty={t('flows.announcements.empty')}
      queryKey="announcements"
      load={flowsApi.announcements}
      keyOf={(a) => a.id}
      nameOf={(a) => a.description}
      columns={[
        { header: t('flows.name'), cell: (a) => a.description, strong: true },
        { header: t('flows.announcements.recording'), cell: (a) => recordingName(a.recording_id) },
        { header: t('flows.announcements.destination'), cell: (a) => destinationLabel(a.post_dest) },
      ]}
      remove={(a) => flowsApi.removeAnnouncement(a.id)}
      invalidates={['recordings']}
      testId="announcements"
      rowTestId={(a) => `announcement-${a.description}`}
      modal={(a, close, saved) => <AnnouncementModal announcement={a} onClose={close} onSaved={saved} />}
    />
  );
}
