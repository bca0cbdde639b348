import { Alert, Loader, Modal, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { dashboardApi } from './dashboardApi.ts';

/** Contract admin §10.2: the details of one extension, or why there are none. */
export function ExtensionInfoModal({
  extension,
  type,
  onClose,
}: {
  extension: string | null;
  type: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const info = useQuery({
    queryKey: ['dashboard', 'extension', extension],
    queryFn: () => dashboardApi.extension(extension as string),
    enabled: extension !== null,
    retry: false,
  });
  const data = info.data;
  const rows: [string, string][] = data
    ? [
        [t('dashboard.info.exten'), data.exten],
        [t('dashboard.info.name'), data.name],
        [t('dashboard.info.userAgent'), data.sipuseragent || '—'],
        [t('dashboard.info.chanType'), data.chanType],
        [t('dashboard.info.ip'), data.ip || '—'],
        [t('dashboard.info.port'), data.port || '—'],
        [t('dashboard.info.codecs'), data.codecs.join(', ')],
        [t('dashboard.info.dnd'), data.dnd ? t('dashboard.yes') : t('dashboard.no')],
        [t('dashboard.info.cf'), data.cfVm ? t('dashboard.presence.voicemail') : data.cf || t('dashboard.info.cfOff')],
        [t('dashboard.info.type'), t(`dashboard.types.${type}`, { defaultValue: type })],
        [t('dashboard.info.status'), t(`dashboard.status.${data.status}`)],
      ]
    : [];
  return (
    <Modal opened={extension !== null} onClose={onClose} title={t('dashboard.info.title', { extension })}>
      {info.isPending ? (
        <Loader size="sm" aria-label={t('app.loading')} />
      ) : info.isError ? (
        <Alert color="red" title={t('dashboard.info.failed')}>
          {info.error.message}
        </Alert>
      ) : data?.status === 'offline' ? (
        <Text>{t('dashboard.info.notRegistered')}</Text>
      ) : (
        <Table>
          <Table.Tbody>
            {rows.map(([label, value]) => (
              <Table.Tr key={label}>
                <Table.Th scope="row">{label}</Table.Th>
                <Table.Td>{value}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Modal>
  );
}
