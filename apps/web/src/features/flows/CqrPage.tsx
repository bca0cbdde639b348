import { CQR_MAX_TIMEOUT_SECONDS, type Cqr, type CqrWrite, cqrDestination, cqrWriteSchema } from '@centralino/contract';
import { ActionIcon, Button, Group, Modal, NumberInput, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { notifyError } from '../../components/notify.ts';
import { cardsApi } from '../cards/cardsApi.ts';
import { DestinationSelect } from './DestinationSelect.tsx';
import { FlowListPage, useDestinationLabel } from './FlowListPage.tsx';
import { flowsApi } from './flowsApi.ts';

const EMPTY: CqrWrite = { name: '', source_id: 0, query: '', timeout: 3, entries: [], default_dest: '' };

function CqrModal({ cqr, onClose, onSaved }: { cqr: Cqr | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const sources = useQuery({ queryKey: ['cardsources'], queryFn: cardsApi.sources });
  const [form, setForm] = useState<CqrWrite>(
    cqr
      ? {
          name: cqr.name,
          source_id: cqr.source_id,
          query: cqr.query,
          timeout: cqr.timeout,
          entries: cqr.entries,
          default_dest: cqr.default_dest,
        }
      : EMPTY,
  );
  const [touched, setTouched] = useState(false);
  const [serverFields, setServerFields] = useState<Record<string, string>>({});
  const parsed = cqrWriteSchema.safeParse(form);
  const invalidPath = (path: string) =>
    touched && !parsed.success && parsed.error.issues.some((i) => i.path.join('.') === path);
  const set = (patch: Partial<CqrWrite>) => setForm((f) => ({ ...f, ...patch }));
  const setEntry = (index: number, patch: Partial<CqrWrite['entries'][number]>) =>
    set({ entries: form.entries.map((e, i) => (i === index ? { ...e, ...patch } : e)) });
  // A CQR may not send calls to itself.
  const exclude = cqr ? cqrDestination(cqr.id) : undefined;
  const save = useMutation({
    mutationFn: async () => {
      const body = cqrWriteSchema.parse(form);
      if (cqr) await flowsApi.updateCqr(cqr.id, body);
      else await flowsApi.createCqr(body);
    },
    onSuccess: onSaved,
    onError: (e) => {
      if (e instanceof ApiError && e.body.fields) setServerFields(e.body.fields);
      notifyError(t('flows.saveFailed'), e);
    },
  });
  return (
    <Modal opened onClose={onClose} title={cqr ? t('flows.cqr.editTitle') : t('flows.cqr.create')} size="lg">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          if (parsed.success) save.mutate();
        }}
      >
        <Stack>
          <TextInput
            label={t('flows.name')}
            value={form.name}
            onChange={(e) => set({ name: e.currentTarget.value })}
            error={invalidPath('name') ? t('flows.nameError') : serverFields.name}
            data-autofocus
          />
          <Select
            label={t('flows.cqr.source')}
            data={(sources.data ?? []).map((s) => ({ value: String(s.id), label: s.name }))}
            value={form.source_id ? String(form.source_id) : null}
            onChange={(v) => set({ source_id: v ? Number(v) : 0 })}
            placeholder={t('flows.cqr.chooseSource')}
            error={invalidPath('source_id') ? t('flows.cqr.chooseSource') : serverFields.source_id}
            searchable
            nothingFoundMessage={t('flows.noMatch')}
            comboboxProps={{ withinPortal: true }}
          />
          <Textarea
            label={t('flows.cqr.query')}
            value={form.query}
            onChange={(e) => set({ query: e.currentTarget.value })}
            error={invalidPath('query') ? t('flows.cqr.queryError') : serverFields.query}
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
            error={invalidPath('timeout') ? t('flows.cqr.timeoutError') : serverFields.timeout}
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
                error={invalidPath(`entries.${i}.value`) ? t('flows.cqr.valueError') : undefined}
                w={160}
              />
              <DestinationSelect
                label={t('flows.cqr.entryDestination', { n: i + 1 })}
                value={entry.destination}
                onChange={(v) => setEntry(i, { destination: v })}
                exclude={exclude}
                error={
                  invalidPath(`entries.${i}.destination`)
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
            error={invalidPath('default_dest') ? t('flows.chooseDestination') : serverFields.default_dest}
            testId="cqr-default"
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('flows.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('flows.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
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
