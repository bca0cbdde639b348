import { Stepper, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

const STEPS = ['users', 'config', 'cdr', 'report'] as const;

/** Title and the four steps of the migration (Users, Configurations, CDR, Report); `active` -1: none yet. */
export function MigrationHeader({ active, title }: { active: number; title: string }) {
  const { t } = useTranslation();
  return (
    <>
      <Title order={1} size="h2">
        {title}
      </Title>
      <Stepper active={active} size="sm" allowNextStepsSelect={false} aria-label={t('migration.steps.label')}>
        {STEPS.map((s) => (
          <Stepper.Step key={s} label={t(`migration.steps.${s}`)} />
        ))}
      </Stepper>
    </>
  );
}
