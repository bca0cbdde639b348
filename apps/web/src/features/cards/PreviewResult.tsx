import { Alert, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import type { Preview } from './cardsApi.ts';
import { fromBase64 } from './cardsLogic.ts';

/** A preview's failure as the server explained it (connection, query or template, with its line). */
export function previewErrorText(error: unknown): string {
  if (error instanceof ApiError) return error.body.detail;
  return error instanceof Error ? error.message : String(error);
}

/**
 * The rendered card in a frame that may run nothing: `sandbox=""` (no scripts, no forms, no same-origin
 * access) and the HTML given as srcdoc, never navigated to.
 */
export function CardFrame({ html, title }: { html: string; title: string }) {
  return (
    <iframe
      sandbox=""
      srcDoc={html}
      title={title}
      data-testid="card-frame"
      style={{
        width: '100%',
        minHeight: 180,
        border: '1px solid var(--mantine-color-default-border)',
        borderRadius: 'var(--mantine-radius-sm)',
        background: 'white',
      }}
    />
  );
}

/** What a preview answered: the rows (when shown) and the rendered card; or why it failed. */
export function PreviewResult({ preview, error, showRows }: { preview?: Preview; error?: unknown; showRows: boolean }) {
  const { t } = useTranslation();
  if (error) {
    return (
      <Alert color="red" title={t('cards.preview.failed')} data-testid="preview-error">
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {previewErrorText(error)}
        </Text>
      </Alert>
    );
  }
  if (!preview) return null;
  const rows = preview.rows ?? [];
  const columns = preview.columns ?? Object.keys(rows[0] ?? {});
  return (
    <Stack gap="xs">
      {showRows && (
        <>
          <Title order={3} size="h5">
            {t('cards.preview.rows', { count: rows.length })}
          </Title>
          {preview.truncated && (
            <Text size="sm" c="dimmed">
              {t('cards.preview.truncated')}
            </Text>
          )}
          {rows.length > 0 && (
            <Table.ScrollContainer minWidth={300}>
              <Table withTableBorder striped aria-label={t('cards.preview.rowsTable')} data-testid="preview-rows">
                <Table.Thead>
                  <Table.Tr>
                    {columns.map((c) => (
                      <Table.Th key={c}>{c}</Table.Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((row, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: preview rows have no identity
                    <Table.Tr key={i}>
                      {columns.map((c) => (
                        <Table.Td key={c}>{row[c] ?? ''}</Table.Td>
                      ))}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </>
      )}
      <Title order={3} size="h5">
        {t('cards.preview.rendered')}
      </Title>
      <CardFrame html={fromBase64(preview.html)} title={t('cards.preview.frame')} />
    </Stack>
  );
}
