import { UI_LANGUAGES } from '@centralino/contract';
import { Button, Menu, VisuallyHidden } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { changeUiLanguage, type UiLanguage } from '../i18n/index.ts';

/** Switches the language of this console (not of the PBX), remembered in the browser. */
export function LanguageMenu() {
  const { t, i18n } = useTranslation();
  const current = (i18n.resolvedLanguage ?? 'en') as UiLanguage;
  return (
    <Menu position="bottom-end">
      <Menu.Target>
        <Button variant="subtle" size="compact-sm" leftSection={<IconLanguage size={16} aria-hidden />}>
          {/* Named by what it shows, then what it is: the visible text starts the name (WCAG 2.5.3). */}
          {t(`uiLanguages.${current}`)}
          <VisuallyHidden> ({t('nav.interfaceLanguage')})</VisuallyHidden>
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('nav.interfaceLanguage')}</Menu.Label>
        {UI_LANGUAGES.map((lang) => (
          <Menu.Item key={lang} onClick={() => changeUiLanguage(lang)} disabled={lang === current}>
            {t(`uiLanguages.${lang}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
