import { SimpleGrid, Stack, Title } from '@mantine/core';
import {
  IconApi,
  IconArchive,
  IconHistory,
  IconKey,
  IconLanguage,
  IconReportAnalytics,
  IconUserShield,
  IconUsers,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { AreaCard } from '../../components/AreaCard.tsx';
import { SystemCard } from './SystemCard.tsx';

export function AdminPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="lg" maw={960}>
      <Title order={1} size="h2">
        {t('admin.title')}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
        <AreaCard
          icon={<IconUsers />}
          title={t('nav.users')}
          description={t('admin.usersDescription')}
          to="/extensions"
        />
        <AreaCard
          icon={<IconKey />}
          title={t('nav.settings')}
          description={t('admin.settingsDescription')}
          to="/admin/settings"
        />
        <AreaCard
          icon={<IconReportAnalytics />}
          title={t('nav.report')}
          description={t('admin.reportDescription')}
          to="/admin/report"
        />
        <AreaCard
          icon={<IconArchive />}
          title={t('nav.backup')}
          description={t('admin.backupDescription')}
          to="/admin/backup"
        />
        <AreaCard
          icon={<IconUserShield />}
          title={t('nav.accounts')}
          description={t('admin.accountsDescription')}
          to="/admin/accounts"
        />
        <AreaCard
          icon={<IconHistory />}
          title={t('nav.audit')}
          description={t('admin.auditDescription')}
          to="/admin/audit"
        />
        <AreaCard
          icon={<IconLanguage />}
          title={t('nav.languages')}
          description={t('admin.languagesDescription')}
          to="/admin/languages"
        />
        <AreaCard
          icon={<IconApi />}
          title={t('nav.apiDocs')}
          description={t('admin.apiDocsDescription')}
          to="/api/docs"
          external
        />
      </SimpleGrid>
      <SystemCard />
    </Stack>
  );
}
