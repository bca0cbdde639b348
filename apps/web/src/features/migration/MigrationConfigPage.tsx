import type { MigrationStepResult } from '@centralino/contract';
import { Badge, Button, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { confirmAction } from '../../components/confirm.tsx';
import { WriteButton } from '../../components/WriteControls.tsx';
import { MigrationHeader } from './MigrationSteps.tsx';
import { CONFIG_SECTIONS, migrationApi } from './migrationApi.ts';
import { StepLists } from './StepLists.tsx';

type Phase = 'todo' | 'loading' | 'success' | 'fail';
interface Section {
  phase: Phase;
  result?: Pick<MigrationStepResult, 'errors' | 'warnings' | 'infos'>;
}

const COLOR: Record<Phase, string> = { todo: 'gray', loading: 'blue', success: 'green', fail: 'red' };

/** /migration/config: the configuration sections one after the other; each starts after the previous one ends. */
export function MigrationConfigPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [sections, setSections] = useState<Record<string, Section>>(() =>
    Object.fromEntries(CONFIG_SECTIONS.map((s) => [s.key, { phase: 'todo' as Phase }])),
  );
  const [running, setRunning] = useState(false);
  const allDone = Object.values(sections).every((s) => s.phase === 'success' || s.phase === 'fail');

  const run = async () => {
    const ok = await confirmAction({
      title: t('migration.config.confirmTitle'),
      message: t('migration.config.confirmBody'),
    });
    if (!ok) return;
    setRunning(true);
    for (const section of CONFIG_SECTIONS) {
      setSections((s) => ({ ...s, [section.key]: { phase: 'loading' } }));
      const merged = { errors: [] as string[], warnings: [] as string[], infos: [] as string[] };
      let ok = true;
      // A section of two calls (routes then their trunks) stops at the first that fails.
      for (const call of section.calls) {
        const answer = await migrationApi.step(`/api/migration/${call}`).catch((error: Error) => ({
          ok: false,
          result: { status: false, errors: [error.message], warnings: [], infos: [] },
        }));
        merged.errors.push(...answer.result.errors);
        merged.warnings.push(...answer.result.warnings);
        merged.infos.push(...answer.result.infos);
        if (!answer.ok) {
          ok = false;
          break;
        }
      }
      setSections((s) => ({ ...s, [section.key]: { phase: ok ? 'success' : 'fail', result: merged } }));
    }
    setRunning(false);
  };

  return (
    <Stack gap="lg" maw={1100}>
      <MigrationHeader active={1} title={t('migration.config.title')} />
      <Group>
        <WriteButton onClick={run} disabled={running || allDone}>
          {t('migration.config.start')}
        </WriteButton>
      </Group>
      {CONFIG_SECTIONS.map(({ key }) => {
        const s = sections[key] ?? { phase: 'todo' };
        return (
          <Paper key={key} withBorder p="sm" radius="md" data-testid={`section-${key}`}>
            <Group justify="space-between">
              <Text fw={600}>{t(`migration.sections.${key}`)}</Text>
              {s.phase === 'loading' ? (
                <Loader size="xs" aria-label={t('app.loading')} />
              ) : (
                <Badge color={COLOR[s.phase]} variant="light">
                  {t(`migration.phase.${s.phase}`)}
                </Badge>
              )}
            </Group>
            {s.result && <StepLists result={s.result} />}
          </Paper>
        );
      })}
      <Group justify="flex-end">
        <Button onClick={() => navigate('/migration/cdr')} disabled={!allDone}>
          {t('wizard.next')}
        </Button>
      </Group>
    </Stack>
  );
}
