import type { CardSource } from '@centralino/contract';
import { Alert, Badge, Card, Center, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { confirmAction } from '../../components/confirm.tsx';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { WriteButton } from '../../components/WriteControls.tsx';
import { ctiApi } from '../cti/ctiApi.ts';
import { CardModal } from './CardModal.tsx';
import { type Card as CustomerCard, cardsApi, refreshLists, type Template } from './cardsApi.ts';
import { colorOf, fromBase64, MANTINE_COLOR, templateValue } from './cardsLogic.ts';
import { DependencyModal } from './DependencyModal.tsx';
import { SourceModal } from './SourceModal.tsx';
import { DuplicateTemplateModal, TemplateModal } from './TemplateModals.tsx';

type Open =
  | { kind: 'source'; source?: CardSource }
  | { kind: 'deleteSource'; source: CardSource }
  | { kind: 'template'; template?: Template; wizardSource?: string }
  | { kind: 'duplicate'; template: Template }
  | { kind: 'deleteTemplate'; template: Template }
  | { kind: 'card'; card?: CustomerCard; preset?: { dbconn_id?: string; template?: string } }
  | null;

/** The connection check of a listed source, run when the list loads: checking, ok or failed (and why). */
function useSourceCheck(source: CardSource) {
  return useQuery({
    queryKey: ['cards', 'check', source.id, source.type, source.host, source.port, source.user, source.name],
    queryFn: () => cardsApi.testSource({ id: source.id }),
    retry: false,
    staleTime: 60_000,
  });
}

function SourceItem({
  source,
  typeLabel,
  onModify,
  onDelete,
}: {
  source: CardSource;
  typeLabel: string;
  onModify: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  const check = useSourceCheck(source);
  const [color, label] = check.isPending
    ? ['gray', t('cards.sources.checking')]
    : check.isError
      ? ['red', t('cards.sources.failed')]
      : ['teal', t('cards.sources.ok')];
  return (
    <Card withBorder radius="md" p="md" data-testid={`source-${source.name}`}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Title order={3} size="h4" style={{ wordBreak: 'break-all' }}>
            {source.name}
          </Title>
          <Badge color={color} variant="light" role="status" data-testid="source-check">
            {label}
          </Badge>
        </Group>
        <Group gap="xs">
          <Badge variant="outline" color="gray">
            {typeLabel}
          </Badge>
        </Group>
        {source.host && (
          <Text size="sm">
            {t('cards.sources.address')}: {source.host}:{source.port}
          </Text>
        )}
        {check.isError && (
          <Text size="sm" c="red.8" data-testid="source-check-reason">
            {check.error instanceof ApiError ? check.error.body.detail : check.error.message}
          </Text>
        )}
        {!source.builtin && (
          <Group gap="xs">
            <WriteButton variant="default" size="xs" onClick={onModify}>
              {t('cards.modify')}
            </WriteButton>
            <WriteButton variant="default" size="xs" color="red" onClick={onDelete}>
              {t('cards.delete')}
            </WriteButton>
          </Group>
        )}
      </Stack>
    </Card>
  );
}

function Section({
  title,
  action,
  onAction,
  children,
  testId,
}: {
  title: string;
  action: string;
  onAction: () => void;
  children: ReactNode;
  testId: string;
}) {
  return (
    <Stack gap="sm" component="section" aria-label={title} data-testid={testId}>
      <Group justify="space-between">
        <Title order={2} size="h3">
          {title}
        </Title>
        <WriteButton leftSection={<IconPlus size={16} />} onClick={onAction}>
          {action}
        </WriteButton>
      </Group>
      {children}
    </Stack>
  );
}

function Loading<T>({
  query,
  empty,
  children,
}: {
  query: { isPending: boolean; isError: boolean; error: Error | null; data: T[] | undefined };
  empty: string;
  children: (data: T[]) => ReactNode;
}) {
  const { t } = useTranslation();
  if (query.isPending) {
    return (
      <Center>
        <Loader aria-label={t('app.loading')} />
      </Center>
    );
  }
  if (query.isError || !query.data) return <Alert color="red">{query.error?.message}</Alert>;
  if (query.data.length === 0) return <Text>{empty}</Text>;
  return <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }}>{children(query.data)}</SimpleGrid>;
}

/**
 * Customer cards (/apps/cards): the databases cards read (sources), the HTML the rows are shown with
 * (templates) and the cards themselves (a query on a source, a template, the profiles that see it). While the
 * later lists are empty, creating a source leads to creating a template, then a card.
 */
export function CardsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const sources = useQuery({ queryKey: ['cards', 'sources'], queryFn: cardsApi.sources });
  const types = useQuery({ queryKey: ['cards', 'types'], queryFn: cardsApi.sourceTypes, staleTime: Infinity });
  const templates = useQuery({ queryKey: ['cards', 'templates'], queryFn: cardsApi.templates });
  const cards = useQuery({ queryKey: ['cards', 'cards', 'all'], queryFn: () => cardsApi.cards() });
  const profiles = useQuery({ queryKey: ['cards', 'profiles'], queryFn: ctiApi.profiles });
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);

  /*
   * The wizard order (contract §6): a new source leads to a new template while the administrator has none of
   * their own (the four shipped ones are always there), then to a new card while there is none; the card
   * starts with the source and template just made. The lists are read again, as they are after the save.
   */
  const afterSource = async (source: CardSource) => {
    const tpl = await queryClient.fetchQuery({ queryKey: ['cards', 'templates'], queryFn: cardsApi.templates });
    if (!tpl.some((x) => x.custom)) return setOpen({ kind: 'template', wizardSource: String(source.id) });
    await afterTemplate(undefined, String(source.id));
  };
  const afterTemplate = async (template?: string, source?: string) => {
    const list = await queryClient.fetchQuery({
      queryKey: ['cards', 'cards', 'all'],
      queryFn: () => cardsApi.cards(),
    });
    if (list.length === 0) setOpen({ kind: 'card', preset: { dbconn_id: source, template } });
  };

  const sampleSource = sources.data?.find((s) => s.builtin);
  const sourceName = (id: number) => sources.data?.find((s) => s.id === id)?.name ?? String(id);
  const profileName = (id: number) => profiles.data?.find((p) => p.id === id)?.name ?? String(id);
  const typeLabel = (source: CardSource) =>
    source.builtin ? t('cards.sources.builtinType') : (types.data?.[source.type] ?? source.type);

  const removeCard = async (card: CustomerCard) => {
    const ok = await confirmAction({
      title: t('cards.cards.delete.title'),
      message: t('cards.cards.delete.message', { name: card.name }),
      confirmLabel: t('cards.delete'),
      danger: true,
    });
    if (!ok) return;
    try {
      await cardsApi.removeCard(card.id);
      notifySuccess(t('cards.cards.deleted'));
    } catch (e) {
      notifyError(t('cards.cards.notDeleted'), e);
    }
    void refreshLists(queryClient);
  };
  const removed = (message: string) => async () => {
    notifySuccess(message);
    void refreshLists(queryClient);
  };

  return (
    <Stack gap="xl">
      <Stack gap="xs">
        <Title order={1} size="h2">
          {t('cards.title')}
        </Title>
        <Text c="dimmed">{t('cards.intro')}</Text>
      </Stack>

      <Section
        title={t('cards.sources.title')}
        action={t('cards.sources.create')}
        onAction={() => setOpen({ kind: 'source' })}
        testId="sources-section"
      >
        <Loading query={sources} empty={t('cards.sources.empty')}>
          {(list) =>
            list.map((source) => (
              <SourceItem
                key={source.id}
                source={source}
                typeLabel={typeLabel(source)}
                onModify={() => setOpen({ kind: 'source', source })}
                onDelete={() => setOpen({ kind: 'deleteSource', source })}
              />
            ))
          }
        </Loading>
      </Section>

      <Section
        title={t('cards.templates.title')}
        action={t('cards.templates.create')}
        onAction={() => setOpen({ kind: 'template' })}
        testId="templates-section"
      >
        <Loading query={templates} empty={t('cards.templates.empty')}>
          {(list) =>
            list.map((template) => {
              const color = template.color ?? colorOf(fromBase64(template.html));
              return (
                <Card
                  key={templateValue(template)}
                  withBorder
                  radius="md"
                  p="md"
                  data-testid={`template-${templateValue(template)}`}
                  style={color ? { borderLeft: `6px solid var(--mantine-color-${MANTINE_COLOR[color]}-6)` } : undefined}
                >
                  <Stack gap="xs">
                    <Group justify="space-between" wrap="nowrap">
                      <Title order={3} size="h4" style={{ wordBreak: 'break-all' }}>
                        {template.name}
                      </Title>
                      {template.custom && <Badge variant="light">{t('cards.templates.custom')}</Badge>}
                    </Group>
                    <Text size="sm">
                      {t('cards.templates.modal.color')}:{' '}
                      {color ? t(`cards.colors.${color}`) : t('cards.templates.noColor')}
                    </Text>
                    <Group gap="xs">
                      <WriteButton variant="default" size="xs" onClick={() => setOpen({ kind: 'template', template })}>
                        {t('cards.modify')}
                      </WriteButton>
                      <WriteButton variant="default" size="xs" onClick={() => setOpen({ kind: 'duplicate', template })}>
                        {t('cards.templates.duplicate.button')}
                      </WriteButton>
                      {!template.builtin && (
                        <WriteButton
                          variant="default"
                          size="xs"
                          color="red"
                          onClick={() => setOpen({ kind: 'deleteTemplate', template })}
                        >
                          {t('cards.delete')}
                        </WriteButton>
                      )}
                    </Group>
                  </Stack>
                </Card>
              );
            })
          }
        </Loading>
      </Section>

      <Section
        title={t('cards.cards.title')}
        action={t('cards.cards.create')}
        onAction={() => setOpen({ kind: 'card' })}
        testId="cards-section"
      >
        <Loading query={cards} empty={t('cards.cards.empty')}>
          {(list) =>
            list.map((card) => (
              <Card key={card.id} withBorder radius="md" p="md" data-testid={`card-${card.name}`}>
                <Stack gap="xs">
                  <Title order={3} size="h4" style={{ wordBreak: 'break-all' }}>
                    {card.name}
                  </Title>
                  <Text size="sm">
                    {t('cards.cards.modal.source')}: {sourceName(card.dbconn_id)}
                  </Text>
                  <Text size="sm">
                    {t('cards.cards.modal.template')}:{' '}
                    {card.template.custom
                      ? t('cards.templates.customName', { name: card.template.name })
                      : card.template.name}
                  </Text>
                  <Text size="sm">
                    {t('cards.cards.modal.profiles')}:{' '}
                    {card.profiles.length === 0
                      ? t('cards.cards.noProfiles')
                      : card.profiles.map(profileName).join(', ')}
                  </Text>
                  <Group gap="xs">
                    <WriteButton variant="default" size="xs" onClick={() => setOpen({ kind: 'card', card })}>
                      {t('cards.modify')}
                    </WriteButton>
                    <WriteButton variant="default" size="xs" color="red" onClick={() => void removeCard(card)}>
                      {t('cards.delete')}
                    </WriteButton>
                  </Group>
                </Stack>
              </Card>
            ))
          }
        </Loading>
      </Section>

      {open?.kind === 'source' && (
        <SourceModal source={open.source} onClose={close} onCreated={(source) => void afterSource(source)} />
      )}
      {open?.kind === 'deleteSource' && (
        <DependencyModal
          title={t('cards.sources.deleteTitle', { name: open.source.name })}
          filter={{ dbconn_id: open.source.id }}
          onDelete={() => cardsApi.removeSource(open.source.id).then(removed(t('cards.sources.deleted')))}
          onClose={close}
        />
      )}
      {open?.kind === 'template' && (
        <TemplateModal
          template={open.template}
          sampleSourceId={sampleSource ? String(sampleSource.id) : undefined}
          onClose={close}
          onCreated={(ref) => void afterTemplate(ref, open.wizardSource)}
        />
      )}
      {open?.kind === 'duplicate' && <DuplicateTemplateModal template={open.template} onClose={close} />}
      {open?.kind === 'deleteTemplate' && (
        <DependencyModal
          title={t('cards.templates.deleteTitle', { name: open.template.name })}
          filter={{ template: templateValue(open.template) }}
          onDelete={() =>
            cardsApi.removeTemplate(templateValue(open.template)).then(removed(t('cards.templates.deleted')))
          }
          onClose={close}
        />
      )}
      {open?.kind === 'card' && (
        <CardModal
          card={open.card}
          preset={open.preset}
          sources={sources.data ?? []}
          templates={templates.data ?? []}
          onClose={close}
        />
      )}
    </Stack>
  );
}
