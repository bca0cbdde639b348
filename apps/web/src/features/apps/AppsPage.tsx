import { SimpleGrid, Stack, Text, Title } from '@mantine/core';
import {
  IconAddressBook,
  IconDevices,
  IconId,
  IconLink,
  IconMicrophone,
  IconUsersPlus,
  IconVideo,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { AreaCard } from '../../components/AreaCard.tsx';
import { useEngine } from '../wizard/useWizard.ts';

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
        <AreaCard
          icon={<IconId />}
          title={t('nav.cards')}
          description={t('apps.cardsDescription')}
          to="/apps/cards"
          testId="app-/apps/cards"
        />
        <AreaCard
          icon={<IconAddressBook />}
          title={t('nav.phonebook')}
          description={t('apps.phonebookDescription')}
          to="/apps/phonebook"
          testId="app-/apps/phonebook"
        />
        <AreaCard
          icon={<IconVideo />}
          title={t('nav.streaming')}
          description={t('apps.streamingDescription')}
          to="/apps/streaming"
          testId="app-/apps/streaming"
        />
        <AreaCard
          icon={<IconLink />}
          title={t('nav.paramurl')}
          description={t('apps.paramurlDescription')}
          to="/apps/paramurl"
          testId="app-/apps/paramurl"
        />
        <AreaCard
          icon={<IconMicrophone />}
          title={t('nav.cloudServices')}
          description={t('apps.cloudDescription')}
          to="/apps/cloudServices"
          testId="app-/apps/cloudServices"
        />
        <AreaCard
          icon={<IconUsersPlus />}
          title={t('nav.bulkExtensions')}
          description={t('apps.bulkExtensionsDescription')}
          to="/apps/bulkextensions"
          testId="app-/apps/bulkextensions"
        />
        {engine.data === 'tancredi' && (
          <AreaCard
            icon={<IconDevices />}
            title={t('nav.bulkPhones')}
            description={t('apps.bulkPhonesDescription')}
            to="/apps/bulkdevices"
            testId="app-/apps/bulkdevices"
          />
        )}
      </SimpleGrid>
    </Stack>
  );
}
