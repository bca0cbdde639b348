import { canonicalMac, RPS_PROVIDER_OF_VENDOR, vendorOfMac } from '@centralino/contract';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { IconPencil, IconX } from '@tabler/icons-react';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import {
  type ModelSummary,
  modelOptions,
  PASTE_LIMIT,
  PASTE_NOTICE_FROM,
  type PendingInput,
  splitPasted,
  validatePending,
} from './macs.ts';
import { CopyableUrl } from './PhoneInfoModal.tsx';
import { errorText, phonesApi } from './phonesApi.ts';
import { ScanNetwork } from './ScanNetwork.tsx';

/**
 * What became of one phone: in both inventories ('added'); added, but its vendor's redirect service could
 * not be reached or refused it, so it must be given `url` by hand ('pushFailed', with `push` saying which);
 * or not added at all ('failed').
 */
interface Result {
  id: number;
  mac: string;
  outcome: 'added' | 'pushFailed' | 'failed';
  error?: string;
  url?: string;
  push?: PushFailure;
}

/** Why a phone is not in its vendor's cloud service: the service did not answer, or said no (and why). */
export type PushFailure = { reason: 'unreachable' } | { reason: 'refused'; detail: string };

/** Tells an unreachable redirect service (our 502 'rps_unreachable', or no answer at all) from a refusal. */
export function pushFailureOf(error: unknown): PushFailure {
  if (error instanceof ApiError && (error.code === 'rps_unreachable' || error.status === 0)) {
    return { reason: 'unreachable' };
  }
  return { reason: 'refused', detail: errorText(error) };
}

/** Pushes a new phone's first-access URL to its vendor's redirect service, when the vendor has one. */
async function pushToRedirectService(
  phone: { mac: string; provisioning_url1: string | null; provisioning_url2: string },
  vendor: string,
): Promise<{ outcome: Result['outcome']; push?: PushFailure }> {
  if (!RPS_PROVIDER_OF_VENDOR[vendor] || !phone.provisioning_url1) return { outcome: 'added' };
  try {
    await phonesApi.pushToRedirectService(phone.mac, phone.provisioning_url1);
    return { outcome: 'added' };
  } catch (error) {
    return { outcome: 'pushFailed', push: pushFailureOf(error) };
  }
}

/** The MAC cell of a pending row, which turns into an input to correct the entry. */
function MacEditor({ input, onSave }: { input: string; onSave: (value: string) => void }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(input);
  if (!editing) {
    return (
      <ActionIcon
        variant="subtle"
        color="gray"
        aria-label={t('phones.editRow', { mac: input })}
        onClick={() => {
          setValue(input);
          setEditing(true);
        }}
      >
        <IconPencil size={16} />
      </ActionIcon>
    );
  }
  const save = () => {
    setEditing(false);
    if (value.trim() && value.trim() !== input) onSave(value.trim());
  };
  return (
    <TextInput
      size="xs"
      w={170}
      autoFocus
      aria-label={t('phones.editMac', { mac: input })}
      value={value}
      onChange={(e) => setValue(e.currentTarget.value)}
      onBlur={save}
      onKeyDown={(e) => {
        if (e.key === 'Enter') save();
        if (e.key === 'Escape') {
          e.stopPropagation();
          setEditing(false);
        }
      }}
    />
  );
}

/** 'Add phones': paste a list or add one manually, check the pending list, then add. */
export function AddPhonesModal({
  inventory,
  models,
  onAdded,
  onClose,
}: {
  inventory: ReadonlySet<string>;
  models: readonly ModelSummary[];
  onAdded: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [method, setMethod] = useState<'paste' | 'manual' | 'scan'>('paste');
  const [pasted, setPasted] = useState('');
  const [manualMac, setManualMac] = useState('');
  const [manualModel, setManualModel] = useState<string | null>(null);
  const [rows, setRows] = useState<PendingInput[]>([]);
  const [results, setResults] = useState<Result[]>([]);
  const [busy, setBusy] = useState(false);
  const [bulkVendor, setBulkVendor] = useState<string | null>(null);
  const [bulkModel, setBulkModel] = useState<string | null>(null);
  const nextId = useRef(1);

  // Phones added in this session count as inventory too.
  const known = useMemo(
    () => new Set([...inventory, ...results.filter((r) => r.outcome !== 'failed').map((r) => r.mac)]),
    [inventory, results],
  );
  const pending = validatePending(rows, known);
  const ready = pending.filter((p) => !p.error && p.mac && p.vendor);
  const manualVendor = vendorOfMac(manualMac.trim());

  const append = (inputs: { input: string; model?: string | null }[]) =>
    setRows((current) => [...current, ...inputs.map((i) => ({ id: nextId.current++, ...i }))]);
  const setRowModel = (id: number, model: string | null) =>
    setRows((current) => current.map((r) => (r.id === id ? { ...r, model } : r)));
  const removeRow = (id: number) => setRows((current) => current.filter((r) => r.id !== id));
  const setRowInput = (id: number, input: string) =>
    setRows((current) => current.map((r) => (r.id === id ? { id, input } : r)));
  // 'Apply to all' works per vendor: a model only fits phones of its own vendor.
  const vendors = [...new Set(pending.flatMap((p) => (p.vendor && !p.error ? [p.vendor] : [])))];
  const chosenVendor = bulkVendor && vendors.includes(bulkVendor) ? bulkVendor : (vendors[0] ?? null);
  const applyToAll = () => {
    if (!chosenVendor) return;
    const ids = new Set(pending.filter((p) => p.vendor === chosenVendor && !p.error).map((p) => p.id));
    setRows((current) => current.map((r) => (ids.has(r.id) ? { ...r, model: bulkModel } : r)));
  };

  const errorMessage = (error: string) => t(`phones.errors.${error}`);

  const addAll = async () => {
    setBusy(true);
    const done: Result[] = [];
    for (const phone of ready) {
      if (!phone.mac || !phone.vendor) continue;
      let created: Awaited<ReturnType<typeof phonesApi.add>>;
      try {
        created = await phonesApi.add(phone.mac, phone.model, phone.vendor);
      } catch (error) {
        done.push({ id: nextId.current++, mac: phone.mac, outcome: 'failed', error: errorText(error) });
        continue;
      }
      const { outcome, push } = await pushToRedirectService(created, phone.vendor);
      done.push({ id: nextId.current++, mac: phone.mac, outcome, push, url: created.provisioning_url2 });
    }
    const added = new Set(done.filter((r) => r.outcome !== 'failed').map((r) => r.mac));
    setRows((current) => current.filter((r) => !added.has(canonicalMac(r.input) ?? '')));
    setResults((current) => [...current, ...done]);
    setBusy(false);
    if (added.size > 0) onAdded();
  };

  // Phones the redirect service refused are in the inventory all the same: they count as added.
  const added = results.filter((r) => r.outcome !== 'failed');
  const pushFailed = results.filter((r) => r.outcome === 'pushFailed');
  const failed = results.filter((r) => r.outcome === 'failed');

  return (
    <Modal opened onClose={onClose} title={t('phones.addTitle')} size="xl">
      <Stack gap="md">
        <SegmentedControl
          value={method}
          onChange={(value) => setMethod(value as 'paste' | 'manual' | 'scan')}
          data={[
            { value: 'paste', label: t('phones.methods.paste') },
            { value: 'manual', label: t('phones.methods.manual') },
            { value: 'scan', label: t('phones.methods.scan') },
          ]}
        />
        {method === 'scan' && (
          <ScanNetwork
            inventory={known}
            onFound={(found) => {
              setRows([]);
              append(found);
            }}
          />
        )}
        {method === 'paste' && (
          <Stack gap="xs">
            <Textarea
              label={t('phones.pasteLabel')}
              description={t('phones.pasteHint')}
              value={pasted}
              onChange={(e) => setPasted(e.currentTarget.value.slice(0, PASTE_LIMIT))}
              maxLength={PASTE_LIMIT}
              autosize
              minRows={4}
              maxRows={10}
            />
            {pasted.length >= PASTE_NOTICE_FROM && (
              <Alert color="yellow" data-testid="paste-limit">
                {t('phones.pasteLimit', { max: PASTE_LIMIT })}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button
                variant="default"
                disabled={pasted.trim() === ''}
                onClick={() => {
                  append(splitPasted(pasted).map((input) => ({ input })));
                  setPasted('');
                }}
              >
                {t('phones.apply')}
              </Button>
            </Group>
          </Stack>
        )}
        {method === 'manual' && (
          <Group align="end" gap="sm">
            <TextInput
              label={t('phones.mac')}
              placeholder="00:15:65:12:34:56"
              value={manualMac}
              onChange={(e) => {
                setManualMac(e.currentTarget.value);
                setManualModel(null);
              }}
              style={{ flex: 1 }}
            />
            <Select
              label={t('phones.model')}
              placeholder={t('phones.noModel')}
              data={modelOptions(models, manualVendor)}
              value={manualModel}
              onChange={setManualModel}
              searchable
              clearable
              w={240}
            />
            <Button
              variant="default"
              disabled={manualMac.trim() === ''}
              onClick={() => {
                append([{ input: manualMac.trim(), model: manualModel ?? undefined }]);
                setManualMac('');
                setManualModel(null);
              }}
            >
              {t('phones.addToList')}
            </Button>
          </Group>
        )}

        {vendors.length > 0 && (
          <Group align="end" gap="sm" data-testid="apply-to-all">
            <Select
              label={t('phones.bulkVendor')}
              data={vendors}
              value={chosenVendor}
              onChange={(value) => {
                setBulkVendor(value);
                setBulkModel(null);
              }}
              allowDeselect={false}
              size="xs"
              w={200}
            />
            <Select
              label={t('phones.bulkModel')}
              placeholder={t('phones.noModel')}
              data={modelOptions(models, chosenVendor ?? undefined)}
              value={bulkModel}
              onChange={setBulkModel}
              searchable
              clearable
              size="xs"
              w={220}
            />
            <Button size="xs" variant="default" onClick={applyToAll}>
              {t('phones.applyToAll')}
            </Button>
          </Group>
        )}

        {pending.length > 0 && (
          <Table data-testid="pending-phones" verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('phones.mac')}</Table.Th>
                <Table.Th>{t('phones.vendor')}</Table.Th>
                <Table.Th>{t('phones.model')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {pending.map((p) => (
                <Table.Tr key={p.id}>
                  <Table.Td>
                    <Text ff="monospace" size="sm">
                      {p.mac ?? p.input}
                    </Text>
                    {p.error && (
                      <Text c="red" size="xs" role="alert">
                        {errorMessage(p.error)}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{p.vendor ?? '—'}</Table.Td>
                  <Table.Td>
                    {p.vendor && !p.error && (
                      <Select
                        aria-label={t('phones.modelOf', { mac: p.mac })}
                        placeholder={t('phones.noModel')}
                        data={modelOptions(models, p.vendor, p.model)}
                        value={p.model}
                        onChange={(value) => setRowModel(p.id, value)}
                        searchable
                        clearable
                        size="xs"
                        w={200}
                      />
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap" justify="flex-end">
                      <MacEditor input={p.input} onSave={(value) => setRowInput(p.id, value)} />
                      <ActionIcon
                        variant="subtle"
                        color="gray"
                        aria-label={t('phones.removeFromList', { mac: p.mac ?? p.input })}
                        onClick={() => removeRow(p.id)}
                      >
                        <IconX size={16} />
                      </ActionIcon>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}

        {results.length > 0 && (
          <Stack gap="xs" data-testid="add-results">
            {added.length > 0 && (
              <Alert color="teal" title={t('phones.addedTitle', { count: added.length })}>
                <Group gap="xs">
                  {added.map((r) => (
                    <Badge key={r.id} color="teal" variant="light" ff="monospace">
                      {r.mac}
                    </Badge>
                  ))}
                </Group>
              </Alert>
            )}
            {pushFailed.length > 0 && (
              <Alert
                color="yellow"
                title={t('phones.pushFailedTitle', { count: pushFailed.length })}
                data-testid="push-failed"
              >
                <Stack gap="xs">
                  <Text size="sm">{t('phones.pushFailedHint')}</Text>
                  {pushFailed.map((r) => (
                    <Stack key={r.id} gap={2}>
                      <Text size="sm" ff="monospace" fw={600}>
                        {r.mac}
                      </Text>
                      <Text size="sm" data-testid={`push-reason-${r.mac}`}>
                        {r.push?.reason === 'unreachable'
                          ? t('phones.pushUnreachable')
                          : t('phones.pushRefused', { detail: r.push?.detail ?? '' })}
                      </Text>
                      {r.url && <CopyableUrl url={r.url} label={t('phones.provisioningUrlOf', { mac: r.mac })} />}
                    </Stack>
                  ))}
                </Stack>
              </Alert>
            )}
            {failed.length > 0 && (
              <Alert color="red" title={t('phones.failedTitle', { count: failed.length })} data-testid="add-failed">
                <Stack gap={2}>
                  {failed.map((r) => (
                    <Text key={r.id} size="sm">
                      <Text span ff="monospace">
                        {r.mac}
                      </Text>
                      : {r.error}
                    </Text>
                  ))}
                </Stack>
              </Alert>
            )}
          </Stack>
        )}

        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {ready.length === 0 && results.length > 0 ? t('common.continue') : t('common.close')}
          </Button>
          <Button disabled={ready.length === 0} loading={busy} onClick={() => void addAll()}>
            {t('phones.addCount', { count: ready.length })}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
