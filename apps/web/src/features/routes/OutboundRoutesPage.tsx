import { PREFERRED_LANGUAGE_KEY, type RouteLocale, routeLocales, stepOfPath } from '@centralino/contract';
import { Accordion, Alert, Anchor, Badge, Center, Group, Loader, Select, Stack, Text } from '@mantine/core';
import { IconAdjustments, IconAlertTriangle, IconDeviceFloppy, IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { WriteButton, WriteFieldset } from '../../components/WriteControls.tsx';
import { trunksApi } from '../trunks/trunksApi.ts';
import { StepScreen } from '../wizard/StepScreen.tsx';
import { useEngine, useWizardState } from '../wizard/useWizard.ts';
import { RouteEditor } from './RouteEditor.tsx';
import { routesApi } from './routesApi.ts';
import { TrunkOrder, type TrunkRef } from './TrunkOrder.tsx';

const PATH = '/routes/outbound';
const NATIVE_NAMES: Record<RouteLocale, string> = {
  it: 'Italiano',
  fr: 'Français',
  es: 'Español',
  de: 'Deutsch',
  en: 'English',
};

interface DraftRoute {
  route_id?: number;
  name: string;
  trunks: TrunkRef[];
}

/** The language whose dial patterns are proposed first: the console's, else the browser's, else English. */
function initialLocale(): RouteLocale {
  const candidates = [localStorage.getItem(PREFERRED_LANGUAGE_KEY), navigator.language?.slice(0, 2)];
  return (candidates.find((c) => routeLocales.includes(c as RouteLocale)) as RouteLocale | undefined) ?? 'en';
}

/** Outbound routes: dial patterns per route, and the trunks each route tries in turn. */
export function OutboundRoutesPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const engine = useEngine();
  const wizard = useWizardState();
  // No refetch on focus: it would replace a draft the administrator has not saved yet.
  const routes = useQuery({ queryKey: ['outbound'], queryFn: routesApi.outbound, refetchOnWindowFocus: false });
  const trunks = useQuery({ queryKey: ['trunks'], queryFn: trunksApi.list });
  const empty = routes.data?.length === 0;
  const defaults = useQuery({ queryKey: ['outbound', 'defaults'], queryFn: routesApi.defaults, enabled: empty });
  const [locale, setLocale] = useState<RouteLocale>(initialLocale);
  const [draft, setDraft] = useState<DraftRoute[] | null>(null);
  const [editing, setEditing] = useState<number | 'new' | null>(null);

  // The draft follows the server (or the proposal) until the administrator changes something.
  useEffect(() => {
    if (routes.data && routes.data.length > 0)
      setDraft(routes.data.map(({ route_id, name, trunks: tr }) => ({ route_id, name, trunks: tr })));
    else if (empty && defaults.data) setDraft(defaults.data[locale] ?? []);
  }, [routes.data, empty, defaults.data, locale]);

  const save = useMutation({
    mutationFn: () => routesApi.saveOutbound({ [locale]: draft ?? [] }),
    onSuccess: async () => {
      notifySuccess(t('outbound.saved'), t('outbound.savedDetail'));
      await queryClient.invalidateQueries({ queryKey: ['outbound'] });
    },
    onError: (e) => notifyError(t('outbound.notSavedTitle'), e),
  });

  if (!routes.data || !trunks.data || !engine.data || !wizard.data || !draft) {
    return (
      <Center mt="xl">
        <Loader aria-label={t('app.loading')} />
      </Center>
    );
  }
  const available: TrunkRef[] = trunks.data.map((tr) => ({ trunkid: tr.trunkid, name: tr.name }));
  const setRoute = (index: number, trunkList: TrunkRef[]) =>
    setDraft((d) => d?.map((r, i) => (i === index ? { ...r, trunks: trunkList } : r)) ?? d);
  const reload = () => void queryClient.invalidateQueries({ queryKey: ['outbound'] });

  const inWizard = wizard.data.active && stepOfPath(engine.data, PATH) !== undefined;
  const body = (
    <Stack gap="md">
      {inWizard && (
        <Alert color="blue" title={t('outbound.rememberSave')}>
          {t('outbound.rememberSaveDetail')}
        </Alert>
      )}
      {available.length === 0 && (
        <Alert color="yellow" icon={<IconAlertTriangle />} title={t('outbound.noTrunks')}>
          <Anchor component={Link} to="/trunks/physical">
            {t('outbound.noTrunksLink')}
          </Anchor>
        </Alert>
      )}
      <Group justify="space-between">
        {empty ? (
          <Select
            label={t('outbound.language')}
            data={routeLocales.map((l) => ({ value: l, label: NATIVE_NAMES[l] }))}
            value={locale}
            allowDeselect={false}
            onChange={(v) => v && setLocale(v as RouteLocale)}
            w={220}
          />
        ) : (
          <WriteButton variant="default" leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
            {t('outbound.addRoute')}
          </WriteButton>
        )}
        <WriteButton
          leftSection={<IconDeviceFloppy size={16} />}
          loading={save.isPending}
          disabled={draft.length === 0}
          onClick={() => save.mutate()}
        >
          {t('outbound.save')}
        </WriteButton>
      </Group>
      {draft.length === 0 ? (
        <Text c="dimmed">{t('outbound.empty')}</Text>
      ) : (
        <Accordion multiple variant="separated">
          {draft.map((route, index) => (
            <Accordion.Item key={route.name} value={route.name} data-testid={`route-${route.name}`}>
              <Accordion.Control>
                <Group justify="space-between" pr="md">
                  <Text fw={600}>{route.name}</Text>
                  <Badge variant="light">{t('outbound.trunkCount', { count: route.trunks.length })}</Badge>
                </Group>
              </Accordion.Control>
              <Accordion.Panel>
                <Stack gap="sm">
                  <WriteFieldset>
                    <TrunkOrder
                      trunks={route.trunks}
                      available={available}
                      onChange={(list) => setRoute(index, list)}
                    />
                  </WriteFieldset>
                  {route.route_id !== undefined && (
                    <Group justify="flex-end">
                      <WriteButton
                        variant="subtle"
                        leftSection={<IconAdjustments size={16} />}
                        onClick={() => setEditing(route.route_id as number)}
                      >
                        {t('outbound.advanced')}
                      </WriteButton>
                    </Group>
                  )}
                </Stack>
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
      )}
      {editing !== null && (
        <RouteEditor
          routeId={editing === 'new' ? undefined : editing}
          trunks={available}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            reload();
          }}
        />
      )}
    </Stack>
  );

  return (
    <StepScreen path={PATH} title={t('outbound.title')} canAdvance={routes.data.length > 0}>
      {body}
    </StepScreen>
  );
}
