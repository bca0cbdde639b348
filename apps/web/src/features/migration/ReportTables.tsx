import { Paper, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { reportRows } from './migrationPdf.ts';

/** One table per area, columns message and type: the report screen's, and the dry run's. */
export function ReportTables({
  sections,
  idPrefix = 'report',
}: {
  sections: ReturnType<typeof reportRows>;
  idPrefix?: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      {sections.map(({ section, rows }) => (
        <Paper key={section} withBorder p="sm" radius="md" data-testid={`${idPrefix}-${section}`}>
          <Text fw={600} mb="xs" component="h2" size="md">
            {t(`migration.sections.${section}`)}
          </Text>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('migration.report.message')}</Table.Th>
                <Table.Th>{t('migration.report.type')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: messages may repeat
                <Table.Tr key={i}>
                  <Table.Td>{r.message}</Table.Td>
                  <Table.Td>{t(`migration.kinds.${r.type}`)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      ))}
    </>
  );
}
