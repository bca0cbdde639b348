import {
  PHONEBOOK_DEFAULT_INTERVAL,
  PHONEBOOK_DEFAULT_QUERY,
  PHONEBOOK_FIELDS,
  PHONEBOOK_INTERVALS,
  type PhonebookConnection,
  type PhonebookSource,
  type PhonebookSourceWrite,
  phonebookConnectionSchema,
  phonebookSourceWriteSchema,
} from '@centralino/contract';
import {
  Alert,
  Button,
  FileInput,
  Group,
  Modal,
  PasswordInput,
  SegmentedControl,
  Select,
  Stack,
  Stepper,
  Switch,
  Table,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { phonebookApi } from './phonebookApi.ts';

interface Form {
  dbtype: 'mysql' | 'csv';
  host: string;
  port: string;
  user: string;
  password: string;
  dbname: string;
  query: string;
  url: string;
  mapping: Record<string, string>;
  type: string;
  interval: string;
  enabled: boolean;
}

function initial(source?: PhonebookSource): Form {
  return {
    dbtype: source?.dbtype ?? 'mysql',
    host: source?.host ?? '',
    port: source?.port ?? '3306',
    user: source?.user ?? '',
    password: '',
    dbname: source?.dbname ?? '',
    query: source?.query ?? PHONEBOOK_DEFAULT_QUERY,
    url: source?.url ?? '',
    mapping: source?.mapping ?? {},
    type: source?.type ?? '',
    interval: source?.interval ?? String(PHONEBOOK_DEFAULT_INTERVAL),
    // A new source is meant to sync: on, unless the administrator turns it off.
    enabled: source?.enabled ?? true,
  };
}

function connectionOf(form: Form, keepPassword: boolean): PhonebookConnection {
  return form.dbtype === 'mysql'
    ? {
        dbtype: 'mysql',
        host: form.host,
        port: form.port,
        user: form.user,
        // Left empty while modifying: the stored password is used.
        ...(keepPassword && form.password === '' ? {} : { password: form.password }),
        dbname: form.dbname,
        query: form.query,
      }
    : { dbtype: 'csv', url: form.url };
}

/**
 * The 3-step source modal: 1 the source and its connection check, 2 the mapping of its columns onto the
 * phonebook's fields with a preview, 3 the label, interval and switch. Steps are clickable only when modifying.
 */
export function SourceModal({ id, source, onClose }: { id?: string; source?: PhonebookSource; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const modifying = id !== undefined;
  const [form, setForm] = useState<Form>(() => initial(source));
  const [step, setStep] = useState(0);
  const [rows, setRows] = useState<Record<string, string>[] | null>(null);
  const [checkError, setCheckError] = useState<string | null>(null);
  const set = <K extends keyof Form>(key: K, value: Form[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    // A changed connection must be checked again.
    if (!['mapping', 'type', 'interval', 'enabled'].includes(key)) {
      setRows(null);
      setCheckError(null);
    }
  };
  const connection = connectionOf(form, modifying);
  const connectionValid = phonebookConnectionSchema.safeParse(connection).success;
  const check = useMutation({
    mutationFn: () => phonebookApi.test(connection, id),
    onSuccess: (result) => {
      if (Array.isArray(result)) {
        setRows(result);
        setCheckError(null);
      } else {
        setRows(null);
        setCheckError(result.error);
      }
    },
    onError: (e) => setCheckError(e instanceof ApiError ? e.body.detail : e.message),
  });
  const upload = useMutation({
    mutationFn: (file: File) => phonebookApi.upload(file),
    onSuccess: (uri) => {
      set('url', uri);
      // Checked at once, as the original console did after an upload.
      setTimeout(() => check.mutate(), 0);
    },
  });
  const columns = Object.keys(rows?.[0] ?? {});
  const body: PhonebookSourceWrite = {
    ...connection,
    mapping: Object.fromEntries(Object.entries(form.mapping).filter(([c, f]) => f && columns.includes(c))),
    type: form.type,
    interval: Number(form.interval),
    enabled: form.enabled,
  } as PhonebookSourceWrite;
  const parsed = phonebookSourceWriteSchema.safeParse(body);
  const mappingValid = Object.values(body.mapping ?? {}).includes('name');
  const save = useMutation({
    mutationFn: async () => {
      if (modifying) await phonebookApi.update(id, body);
      else await phonebookApi.create(body);
    },
    onSuccess: async () => {
      notifySuccess(t('phonebook.saved'));
      await queryClient.invalidateQueries({ queryKey: ['phonebook'] });
      onClose();
    },
    onError: (e) => notifyError(t('phonebook.errors.save'), e),
  });
  const verified = rows !== null;
  const fieldsInUse = (column: string) =>
    new Set(
      Object.entries(form.mapping)
        .filter(([c, f]) => c !== column && f)
        .map(([, f]) => f),
    );

  return (
    <Modal
      opened
      onClose={onClose}
      size="xl"
      title={modifying ? t('phonebook.modal.modify') : t('phonebook.modal.create')}
    >
      <Stepper active={step} onStepClick={modifying ? setStep : undefined} size="sm" allowNextStepsSelect={modifying}>
        <Stepper.Step label={t('phonebook.modal.source')}>
          <Stack gap="sm" mt="md">
            <SegmentedControl
              aria-label={t('phonebook.modal.dbtype')}
              value={form.dbtype}
              onChange={(v) => set('dbtype', v as Form['dbtype'])}
              data={[
                { value: 'mysql', label: 'MySQL / MariaDB' },
                { value: 'csv', label: 'CSV' },
              ]}
            />
            {form.dbtype === 'mysql' ? (
              <>
                <Group grow>
                  <TextInput
                    label={t('phonebook.modal.host')}
                    value={form.host}
                    onChange={(e) => set('host', e.currentTarget.value)}
                  />
                  <TextInput
                    label={t('phonebook.modal.port')}
                    value={form.port}
                    onChange={(e) => set('port', e.currentTarget.value)}
                  />
                </Group>
                <Group grow>
                  <TextInput
                    label={t('phonebook.modal.user')}
                    value={form.user}
                    onChange={(e) => set('user', e.currentTarget.value)}
                  />
                  <PasswordInput
                    label={t('phonebook.modal.password')}
                    placeholder={modifying && source?.has_password ? t('phonebook.modal.passwordKept') : undefined}
                    value={form.password}
                    onChange={(e) => set('password', e.currentTarget.value)}
                  />
                </Group>
                <TextInput
                  label={t('phonebook.modal.dbname')}
                  value={form.dbname}
                  onChange={(e) => set('dbname', e.currentTarget.value)}
                />
                <Textarea
                  label={t('phonebook.modal.query')}
                  autosize
                  minRows={2}
                  value={form.query}
                  onChange={(e) => set('query', e.currentTarget.value)}
                />
              </>
            ) : (
              <>
                <TextInput
                  label={t('phonebook.modal.url')}
                  placeholder="https://example.com/contacts.csv"
                  value={form.url.startsWith('file:///') ? t('phonebook.card.uploaded') : form.url}
                  readOnly={form.url.startsWith('file:///')}
                  onChange={(e) => set('url', e.currentTarget.value)}
                />
                <FileInput
                  label={t('phonebook.modal.upload')}
                  accept=".csv,text/csv"
                  placeholder={t('phonebook.modal.chooseFile')}
                  onChange={(file) => file && upload.mutate(file)}
                  error={
                    upload.error
                      ? upload.error instanceof ApiError
                        ? upload.error.body.detail
                        : upload.error.message
                      : undefined
                  }
                />
              </>
            )}
            <Group>
              <Button
                variant="default"
                disabled={!connectionValid}
                loading={check.isPending}
                onClick={() => check.mutate()}
              >
                {t('phonebook.modal.check')}
              </Button>
              {verified && (
                <Text size="sm" fw={600} role="status">
                  {t('phonebook.modal.verified')}
                </Text>
              )}
            </Group>
            {checkError && (
              <Alert color="red" title={t('phonebook.modal.notVerified')}>
                {checkError}
              </Alert>
            )}
          </Stack>
        </Stepper.Step>
        <Stepper.Step label={t('phonebook.modal.map')}>
          <Stack gap="sm" mt="md">
            {columns.map((column) => {
              const used = fieldsInUse(column);
              return (
                <Select
                  key={column}
                  label={t('phonebook.modal.column', { column })}
                  clearable
                  placeholder={t('phonebook.modal.notImported')}
                  data={PHONEBOOK_FIELDS.map((f) => ({
                    value: f,
                    label: used.has(f)
                      ? `${t(`phonebook.fields.${f}`)} (${t('phonebook.modal.inUse')})`
                      : t(`phonebook.fields.${f}`),
                  }))}
                  value={form.mapping[column] ?? null}
                  onChange={(v) => set('mapping', { ...form.mapping, [column]: v ?? '' })}
                />
              );
            })}
            {!mappingValid && (
              <Text c="red.8" size="sm">
                {t('phonebook.modal.needName')}
              </Text>
            )}
            {rows && rows.length > 0 && mappingValid && (
              <Table withTableBorder aria-label={t('phonebook.modal.preview')}>
                <Table.Thead>
                  <Table.Tr>
                    {[...new Set(Object.values(body.mapping ?? {}))].map((f) => (
                      <Table.Th key={f}>{t(`phonebook.fields.${f}`)}</Table.Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((row, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: preview rows have no identity
                    <Table.Tr key={i}>
                      {[...new Set(Object.values(body.mapping ?? {}))].map((f) => (
                        <Table.Td key={f}>
                          {Object.entries(body.mapping ?? {})
                            .filter(([, field]) => field === f)
                            .map(([c]) => row[c])
                            .filter(Boolean)
                            .join(' ')}
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </Stack>
        </Stepper.Step>
        <Stepper.Step label={t('phonebook.modal.settings')}>
          <Stack gap="sm" mt="md">
            <TextInput
              label={t('phonebook.modal.type')}
              description={t('phonebook.modal.typeHelp')}
              value={form.type}
              onChange={(e) => set('type', e.currentTarget.value)}
            />
            <Select
              label={t('phonebook.modal.interval')}
              data={PHONEBOOK_INTERVALS.map((n) => ({ value: String(n), label: t(`phonebook.intervals.${n}`) }))}
              value={form.interval}
              allowDeselect={false}
              onChange={(v) => set('interval', v ?? String(PHONEBOOK_DEFAULT_INTERVAL))}
            />
            <Switch
              label={t('phonebook.card.enabled')}
              checked={form.enabled}
              onChange={(e) => set('enabled', e.currentTarget.checked)}
            />
          </Stack>
        </Stepper.Step>
      </Stepper>
      <Group justify="flex-end" mt="lg">
        {step > 0 && (
          <Button variant="default" onClick={() => setStep(step - 1)}>
            {t('phonebook.modal.back')}
          </Button>
        )}
        {step < 2 ? (
          <Button disabled={!verified || (step === 1 && !mappingValid)} onClick={() => setStep(step + 1)}>
            {t('phonebook.modal.next')}
          </Button>
        ) : (
          <Button disabled={!verified || !parsed.success} loading={save.isPending} onClick={() => save.mutate()}>
            {t('phonebook.modal.save')}
          </Button>
        )}
      </Group>
    </Modal>
  );
}
