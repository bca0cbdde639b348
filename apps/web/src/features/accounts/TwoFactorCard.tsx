import {
  recoveryCodesSchema,
  twoFactorEnableSchema,
  twoFactorSetupSchema,
  twoFactorStatusSchema,
} from '@centralino/contract';
import { Alert, Button, Card, Code, Group, Image, List, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import qrcode from 'qrcode-generator';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiRequest } from '../../api/client.ts';
import { notifyError, notifySuccess } from '../../components/notify.ts';

const KEY = ['own-2fa'];

/** The otpauth:// URI drawn as a QR code, in the browser: the secret never leaves for a QR service. */
function QrCode({ uri, label }: { uri: string; label: string }) {
  const src = useMemo(() => {
    const qr = qrcode(0, 'M');
    qr.addData(uri);
    qr.make();
    return qr.createDataURL(5, 4);
  }, [uri]);
  return <Image src={src} alt={label} w={220} h={220} radius="sm" style={{ imageRendering: 'pixelated' }} />;
}

/** Two-factor sign-in of the signed-in account: status, enrolment with a QR code, recovery codes shown once. */
export function TwoFactorCard() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const status = useQuery({
    queryKey: KEY,
    queryFn: () => apiRequest('GET', '/api/account/2fa', { schema: twoFactorStatusSchema }),
  });
  const [code, setCode] = useState('');
  const [codes, setCodes] = useState<string[] | null>(null);
  const setup = useMutation({
    mutationFn: () => apiRequest('POST', '/api/account/2fa/setup', { schema: twoFactorSetupSchema }),
    onError: (error) => notifyError(t('twoFactor.failed'), error),
  });
  const enable = useMutation({
    mutationFn: () =>
      apiRequest('POST', '/api/account/2fa/enable', {
        body: twoFactorEnableSchema.parse({ code }),
        schema: recoveryCodesSchema,
      }),
    onSuccess: (answer) => {
      setCodes(answer.recovery_codes);
      setup.reset();
      notifySuccess(t('twoFactor.enabled'));
      void client.invalidateQueries({ queryKey: KEY });
    },
    onError: (error) => notifyError(t('twoFactor.failed'), error),
  });
  const codeValid = twoFactorEnableSchema.safeParse({ code }).success;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (codeValid) enable.mutate();
  };
  return (
    <Card withBorder radius="md" maw={560}>
      <Stack gap="md">
        <Title order={2} size="h4">
          {t('twoFactor.title')}
        </Title>
        {codes && (
          <Alert color="yellow" title={t('twoFactor.recoveryTitle')}>
            <Text size="sm" mb="xs">
              {t('twoFactor.recovery')}
            </Text>
            <List size="sm" data-testid="recovery-codes">
              {codes.map((c) => (
                <List.Item key={c}>
                  <Code>{c}</Code>
                </List.Item>
              ))}
            </List>
          </Alert>
        )}
        {status.data && <Text size="sm">{status.data.enabled ? t('twoFactor.on') : t('twoFactor.off')}</Text>}
        {status.data && !status.data.enabled && !setup.data && (
          <Group>
            <Button onClick={() => setup.mutate()} loading={setup.isPending}>
              {t('twoFactor.start')}
            </Button>
          </Group>
        )}
        {setup.data && (
          <form onSubmit={submit} noValidate>
            <Stack gap="sm">
              <Text size="sm">{t('twoFactor.scan')}</Text>
              <Text size="sm">{t('twoFactor.othersSignedOut')}</Text>
              <QrCode uri={setup.data.uri} label={t('twoFactor.qr')} />
              <Text size="sm">
                {t('twoFactor.key')}: <Code data-testid="totp-secret">{setup.data.secret}</Code>
              </Text>
              <TextInput
                label={t('twoFactor.code')}
                autoComplete="one-time-code"
                inputMode="numeric"
                value={code}
                onChange={(e) => setCode(e.currentTarget.value)}
              />
              <Group>
                <Button type="submit" disabled={!codeValid} loading={enable.isPending}>
                  {t('twoFactor.confirm')}
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Stack>
    </Card>
  );
}
