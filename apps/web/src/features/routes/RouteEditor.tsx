import { type DialPatternRow, type OutboundRouteDetail, outboundRouteDetailSchema } from '@centralino/contract';
import {
  ActionIcon,
  Alert,
  Button,
  Center,
  Group,
  Loader,
  Modal,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { IconPlus, IconTrash, IconX } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { confirmAction } from '../../components/confirm.tsx';
import { routesApi } from './routesApi.ts';
import { TrunkOrder, type TrunkRef } from './TrunkOrder.tsx';

const EMPTY_PATTERN: DialPatternRow = { prepend: '', prefix: '', match_pattern: '', match_cid: '' };

/** Our own outbound route page ('Advanced'): name, dial patterns, caller id, emergency, trunk order. */
export function RouteEditor({
  routeId,
  trunks,
  onClose,
  onSaved,
}: {
  /** undefined adds a new route. */
  routeId: number | undefined;
  trunks: TrunkRef[];
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const existing = useQuery({
    queryKey: ['outbound', 'route', routeId],
    queryFn: () => routesApi.route(routeId as number),
    enabled: routeId !== undefined,
  });
  const [form, setForm] = useState<OutboundRouteDetail | null>(
    routeId === undefined
      ? { name: '', outcid: '', emergency: false, patterns: [{ ...EMPTY_PATTERN }], trunks: [] }
      : null,
  );
  useEffect(() => {
    if (existing.data && !form) {
      const { route_id: _id, ...detail } = existing.data;
      setForm(detail);
    }
  }, [existing.data, form]);
  const [touched, setTouched] = useState(false);
  const save = useMutation({
    mutationFn: (detail: OutboundRouteDetail) =>
      routeId === undefined ? routesApi.createRoute(detail) : routesApi.updateRoute(routeId, detail),
    onSuccess: onSaved,
  });
  const remove = useMutation({ mutationFn: () => routesApi.deleteRoute(routeId as number), onSuccess: onSaved });

  const parsed = form ? outboundRouteDetailSchema.safeParse(form) : undefined;
  const issue = (path: (string | number)[]) => {
    if (!touched || !parsed || parsed.success) return undefined;
    return parsed.error.issues.find((i) => path.every((p, k) => i.path[k] === p))?.message;
  };
  const set = (patch: Partial<OutboundRouteDetail>) => setForm((f) => (f ? { ...f, ...patch } : f));
  const setPattern = (index: number, patch: Partial<DialPatternRow>) =>
    set({ patterns: form?.patterns.map((p, i) => (i === index ? { ...p, ...patch } : p)) ?? [] });

  return (
    <Modal
      opened
      onClose={onClose}
      size="xl"
      title={routeId === undefined ? t('outbound.addRoute') : t('outbound.advancedTitle')}
    >
      {!form ? (
        <Center>
          <Loader />
        </Center>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            setTouched(true);
            if (parsed?.success) save.mutate(parsed.data);
          }}
        >
          <Stack>
            <Group grow align="start">
              <TextInput
                label={t('outbound.name')}
                withAsterisk
                value={form.name}
                error={issue(['name'])}
                onChange={(e) => set({ name: e.currentTarget.value })}
              />
              <TextInput
                label={t('outbound.routeCid')}
                value={form.outcid}
                error={issue(['outcid'])}
                onChange={(e) => set({ outcid: e.currentTarget.value })}
              />
            </Group>
            <Switch
              label={t('outbound.emergency')}
              checked={form.emergency}
              onChange={(e) => set({ emergency: e.currentTarget.checked })}
            />
            <Text fw={600}>{t('outbound.patterns')}</Text>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('outbound.prepend')}</Table.Th>
                  <Table.Th>{t('outbound.prefix')}</Table.Th>
                  <Table.Th>{t('outbound.matchPattern')}</Table.Th>
                  <Table.Th>{t('outbound.matchCid')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {form.patterns.map((p, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place
                  <Table.Tr key={i}>
                    {(['prepend', 'prefix', 'match_pattern', 'match_cid'] as const).map((field) => (
                      <Table.Td key={field}>
                        <TextInput
                          aria-label={`${t(`outbound.${field === 'match_pattern' ? 'matchPattern' : field === 'match_cid' ? 'matchCid' : field}`)} ${i + 1}`}
                          value={p[field]}
                          error={issue(['patterns', i, field])}
                          onChange={(e) => setPattern(i, { [field]: e.currentTarget.value })}
                        />
                      </Table.Td>
                    ))}
                    <Table.Td>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t('outbound.removePattern', { n: i + 1 })}
                        onClick={() => set({ patterns: form.patterns.filter((_, k) => k !== i) })}
                      >
                        <IconX size={16} />
                      </ActionIcon>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <Group>
              <Button
                variant="subtle"
                leftSection={<IconPlus size={16} />}
                onClick={() => set({ patterns: [...form.patterns, { ...EMPTY_PATTERN }] })}
              >
                {t('outbound.addPattern')}
              </Button>
            </Group>
            <Text fw={600}>{t('outbound.trunks')}</Text>
            <TrunkOrder
              trunks={form.trunks.map(
                (id) => trunks.find((tr) => tr.trunkid === id) ?? { trunkid: id, name: String(id) },
              )}
              available={trunks}
              onChange={(list) => set({ trunks: list.map((tr) => tr.trunkid) })}
            />
            {(save.error ?? remove.error) && (
              <Alert color="red" title={t('outbound.notSaved')}>
                {(() => {
                  const e = save.error ?? remove.error;
                  return e instanceof ApiError ? e.body.detail : e?.message;
                })()}
              </Alert>
            )}
            <Group justify="space-between">
              {routeId !== undefined ? (
                <Button
                  color="red"
                  variant="light"
                  leftSection={<IconTrash size={16} />}
                  loading={remove.isPending}
                  onClick={async () => {
                    const ok = await confirmAction({
                      title: t('outbound.deleteRoute'),
                      message: t('outbound.deleteRouteConfirm', { name: form.name }),
                      confirmLabel: t('outbound.deleteRoute'),
                      danger: true,
                    });
                    if (ok) remove.mutate();
                  }}
                >
                  {t('outbound.deleteRoute')}
                </Button>
              ) : (
                <span />
              )}
              <Group>
                <Button variant="default" onClick={onClose}>
                  {t('common.cancel')}
                </Button>
                <Button type="submit" loading={save.isPending}>
                  {t('outbound.saveRoute')}
                </Button>
              </Group>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
