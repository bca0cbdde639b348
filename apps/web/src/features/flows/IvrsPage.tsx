import { type Ivr, type IvrWrite, ivrWriteSchema } from '@centralino/contract';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Checkbox,
  Fieldset,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconAlertTriangle, IconPlus, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RecordingSelect } from './AnnouncementsPage.tsx';
import { DestinationSelect } from './DestinationSelect.tsx';
import { FlowFormModal, FlowNameInput, useFlowForm } from './FlowFormModal.tsx';
import { FlowListPage } from './FlowListPage.tsx';
import { flowsApi } from './flowsApi.ts';
import { chooseKey, KEY_ORDER, nextFreeKey } from './ivrKeys.ts';

type Form = Required<Omit<IvrWrite, 'entries'>> & { entries: { selection: string; dest: string }[] };

const EMPTY: Form = {
  name: '',
  description: '',
  announcement: null,
  directdial: false,
  timeout_time: 10,
  invalid_loops: 3,
  invalid_destination: '',
  timeout_loops: 3,
  timeout_destination: '',
  entries: [],
};

function IvrModal({ ivr, onClose, onSaved }: { ivr: Ivr | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const { form, set, issue, serverFields, modal, nameInput } = useFlowForm({
    initial: (): Form => (ivr ? { ...ivr } : EMPTY),
    schema: ivrWriteSchema,
    write: (body) => (ivr ? flowsApi.updateIvr(ivr.id, body) : flowsApi.createIvr(body)),
    onSaved,
    onClose,
  });
  // Said after a key taken by another option was chosen and the two options swapped keys.
  const [swapNote, setSwapNote] = useState<string | null>(null);
  const setEntry = (index: number, patch: Partial<Form['entries'][number]>) =>
    set({ entries: form.entries.map((e, i) => (i === index ? { ...e, ...patch } : e)) });
  const setKey = (index: number, key: string) => {
    const { entries, swappedWith } = chooseKey(form.entries, index, key);
    set({ entries });
    setSwapNote(swappedWith ? t('flows.ivrs.swapped', { key, other: swappedWith.key }) : null);
  };
  const free = nextFreeKey(form.entries);
  return (
    <FlowFormModal title={ivr ? t('flows.ivrs.editTitle') : t('flows.ivrs.create')} size="xl" {...modal}>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <FlowNameInput {...nameInput('name')} />
        <TextInput
          label={t('flows.description')}
          value={form.description}
          onChange={(e) => set({ description: e.currentTarget.value })}
        />
      </SimpleGrid>
      <RecordingSelect
        label={t('flows.ivrs.announcement')}
        value={form.announcement}
        onChange={(id) => set({ announcement: id })}
      />
      {form.announcement === null && (
        <Alert color="yellow" icon={<IconAlertTriangle size={18} />} data-testid="ivr-no-recording">
          {t('flows.ivrs.noRecording')}
        </Alert>
      )}
      <Checkbox
        label={t('flows.ivrs.directDial')}
        checked={form.directdial}
        onChange={(e) => set({ directdial: e.currentTarget.checked })}
      />
      <Fieldset legend={t('flows.ivrs.options')}>
        <Stack gap="xs">
          {form.entries.length === 0 && <Text c="dimmed">{t('flows.ivrs.noOptions')}</Text>}
          {form.entries.map((entry, index) => (
            <Group key={entry.selection} align="flex-start" wrap="nowrap" data-testid={`ivr-option-${index}`}>
              <Select
                w={120}
                label={t('flows.ivrs.key')}
                // Every key: one another option holds is offered too, and choosing it swaps the two keys.
                data={KEY_ORDER.map((key) => ({
                  value: key,
                  label:
                    key !== entry.selection && form.entries.some((e) => e.selection === key)
                      ? t('flows.ivrs.keySwap', { key })
                      : key,
                }))}
                value={entry.selection}
                onChange={(v) => v && setKey(index, v)}
                allowDeselect={false}
                comboboxProps={{ withinPortal: true }}
              />
              <div style={{ flex: 1 }}>
                <DestinationSelect
                  label={t('flows.ivrs.goesTo')}
                  value={entry.dest}
                  onChange={(v) => setEntry(index, { dest: v })}
                  error={
                    issue('entries', index, 'dest')
                      ? t('flows.chooseDestination')
                      : serverFields[`entries.${index}.dest`]
                  }
                />
              </div>
              <ActionIcon
                variant="subtle"
                color="red"
                mt={28}
                aria-label={t('flows.ivrs.removeOption', { key: entry.selection })}
                onClick={() => set({ entries: form.entries.filter((_, i) => i !== index) })}
              >
                <IconX size={16} />
              </ActionIcon>
            </Group>
          ))}
          <Text size="sm" role="status" data-testid="ivr-swap-note">
            {swapNote}
          </Text>
          <Group>
            <Button
              variant="light"
              leftSection={<IconPlus size={16} />}
              disabled={free === undefined}
              aria-describedby={free === undefined ? 'ivr-all-keys-used' : undefined}
              onClick={() => {
                if (free) set({ entries: [...form.entries, { selection: free, dest: '' }] });
              }}
            >
              {t('flows.ivrs.addOption')}
            </Button>
            {free === undefined && (
              <Text size="sm" c="dimmed" id="ivr-all-keys-used">
                {t('flows.ivrs.allKeysUsed')}
              </Text>
            )}
          </Group>
        </Stack>
      </Fieldset>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <NumberInput
          label={t('flows.ivrs.timeout')}
          min={1}
          max={60}
          value={form.timeout_time}
          onChange={(v) => set({ timeout_time: Number(v) || 0 })}
          error={issue('timeout_time') ? t('flows.ivrs.secondsError') : undefined}
        />
        <NumberInput
          label={t('flows.ivrs.timeoutLoops')}
          min={0}
          max={10}
          value={form.timeout_loops}
          onChange={(v) => set({ timeout_loops: Number(v) || 0 })}
          error={issue('timeout_loops') ? t('flows.ivrs.retriesError') : undefined}
        />
        <NumberInput
          label={t('flows.ivrs.invalidLoops')}
          min={0}
          max={10}
          value={form.invalid_loops}
          onChange={(v) => set({ invalid_loops: Number(v) || 0 })}
          error={issue('invalid_loops') ? t('flows.ivrs.retriesError') : undefined}
        />
      </SimpleGrid>
      <DestinationSelect
        label={t('flows.ivrs.timeoutDestination')}
        value={form.timeout_destination}
        onChange={(v) => set({ timeout_destination: v })}
        error={issue('timeout_destination') ? t('flows.chooseDestination') : serverFields.timeout_destination}
        testId="ivr-timeout-destination"
      />
      <DestinationSelect
        label={t('flows.ivrs.invalidDestination')}
        value={form.invalid_destination}
        onChange={(v) => set({ invalid_destination: v })}
        error={issue('invalid_destination') ? t('flows.chooseDestination') : serverFields.invalid_destination}
        testId="ivr-invalid-destination"
      />
    </FlowFormModal>
  );
}

/** Call flows › IVR: menus of keys leading to destinations. */
export function IvrsPage() {
  const { t } = useTranslation();
  return (
    <FlowListPage<Ivr>
      title={t('flows.ivrs.title')}
      intro={t('flows.ivrs.intro')}
      createLabel={t('flows.ivrs.create')}
      empty={t('flows.ivrs.empty')}
      queryKey="ivrs"
      load={flowsApi.ivrs}
      keyOf={(ivr) => ivr.id}
      nameOf={(ivr) => ivr.name}
      columns={[
        {
          header: t('flows.name'),
          cell: (ivr) => (
            <>
              <Text fw={600}>{ivr.name}</Text>
              {ivr.announcement === null && (
                <Badge color="yellow" variant="light" leftSection={<IconAlertTriangle size={12} />}>
                  {t('flows.ivrs.noRecordingShort')}
                </Badge>
              )}
              {ivr.description && (
                <Text size="sm" c="dimmed">
                  {ivr.description}
                </Text>
              )}
            </>
          ),
        },
        { header: t('flows.ivrs.options'), cell: (ivr) => ivr.entries.map((e) => e.selection).join(' ') || '—' },
        { header: t('flows.ivrs.directDialShort'), cell: (ivr) => (ivr.directdial ? t('flows.yes') : t('flows.no')) },
      ]}
      remove={(ivr) => flowsApi.removeIvr(ivr.id)}
      invalidates={['recordings']}
      testId="ivrs"
      rowTestId={(ivr) => `ivr-${ivr.name}`}
      modal={(ivr, close, saved) => <IvrModal ivr={ivr} onClose={close} onSaved={saved} />}
    />
  );
}
