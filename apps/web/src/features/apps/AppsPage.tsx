import { Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import {
  IconAddressBook,
  IconDevices,
  IconId,
  IconLink,
  IconMicrophone,
  IconUsersPlus,
  IconVideo,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useEngine } from '../wizard/useWizard.ts';

function AppCard({
  icon,
  title,
  description,
  to,
}: {
  icon: ReactNode;
  title: string;
  description: string;
  to: string;
}) {
  return (
    <Card withBorder radius="md" component={Link} to={to} data-testid={`app-${to}`}>
      {icon}
      <Text fw={600} mt="sm">
        {title}
      </Text>
      <Text size="sm" c="dimmed">
        {description}
      </Text>
    </Card>
  );
}

/** /apps: one card per app of the Apps area, with what it is for. */
export function AppsPage() {
  const { t } = useTranslation();
  const engine = useEngine();
  return (
    <Stack gap="lg" maw={1100}>
      <Title order={1} size="h2">
        {t('apps.title')}
      </Title>
      <Text c="dimmed">{t('apps.intro')}</Text>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
        <AppCard icon={<IconId />} title={t('nav.cards')} description={t('apps.cardsDescription')} to="/apps/cards" />
        <AppCard
          icon={<IconAddressBook />}
          title={t('nav.phonebook')}
          description={t('apps.phonebookDescription')}
          to="/apps/phonebook"
        />
        <AppCard
          icon={<IconVideo />}
          title={t('nav.streaming')}
          description={t('apps.streamingDescription')}
          to="/apps/streaming"
        />
        <AppCard
          icon={<IconLink />}
          title={t('nav.paramurl')}
          description={t('apps.paramurlDescription')}
          to="/apps/paramurl"
        />
        <AppCard
          icon={<IconMicrophone />}
          title={t('nav.cloudServices')}
          description={t('apps.cloudDescription')}
          to="/apps/cloudServices"
        />
        <AppCard
          icon={<IconUsersPlus />}
          title={t('nav.bulkExtensions')}
          description={t('apps.bulkExtensionsDescription')}
          to="/apps/bulkextensions"
        />
        {engine.data === 'tancredi' && (
          <AppCard
            icon={<IconDevices />}
            title={t('nav.bulkPhones')}
            description={t('apps.bulkPhonesDescription')}
            to="/apps/bulkdevices"
          />
        )}
      </SimpleGrid>
    </Stack>
  );
}
