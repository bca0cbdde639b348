import type { MigrationStepResult } from '@centralino/contract';
import { List, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

const KINDS = ['errors', 'warnings', 'infos'] as const;

/** The errors, warnings and infos of a step. */
export function StepLists({ result }: { result: Pick<MigrationStepResult, 'errors' | 'warnings' | 'infos'> }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4} mt="xs">
      {KINDS.map((kind) =>
        result[kind].length > 0 ? (
          <div key={kind}>
            <Text size="sm" fw={600} c={kind === 'errors' ? 'error' : undefined}>
              {t(`migration.kinds.${kind}`)}
            </Text>
            <List size="sm">
              {result[kind].map((m, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: messages may repeat
                <List.Item key={i}>{m}</List.Item>
              ))}
            </List>
          </div>
        ) : null,
      )}
    </Stack>
  );
}
