import { ADMIN_PASSWORD_MIN_LENGTH, passwordRequestSchema, stepOfPath } from '@centralino/contract';
import { Alert, Button, Card, Center, Group, Loader, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/endpoints.ts';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { useEngine, useWizardState } from '../wizard/useWizard.ts';
import { WizardFrame } from '../wizard/WizardFrame.tsx';

const PATH = '/admin/settings';

type Problem = 'required' | 'tooShort' | 'mismatch';

/** What is wrong with each field, checked before anything is sent (the server applies the same rules). */
export function checkPasswordForm(password: string, confirmation: string): { password?: Problem; confirm?: Problem } {
  const problems: { password?: Problem; confirm?: Problem } = {};
  if (password === '') problems.password = 'required';
  else if ([...password].length < ADMIN_PASSWORD_MIN_LENGTH || !passwordRequestSchema.safeParse({ password }).success)
    problems.password = 'tooShort';
  if (confirmation === '') problems.confirm = 'required';
  else if (confirmation !== password) problems.confirm = 'mismatch';
  return problems;
}

function PasswordForm() {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [touched, setTouched] = useState(false);
  const change = useMutation({
    mutationFn: (value: string) => api.changeAdminPassword(value),
    onSuccess: () => {
      setPassword('');
      setConfirmation('');
      setTouched(false);
      notifySuccess(t('adminSettings.changed'));
    },
    onError: (error) => notifyError(t('adminSettings.error'), error),
  });

  const problems = touched ? checkPasswordForm(password, confirmation) : {};
  const message = (problem: Problem | undefined) =>
    problem && t(`adminSettings.${problem}`, { min: ADMIN_PASSWORD_MIN_LENGTH });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    const found = checkPasswordForm(password, confirmation);
    if (found.password || found.confirm) return;
    change.mutate(password);
  };

  return (
    <Card withBorder radius="md" maw={560}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            {t('adminSettings.description', { min: ADMIN_PASSWORD_MIN_LENGTH })}
          </Text>
          <Alert color="yellow" icon={<IconAlertTriangle />} title={t('adminSettings.warningTitle')}>
            {t('adminSettings.warning')}
          </Alert>
          <PasswordInput
            label={t('adminSettings.password')}
            name="new-password"
            autoComplete="new-password"
            required
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={message(problems.password)}
            visibilityToggleButtonProps={{ 'aria-label': t('adminSettings.togglePassword') }}
          />
          <PasswordInput
            label={t('adminSettings.confirm')}
            name="confirm-password"
            autoComplete="new-password"
            required
            value={confirmation}
            onChange={(e) => setConfirmation(e.currentTarget.value)}
            error={message(problems.confirm)}
            visibilityToggleButtonProps={{ 'aria-label': t('adminSettings.toggleConfirm') }}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={change.isPending}>
              {t('adminSettings.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

export function AdminSettingsPage() {
  const { t } = useTranslation();
  const engine = useEngine();
  const wizard = useWizardState();

  if (!engine.data || !wizard.data) {
    return (
      <Center mt="xl">
        <Loader aria-label={t('app.loading')} />
      </Center>
    );
  }

  const step = stepOfPath(engine.data, PATH);
  if (wizard.data.active && step !== undefined) {
    // Changing the password is optional: Finalise is always allowed.
    return (
      <WizardFrame engine={engine.data} step={step} canAdvance>
        <PasswordForm />
      </WizardFrame>
    );
  }
  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        {t('adminSettings.title')}
      </Title>
      <PasswordForm />
    </Stack>
  );
}
