import type { CardSource } from '@centralino/contract';
import { Button, Group, Modal, MultiSelect, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { ctiApi } from '../cti/ctiApi.ts';
import { type Card, cardsApi, refreshLists, type Template } from './cardsApi.ts';
import { cardFormProblems, fromBase64, templateValue, toBase64 } from './cardsLogic.ts';
import { PreviewResult } from './PreviewResult.tsx';

interface Form {
  name: string;
  dbconn_id: string | null;
  template: string | null;
  profiles: string[];
  query: string;
}

/**
 * Creating or modifying a card: name, source, template, the profiles that see it, and its query (Save
 * disabled while empty). Preview runs the query on the source with a test caller number for `$NUMBER` and
 * shows the rows and the card rendered in a sandboxed frame.
 */
export function CardModal({
  card,
  sources,
  templates,
  preset,
  onClose,
}: {
  card?: Card;
  /** A new card's source and template, chosen by the wizard order (the source and template just made). */
  preset?: { dbconn_id?: string; template?: string };
  sources: CardSource[];
  templates: Template[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const modifying = card !== undefined;
  const [form, setForm] = useState<Form>(() => ({
    name: card?.name ?? '',
    dbconn_id: card ? String(card.dbconn_id) : (preset?.dbconn_id ?? null),
    template: card ? templateValue(card.template) : (preset?.template ?? null),
    profiles: card?.profiles.map(String) ?? [],
    query: card ? fromBase64(card.query) : '',
  }));
  const [number, setNumber] = useState('');
  const profiles = useQuery({ queryKey: ['cards', 'profiles'], queryFn: ctiApi.profiles });
  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((f) => ({ ...f, [key]: value }));
  const problems = cardFormProblems(form);
  const body = {
    name: form.name.trim(),
    query: toBase64(form.query),
    template: form.template ?? '',
    dbconn_id: form.dbconn_id ?? '',
    profiles: form.profiles,
  };
  const preview = useMutation({
    mutationFn: () =>
      cardsApi.preview({
        dbconn_id: body.dbconn_id,
        template: body.template,
        query: body.query,
        ...(number.trim() ? { number: number.trim() } : {}),
      }),
  });
  const save = useMutation({
    mutationFn: async () => {
      if (modifying) await cardsApi.updateCard(card.id, body);
      else await cardsApi.createCard(body);
    },
    onSuccess: async () => {
      notifySuccess(t('cards.cards.saved'));
      void refreshLists(queryClient);
      onClose();
    },
    // The modal stays open with what was typed (as the phonebook's does): the notification says why.
    onError: (e) => notifyError(t('cards.cards.notSaved'), e),
  });
  const canPreview = form.dbconn_id !== null && form.template !== null && form.query.trim() !== '';
  return (
    <Modal
      opened
      onClose={onClose}
      size="xl"
      title={modifying ? t('cards.cards.modal.modify', { name: card.name }) : t('cards.cards.modal.create')}
    >
      <Stack gap="sm">
        <TextInput
          label={t('cards.cards.modal.name')}
          required
          value={form.name}
          onChange={(e) => set('name', e.currentTarget.value)}
        />
        <Group grow align="flex-start">
          <Select
            label={t('cards.cards.modal.source')}
            required
            data={sources.map((s) => ({ value: String(s.id), label: s.name }))}
            value={form.dbconn_id}
            onChange={(v) => set('dbconn_id', v)}
          />
          <Select
            label={t('cards.cards.modal.template')}
            required
            data={templates.map((tpl) => ({
              value: templateValue(tpl),
              label: tpl.custom ? t('cards.templates.customName', { name: tpl.name }) : tpl.name,
            }))}
            value={form.template}
            onChange={(v) => set('template', v)}
          />
        </Group>
        <MultiSelect
          label={t('cards.cards.modal.profiles')}
          required
          data={(profiles.data ?? []).map((p) => ({ value: String(p.id), label: p.name }))}
          value={form.profiles}
          onChange={(v) => set('profiles', v)}
          error={profiles.isError ? profiles.error.message : undefined}
        />
        <Textarea
          label={t('cards.cards.modal.query')}
          description={t('cards.cards.modal.queryHelp')}
          required
          autosize
          minRows={4}
          maxRows={14}
          spellCheck={false}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
          value={form.query}
          onChange={(e) => set('query', e.currentTarget.value)}
        />
        <Group align="flex-end">
          <TextInput
            label={t('cards.cards.modal.number')}
            description={t('cards.cards.modal.numberHelp')}
            inputMode="tel"
            value={number}
            onChange={(e) => setNumber(e.currentTarget.value)}
          />
          <Button variant="default" disabled={!canPreview} loading={preview.isPending} onClick={() => preview.mutate()}>
            {t('cards.cards.modal.preview')}
          </Button>
        </Group>
        <div aria-live="polite">
          <PreviewResult preview={preview.data} error={preview.error ?? undefined} showRows />
        </div>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button disabled={problems.length > 0} loading={save.isPending} onClick={() => save.mutate()}>
            {t('cards.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
