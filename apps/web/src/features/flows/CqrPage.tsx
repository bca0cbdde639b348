import { CQR_MAX_TIMEOUT_SECONDS, type Cqr, type CqrWrite, cqrDestination, cqrWriteSchema } from '@centralino/contract';
import { ActionIcon, Button, Group, NumberInput, Select, Text, Textarea, TextInput } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { cardsApi } from '../cards/cardsApi.ts';
import { DestinationSelect } from './DestinationSelect.tsx';
import { FlowFormModal, FlowNameInput, useFlowForm } from './FlowFormModal.tsx';
import { FlowListPage, useDestinationLabel } from './FlowListPage.tsx';
import { flowsApi } from './flowsApi.ts';

const EMPTY: CqrWrite = { name: '', source_id: 0, query: '', timeout: 3, entries: [], default_dest: '' };

function CqrModal({ cqr, onClose, onSaved }: { cqr: Cqr | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const sources = useQuery({ queryKey: ['cardsources'], queryFn: cardsApi.sources });
  const { form, set, invalid, serverFields, modal, nameInput } = useFlowForm({
    initial: cqr
      ? {
          name: cqr.name,
          source_id: cqr.source_id,
          query: cqr.query,
          timeout: cqr.timeout,
          entries: cqr.entries,
          default_dest: cqr.default_dest,
        }
      : EMPTY,
    schema: cqrWriteSchema,
    write: (body) => (cqr ? flowsApi.updateCqr(cqr.id, body) : flowsApi.createCqr(body)),
    onSaved,
    onClose,
  });
  const setEntry = (index: number, patch: Partial<CqrWrite['entries'][number]>) =>
    set({ entries: form.entries.map((e, i) => (i === index ? { ...e, ...patch } : e)) });
  // A CQR may not send calls to itself.
  const exclude = cqr ? cqrDestination(cqr.id) : undefined;
  return (
    <FlowFormModal title={cqr ? t('flows.cqr.editTitle') : t('flows.cqr.create')} size="lg" {...modal}>
      <FlowNameInput {...nameInput('name')} />
      <Select
        label={t('flows.cqr.source')}
        data={(sources.data ?? []).map((s) => ({ value: String(s.id), label: s.name }))}
        value={form.source_id ? String(form.source_id) : null}
        onChange={(v) => set({ source_id: v ? Number(v) : 0 })}
        placeholder={t('flows.cqr.chooseSource')}
        error={invalid('source_id') ? t('flows.cqr.chooseSource') : serverFields.source_id}
        searchable
        nothingFoundMessage={t('flows.noMatch')}
        comboboxProps={{ withinPortal: true }}
      />
      <Textarea
        label={t('flows.cqr.query')}
        value={form.query}
        onChange={(e) => set({ query: e.currentTarget.value })}
        error={invalid('query') ? t('flows.cqr.queryError') : serverFields.query}
        autosize
        minRows={3}
        styles={{ input: { fontFamily: 'monospace' } }}
      />
      <NumberInput
        label={t('flows.cqr.timeout')}
        value={form.timeout}
        onChange={(v) => set({ timeout: typeof v === 'number' ? v : 0 })}
        min={1}
        max={CQR_MAX_TIMEOUT_SECONDS}
        error={invalid('timeout') ? t('flows.cqr.timeoutError') : serverFields.timeout}
      />
      <Text fw={500} size="sm">
        {t('flows.cqr.entries')}
      </Text>
      {form.entries.map((entry, i) => (
        // Entries have no id of their own; their position is what the server keeps.
        // biome-ignore lint/suspicious/noArrayIndexKey: the position is the entry's identity here.
        <Group key={i} align="flex-end" wrap="nowrap">
          <TextInput
            label={`${t('flows.cqr.value')} ${i + 1}`}
            value={entry.value}
            onChange={(e) => setEntry(i, { value: e.currentTarget.value })}
            error={invalid(`entries.${i}.value`) ? t('flows.cqr.valueError') : undefined}
            w={160}
          />
          <DestinationSelect
            label={t('flows.cqr.entryDestination', { n: i + 1 })}
            value={entry.destination}
            onChange={(v) => setEntry(i, { destination: v })}
            exclude={exclude}
            error={
              invalid(`entries.${i}.destination`)
                ? t('flows.chooseDestination')
                : serverFields[`entries.${i}.destination`]
            }
            testId={`cqr-entry-${i}`}
          />
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={t('flows.cqr.removeEntry', { n: i + 1 })}
            onClick={() => set({ entries: form.entries.filter((_, j) => j !== i) })}
            mb={4}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
      <Group>
        <Button
          variant="light"
          onClick={() => set({ entries: [...form.entries, { value: '', destination: '' }] })}
          disabled={form.entries.length >= 100}
        >
          {t('flows.cqr.addEntry')}
        </Button>
      </Group>
      <DestinationSelect
        label={t('flows.cqr.default')}
        value={form.default_dest}
        onChange={(v) => set({ default_dest: v })}
        exclude={exclude}
        error={invalid('default_dest') ? t('flows.chooseDestination') : serverFields.default_dest}
        testId="cqr-default"
      />
    </FlowFormModal>
  );
}

/** Call flows › Caller query routing: a lookup of the caller in a card source decides the destination. */
export function CqrPage() {
  const { t } = useTranslation();
  const destinationLabel = useDestinationLabel();
  const sources = useQuery({ queryKey: ['cardsources'], queryFn: cardsApi.sources });
  const sourceName = (id: number) => sources.data?.find((s) => s.id === id)?.name ?? String(id);
  return (
    <FlowListPage<Cqr>
      title={t('flows.cqr.title')}
      intro={t('flows.cqr.intro')}
      createLabel={t('flows.cqr.create')}
      empty={t('flows.cqr.empty')}
      queryKey="cqr"
      load={flowsApi.cqrs}
      keyOf={(c) => c.id}
      nameOf={(c) => c.name}
      columns={[
        { header: t('flows.name'), cell: (c) => c.name, strong: true },
        { header: t('flows.cqr.source'), cell: (c) => sourceName(c.source_id) },
        { header: t('flows.cqr.count'), cell: (c) => String(c.entries.length) },
        { header: t('flows.cqr.default'), cell: (c) => destinationLabel(c.default_dest) },
      ]}
      remove={(c) => flowsApi.removeCqr(c.id)}
      testId="cqrs"
      rowTestId={(c) => `cqr-${c.name}`}
      modal={(c, close, saved) => <CqrModal cqr={c} onClose={close} onSaved={saved} />}
    />
  );
}
