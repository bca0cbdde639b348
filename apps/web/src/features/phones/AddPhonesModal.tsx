import { canonicalMac, vendorOfMac } from '@centralino/contract';
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
import { IconX } from '@tabler/icons-react';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type ModelSummary,
  modelOptions,
  PASTE_LIMIT,
  PASTE_NOTICE_FROM,
  type PendingInput,
  splitPasted,
  validatePending,
} from './macs.ts';
import { errorText, phonesApi } from './phonesApi.ts';

interface Result {
  id: number;
  mac: string;
  error?: string;
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
  const [method, setMethod] = useState<'paste' | 'manual'>('paste');
  const [pasted, setPasted] = useState('');
  const [manualMac, setManualMac] = useState('');
  const [manualModel, setManualModel] = useState<string | null>(null);
  const [rows, setRows] = useState<PendingInput[]>([]);
  const [results, setResults] = useState<Result[]>([]);
  const [busy, setBusy] = useState(false);
  const nextId = useRef(1);

  // Phones added in this session count as inventory too.
  const known = useMemo(
    () => new Set([...inventory, ...results.filter((r) => !r.error).map((r) => r.mac)]),
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

  const errorMessage = (error: string) => t(`phones.errors.${error}`);

  const addAll = async () => {
    setBusy(true);
    const done: Result[] = [];
    for (const phone of ready) {
      if (!phone.mac || !phone.vendor) continue;
      try {
        await phonesApi.add(phone.mac, phone.model, phone.vendor);
        done.push({ id: nextId.current++, mac: phone.mac });
      } catch (error) {
        done.push({ id: nextId.current++, mac: phone.mac, error: errorText(error) });
      }
    }
    const added = new Set(done.filter((r) => !r.error).map((r) => r.mac));
    setRows((current) => current.filter((r) => !added.has(canonicalMac(r.input) ?? '')));
    setResults((current) => [...current, ...done]);
    setBusy(false);
    if (added.size > 0) onAdded();
  };

  const added = results.filter((r) => !r.error);
  const failed = results.filter((r) => r.error);

  return (
    <Modal opened onClose={onClose} title={t('phones.addTitle')} size="xl">
      <Stack gap="md">
        <SegmentedControl
          value={method}
          onChange={(value) => setMethod(value as 'paste' | 'manual')}
          data={[
            { value: 'paste', label: t('phones.methods.paste') },
            { value: 'manual', label: t('phones.methods.manual') },
          ]}
        />
        {method === 'paste' ? (
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
        ) : (
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
                    <ActionIcon
                      variant="subtle"
                      color="gray"
                      aria-label={t('phones.removeFromList', { mac: p.mac ?? p.input })}
                      onClick={() => removeRow(p.id)}
                    >
                      <IconX size={16} />
                    </ActionIcon>
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
            {failed.length > 0 && (
              <Alert color="red" title={t('phones.failedTitle', { count: failed.length })}>
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
