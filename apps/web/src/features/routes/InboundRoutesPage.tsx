import {
  INBOUND_POLL_MS,
  INBOUND_POLL_TRIES,
  type InboundRoute,
  type InboundWrite,
  inboundWriteSchema,
  type RecordingPolicy,
  recordingPolicies,
} from '@centralino/contract';
import { Alert, Button, Card, Center, Group, Loader, Menu, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconChevronDown, IconExternalLink, IconPencil, IconPlus, IconSitemap, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { confirmAction } from '../../components/confirm.tsx';
import { controlCharsError } from '../../components/controlChars.ts';
import { ListView } from '../../components/ListView.tsx';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { WriteButton } from '../../components/WriteControls.tsx';
import { FlowPictureModal } from '../flows/FlowPicture.tsx';
import { useMusicChoices } from '../music/MusicPage.tsx';
import { StepScreen } from '../wizard/StepScreen.tsx';
import { routesApi } from './routesApi.ts';

const PATH = '/routes/inbound';
const CATEGORY_KEYS: Record<string, string> = {
  'Terminate Call': 'terminate',
  Extensions: 'extensions',
  Voicemail: 'voicemail',
  Groups: 'groups',
  Announcements: 'announcements',
  IVR: 'ivr',
  'Day/Night': 'daynight',
  Queues: 'queues',
  'Time conditions': 'timeconditions',
  'Ring groups': 'ringgroups',
};

function routeLabel(route: { extension: string; cidnum: string }, any: string) {
  return `${route.extension || any}${route.cidnum ? ` / ${route.cidnum}` : ''}`;
}

function RouteEditor({
  route,
  destinations,
  onClose,
  onSaved,
}: {
  route: InboundRoute | null;
  destinations: Record<string, { destination: string; description: string; category: string }>;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [form, setForm] = useState<InboundWrite>(
    route ?? { extension: '', cidnum: '', description: '', destination: '', recording: 'on_demand' },
  );
  const [touched, setTouched] = useState(false);
  const music = useMusicChoices();
  const parsed = inboundWriteSchema.safeParse(form);
  const fieldError = (field: keyof InboundWrite) => {
    if (!touched || parsed.success) return undefined;
    return (
      controlCharsError(parsed.error.issues, field, i18n.resolvedLanguage) ??
      (parsed.error.issues.some((i) => i.path[0] === field) ? t(`inbound.errors.${field}`) : undefined)
    );
  };
  const save = useMutation({
    mutationFn: () =>
      route
        ? routesApi.updateInbound({ extension: route.extension, cidnum: route.cidnum }, inboundWriteSchema.parse(form))
        : routesApi.createInbound(inboundWriteSchema.parse(form)),
    onSuccess: onSaved,
  });
  const categoryLabel = (c: string) => t(`inbound.categories.${CATEGORY_KEYS[c] ?? 'other'}`, { defaultValue: c });
  const groups = new Map<string, { value: string; label: string }[]>();
  for (const d of Object.values(destinations)) {
    const list = groups.get(d.category) ?? [];
    list.push({
      value: d.destination,
      label:
        d.category === 'Terminate Call'
          ? t(`inbound.terminate.${d.description.toLowerCase()}`, { defaultValue: d.description })
          : d.description,
    });
    groups.set(d.category, list);
  }
  const data = [...groups.entries()].map(([category, items]) => ({ group: categoryLabel(category), items }));
  const set = (patch: Partial<InboundWrite>) => setForm((f) => ({ ...f, ...patch }));

  return (
    <Modal opened onClose={onClose} title={route ? t('inbound.editTitle') : t('inbound.create')}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          if (parsed.success) save.mutate();
        }}
      >
        <Stack>
          <TextInput
            label={t('inbound.did')}
            description={t('inbound.didHelp')}
            value={form.extension}
            error={fieldError('extension')}
            onChange={(e) => set({ extension: e.currentTarget.value })}
          />
          <TextInput
            label={t('inbound.cid')}
            description={t('inbound.cidHelp')}
            value={form.cidnum}
            error={fieldError('cidnum')}
            onChange={(e) => set({ cidnum: e.currentTarget.value })}
          />
          <TextInput
            label={t('inbound.description')}
            value={form.description}
            error={fieldError('description')}
            onChange={(e) => set({ description: e.currentTarget.value })}
          />
          <Select
            label={t('inbound.destination')}
            withAsterisk
            searchable
            data={data}
            value={form.destination || null}
            error={fieldError('destination')}
            onChange={(v) => set({ destination: v ?? '' })}
          />
          <Select
            label={t('callRecording.policy')}
            description={t('callRecording.help')}
            data={recordingPolicies.map((p) => ({ value: p, label: t(`callRecording.policies.${p}`) }))}
            value={form.recording ?? 'on_demand'}
            onChange={(v) => set({ recording: (v ?? 'on_demand') as RecordingPolicy })}
            allowDeselect={false}
          />
          <Select
            label={t('inbound.music')}
            description={t('inbound.musicHelp')}
            data={[{ value: '', label: t('inbound.ringing') }, ...music]}
            value={form.music ?? ''}
            onChange={(v) => set({ music: v ? v : null })}
            allowDeselect={false}
          />
          {save.error && (
            <Alert color="red" title={t('inbound.notSaved')}>
              {save.error instanceof ApiError ? save.error.body.detail : save.error.message}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('inbound.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Inbound routes: which destination answers each number (DID), optionally per caller. */
export function InboundRoutesPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  // After a change the list is polled every 2 s, 6 times, so changes made elsewhere show up too.
  const [polls, setPolls] = useState(0);
  const list = useQuery({
    queryKey: ['inbound'],
    queryFn: async () => {
      const result = await routesApi.inbound();
      setPolls((n) => Math.max(0, n - 1));
      return result;
    },
    refetchInterval: polls > 0 ? INBOUND_POLL_MS : false,
  });
  const planner = useQuery({
    queryKey: ['routeplanner'],
    queryFn: routesApi.planner,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const [editing, setEditing] = useState<InboundRoute | 'new' | null>(null);
  const [picture, setPicture] = useState<InboundRoute | null>(null);
  const changed = () => {
    setPolls(INBOUND_POLL_TRIES);
    void queryClient.invalidateQueries({ queryKey: ['inbound'] });
  };
  const remove = useMutation({
    mutationFn: (route: InboundRoute) => routesApi.deleteInbound(route.extension, route.cidnum),
    onSuccess: changed,
    onError: (e) => notifyError(t('inbound.notDeleted'), e),
  });

  if (!list.data) {
    return (
      <Center mt="xl">
        <Loader aria-label={t('app.loading')} />
      </Center>
    );
  }
  const { routes, destinations } = list.data;
  const any = t('inbound.any');
  const destinationText = (d: string) => {
    const known = destinations[d];
    if (!known) return d;
    const category = t(`inbound.categories.${CATEGORY_KEYS[known.category] ?? 'other'}`, {
      defaultValue: known.category,
    });
    const description =
      known.category === 'Terminate Call'
        ? t(`inbound.terminate.${known.description.toLowerCase()}`, { defaultValue: known.description })
        : known.description;
    return `${category}: ${description}`;
  };
  const plannerUrl = planner.data?.url;

  const body = (
    <Stack gap="md">
      <Group>
        <WriteButton leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
          {t('inbound.create')}
        </WriteButton>
        <Text size="sm" c="dimmed" data-testid="inbound-count">
          {t('inbound.count', { count: routes.length })}
        </Text>
      </Group>
      {routes.length === 0 ? (
        <Text c="dimmed">{t('inbound.empty')}</Text>
      ) : (
        <ListView<InboundRoute>
          items={routes}
          getKey={(r) => `${r.extension}|${r.cidnum}`}
          searchText={(r) => `${r.extension} ${r.cidnum} ${r.description} ${destinationText(r.destination)}`}
          label={t('inbound.title')}
          renderItem={(route) => (
            <Card withBorder radius="md" p="sm" data-testid={`inbound-${route.extension || 'any'}`}>
              <Group justify="space-between" wrap="nowrap">
                <Stack gap={0}>
                  <Text fw={600}>{routeLabel(route, any)}</Text>
                  <Text size="sm">{route.description}</Text>
                  <Text size="sm" c="dimmed">
                    {destinationText(route.destination)}
                  </Text>
                </Stack>
                <Group gap="xs" wrap="nowrap">
                  <Button variant="default" leftSection={<IconSitemap size={16} />} onClick={() => setPicture(route)}>
                    {t('flows.picture.show')}
                  </Button>
                  {plannerUrl ? (
                    <Menu>
                      <Menu.Target>
                        <WriteButton variant="default" rightSection={<IconChevronDown size={14} />}>
                          {t('inbound.modify')}
                        </WriteButton>
                      </Menu.Target>
                      <Menu.Dropdown>
                        <Menu.Item leftSection={<IconPencil size={14} />} onClick={() => setEditing(route)}>
                          {t('inbound.modifyHere')}
                        </Menu.Item>
                        <Menu.Item
                          leftSection={<IconExternalLink size={14} />}
                          component="a"
                          target="_blank"
                          href={`${plannerUrl}?did=${encodeURIComponent(routeLabel(route, ''))}`}
                        >
                          {t('inbound.openPlanner')}
                        </Menu.Item>
                      </Menu.Dropdown>
                    </Menu>
                  ) : (
                    <WriteButton
                      variant="default"
                      leftSection={<IconPencil size={16} />}
                      onClick={() => setEditing(route)}
                    >
                      {t('inbound.modify')}
                    </WriteButton>
                  )}
                  <WriteButton
                    color="red"
                    variant="light"
                    leftSection={<IconTrash size={16} />}
                    onClick={async () => {
                      const ok = await confirmAction({
                        title: t('inbound.deleteTitle'),
                        message: t('inbound.deleteConfirm', { route: routeLabel(route, any) }),
                        confirmLabel: t('inbound.delete'),
                        danger: true,
                      });
                      if (ok) remove.mutate(route);
                    }}
                  >
                    {t('inbound.delete')}
                  </WriteButton>
                </Group>
              </Group>
            </Card>
          )}
        />
      )}
      {picture && (
        <FlowPictureModal
          title={t('flows.picture.title', { route: routeLabel(picture, any) })}
          destination={picture.destination}
          onClose={() => setPicture(null)}
        />
      )}
      {editing && (
        <RouteEditor
          route={editing === 'new' ? null : editing}
          destinations={destinations}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            notifySuccess(t('inbound.saved'));
            changed();
          }}
        />
      )}
    </Stack>
  );

  return (
    <StepScreen path={PATH} title={t('inbound.title')}>
      {body}
    </StepScreen>
  );
}
