import { Anchor, Center, Group, List, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconChevronRight } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate } from 'react-router';
import { stepTitleKey } from '../../app/paths.ts';
import { useEngine } from './useWizard.ts';

/** The parent screens that group two wizard steps, each with its numbered sub-step bar (spec §2). */
export const SUB_STEPS = {
  trunks: [
    { path: '/trunks/physical', label: 'physical' },
    { path: '/trunks/voip', label: 'voip' },
  ],
  routes: [
    { path: '/routes/inbound', label: 'inbound' },
    { path: '/routes/outbound', label: 'outbound' },
  ],
} as const;
export type SubStepGroup = keyof typeof SUB_STEPS;

/** The group a wizard step belongs to ('/trunks/voip' → trunks), if any. */
export function subStepGroupOf(path: string): SubStepGroup | undefined {
  return (Object.keys(SUB_STEPS) as SubStepGroup[]).find((group) =>
    SUB_STEPS[group].some((step) => step.path === path),
  );
}

/** Numbered links to the sub-steps of a group; the current one is marked for assistive technology too. */
export function SubStepBar({ group, current }: { group: SubStepGroup; current?: string }) {
  const { t } = useTranslation();
  return (
    <nav aria-label={t(`wizard.subSteps.${group}.label`)} data-testid="sub-step-bar">
      <Group gap="lg" component="ol" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {SUB_STEPS[group].map((step, index) => {
          const active = step.path === current;
          return (
            <li key={step.path}>
              <Anchor component={Link} to={step.path} aria-current={active ? 'step' : undefined} underline="hover">
                <Group gap={8} wrap="nowrap" component="span">
                  <ThemeIcon radius="xl" size="md" variant={active ? 'filled' : 'light'} component="span">
                    {index + 1}
                  </ThemeIcon>
                  <Text component="span" fw={active ? 700 : 500}>
                    {t(`wizard.subSteps.${group}.${step.label}`)}
                  </Text>
                </Group>
              </Anchor>
            </li>
          );
        })}
      </Group>
    </nav>
  );
}

/** /trunks and /routes: the group's sub-step bar and what each sub-step is for. */
export function SubStepsPage({ group }: { group: SubStepGroup }) {
  const { t } = useTranslation();
  return (
    <Stack gap="lg" maw={960}>
      <Title order={1} size="h2">
        {t(`wizard.subSteps.${group}.title`)}
      </Title>
      <SubStepBar group={group} />
      <List spacing="sm" icon={<IconChevronRight size={16} />} center>
        {SUB_STEPS[group].map((step) => (
          <List.Item key={step.path}>
            <Anchor component={Link} to={step.path} fw={600}>
              {t(stepTitleKey(step.path))}
            </Anchor>
            <Text size="sm" c="dimmed">
              {t(`wizard.subSteps.${group}.${step.label}Hint`)}
            </Text>
          </List.Item>
        ))}
      </List>
    </Stack>
  );
}

/** /configurations opens the per-user configuration of the provisioning mode in use. */
export function ConfigurationsRedirect() {
  const { t } = useTranslation();
  const engine = useEngine();
  if (!engine.data) {
    return (
      <Center mt="xl">
        <Loader aria-label={t('app.loading')} />
      </Center>
    );
  }
  return (
    <Navigate
      to={engine.data === 'tancredi' ? '/configurations/preferences' : '/configurations/preferencesFreepbx'}
      replace
    />
  );
}
