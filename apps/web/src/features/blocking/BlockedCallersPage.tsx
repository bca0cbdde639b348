import {
  BLOCK_MATCHES,
  BLOCK_RESPONSES,
  type BlockedCaller,
  type BlockedCallerWrite,
  blockedCallerWriteSchema,
  CALL_CLASSES,
  type CallClassPrefixes,
} from '@centralino/contract';
import { Group, MultiSelect, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { WriteButton, WriteFieldset } from '../../components/WriteControls.tsx';
import { DestinationSelect } from '../flows/DestinationSelect.tsx';
import { FlowFormModal, useFlowForm } from '../flows/FlowFormModal.tsx';
import { FlowListPage } from '../flows/FlowListPage.tsx';
import { flowsApi } from '../flows/flowsApi.ts';
import { routesApi } from '../routes/routesApi.ts';
import { blockingApi } from './blockingApi.ts';

type Draft = Omit<BlockedCallerWrite, 'routes'> & { routes: string[] };

function BlockedModal({
  entry,
  onClose,
  onSaved,
}: {
  entry: BlockedCaller | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const recordings = useQuery({ queryKey: ['recordings'], queryFn: flowsApi.recordings });
  const inbound = useQuery({ queryKey: ['inboundroutes'], queryFn: routesApi.inbound });
  const { form, set, issue, serverFields, modal } = useFlowForm<Draft, BlockedCallerWrite>({
    initial: {
      match: entry?.match ?? 'number',
      number: entry?.number ?? '',
      description: entry?.description ?? '',
      response: entry?.response ?? 'busy',
      recording_id: entry?.recording_id ?? null,
      destination: entry?.destination ?? null,
      routes: (entry?.routes ?? []).map(String),
    },
    // The draft keeps route ids as the picker's strings; what is checked is the body, as the server checks it.
    schema: z.preprocess(
      (d) => ({ ...(d as Draft), routes: (d as Draft).routes.map(Number) }),
      blockedCallerWriteSchema,
    ) as unknown as z.ZodType<BlockedCallerWrite>,
    write: (body) => (entry ? blockingApi.update(entry.id, body) : blockingApi.create(body)),
    onSaved,
    onClose,
  });
  const shown = (field: string) => issue(field) ?? serverFields[field];
  return (
    <FlowFormModal title={entry ? t('blocking.editTitle') : t('blocking.create')} size="lg" {...modal}>
      <Group grow align="flex-start">
        <Select
          label={t('blocking.match')}
          data={BLOCK_MATCHES.map((m) => ({ value: m, label: t(`blocking.matches.${m}`) }))}
          value={form.match}
          onChange={(v) => set({ match: (v ?? 'number') as Draft['match'] })}
          allowDeselect={false}
          data-autofocus
        />
        {form.match !== 'anonymous' ? (
          <TextInput
            label={form.match === 'prefix' ? t('blocking.prefix') : t('blocking.number')}
            value={form.number ?? ''}
            inputMode="tel"
            onChange={(e) => set({ number: e.currentTarget.value })}
            error={shown('number')}
            data-testid="blocked-number"
          />
        ) : null}
      </Group>
      <TextInput
        label={t('blocking.description')}
        value={form.description ?? ''}
        onChange={(e) => set({ description: e.currentTarget.value })}
        error={shown('description')}
      />
      <Select
        label={t('blocking.response')}
        data={BLOCK_RESPONSES.map((r) => ({ value: r, label: t(`blocking.responses.${r}`) }))}
        value={form.response}
        onChange={(v) => set({ response: (v ?? 'busy') as Draft['response'] })}
        allowDeselect={false}
        data-testid="blocked-response"
      />
      {form.response === 'recording' ? (
        <Select
          label={t('blocking.recording')}
          data={(recordings.data ?? []).map((r) => ({ value: String(r.id), label: r.displayname }))}
          value={form.recording_id === null || form.recording_id === undefined ? null : String(form.recording_id)}
          onChange={(v) => set({ recording_id: v ? Number(v) : null })}
          error={shown('recording_id')}
        />
      ) : null}
      {form.response === 'destination' ? (
        <DestinationSelect
          label={t('blocking.destination')}
          value={form.destination ?? ''}
          onChange={(v) => set({ destination: v || null })}
          error={shown('destination')}
        />
      ) : null}
      <MultiSelect
        label={t('blocking.routes')}
        description={t('blocking.routesHelp')}
        placeholder={form.routes.length === 0 ? t('blocking.allRoutes') : undefined}
        data={(inbound.data?.routes ?? []).map((r) => ({
          value: String(r.id),
          label: [
            r.extension || t('blocking.anyDid'),
            r.cidnum ? `/${r.cidnum}` : '',
            r.description ? ` (${r.description})` : '',
          ].join(''),
        }))}
        value={form.routes}
        onChange={(v) => set({ routes: v })}
        error={shown('routes')}
        searchable
        clearable
      />
    </FlowFormModal>
  );
}

/** The outbound classes' prefixes, one field per class (prefixes separated by commas). */
function CallClassesSection() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const classes = useQuery({ queryKey: ['callclasses'], queryFn: blockingApi.classes });
  const [draft, setDraft] = useState<Record<string, string> | null>(null);
  const current = draft ?? Object.fromEntries(CALL_CLASSES.map((c) => [c, (classes.data?.[c] ?? []).join(', ')]));
  const save = useMutation({
    mutationFn: () =>
      blockingApi.setClasses(
        Object.fromEntries(
          CALL_CLASSES.map((c) => [
            c,
            (current[c] ?? '')
              .split(',')
              .map((p) => p.trim())
              .filter(Boolean),
          ]),
        ) as CallClassPrefixes,
      ),
    onSuccess: () => {
      setDraft(null);
      notifySuccess(t('blocking.classesSaved'));
      return queryClient.invalidateQueries({ queryKey: ['callclasses'] });
    },
    onError: (e) => notifyError(t('flows.saveFailed'), e),
  });
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={2} size="h3">
          {t('blocking.classesTitle')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('blocking.classesIntro')}
        </Text>
        <WriteFieldset>
          <Stack gap="xs">
            {CALL_CLASSES.map((c) => (
              <TextInput
                key={c}
                label={t(`blocking.classes.${c}`)}
                value={current[c] ?? ''}
                onChange={(e) => setDraft({ ...current, [c]: e.currentTarget.value })}
                data-testid={`class-${c}`}
              />
            ))}
          </Stack>
        </WriteFieldset>
        <Group justify="flex-end">
          <WriteButton onClick={() => save.mutate()} loading={save.isPending} disabled={draft === null}>
            {t('blocking.saveClasses')}
          </WriteButton>
        </Group>
      </Stack>
    </Paper>
  );
}

/** Routes › Blocking: callers turned away before anything rings, and what each outbound class is. */
export function BlockedCallersPage() {
  const { t } = useTranslation();
  const inbound = useQuery({ queryKey: ['inboundroutes'], queryFn: routesApi.inbound });
  const routeName = (id: number) => {
    const r = inbound.data?.routes.find((x) => x.id === id);
    return r ? r.extension || t('blocking.anyDid') : String(id);
  };
  return (
    <Stack gap="xl">
      <FlowListPage<BlockedCaller>
        title={t('blocking.title')}
        intro={t('blocking.intro')}
        createLabel={t('blocking.create')}
        empty={t('blocking.empty')}
        queryKey="blocklist"
        load={blockingApi.list}
        keyOf={(e) => e.id}
        nameOf={(e) => (e.match === 'anonymous' ? t('blocking.matches.anonymous') : e.number)}
        columns={[
          {
            header: t('blocking.caller'),
            cell: (e) => (e.match === 'anonymous' ? t('blocking.matches.anonymous') : e.number),
            strong: true,
          },
          { header: t('blocking.match'), cell: (e) => t(`blocking.matches.${e.match}`) },
          { header: t('blocking.response'), cell: (e) => t(`blocking.responses.${e.response}`) },
          {
            header: t('blocking.routes'),
            cell: (e) => (e.routes.length === 0 ? t('blocking.allRoutes') : e.routes.map(routeName).join(', ')),
          },
          { header: t('blocking.description'), cell: (e) => e.description },
        ]}
        remove={(e) => blockingApi.remove(e.id)}
        testId="blocklist"
        rowTestId={(e) => `blocked-${e.match === 'anonymous' ? 'anonymous' : e.number}`}
        modal={(e, close, saved) => <BlockedModal entry={e} onClose={close} onSaved={saved} />}
      />
      <CallClassesSection />
    </Stack>
  );
}
