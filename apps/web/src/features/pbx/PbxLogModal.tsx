import { Badge, Group, Modal, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pbxSystemApi } from './pbxSystem.ts';

/** Warnings and errors Asterisk logged since it started, newest last, searchable. */
export function PbxLogModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const { data, isLoading } = useQuery({
    queryKey: ['pbx-system-log', debounced],
    queryFn: () => pbxSystemApi.log(debounced),
    enabled: opened,
  });
  return (
    <Modal opened={opened} onClose={onClose} title={t('pbxSystem.logTitle')} size="xl">
      <Stack gap="sm">
        <TextInput
          label={t('pbxSystem.logSearch')}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          data-autofocus
        />
        {data && (
          <Text size="sm" aria-live="polite">
            {t('pbxSystem.logCount', { count: data.total, shown: data.lines.length })}
          </Text>
        )}
        {!isLoading && data?.lines.length === 0 && <Text size="sm">{t('pbxSystem.logEmpty')}</Text>}
        {data && data.lines.length > 0 && (
          <ScrollArea.Autosize mah={420} viewportProps={{ tabIndex: 0, 'aria-label': t('pbxSystem.logLines') }}>
            <Stack gap={4} component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
              {data.lines.map((line, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a snapshot replaced whole, never reordered; the same line may repeat
                <Group key={`${line.time}-${i}`} component="li" gap="xs" wrap="nowrap" align="flex-start">
                  <Badge color={line.level === 'ERROR' ? 'red' : 'yellow'} variant="light" size="sm" miw={80}>
                    {t(`pbxSystem.level.${line.level}`)}
                  </Badge>
                  <Text size="xs" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
                    {line.time}
                  </Text>
                  <Text size="xs" ff="monospace" style={{ wordBreak: 'break-word' }}>
                    {line.text}
                  </Text>
                </Group>
              ))}
            </Stack>
          </ScrollArea.Autosize>
        )}
      </Stack>
    </Modal>
  );
}
