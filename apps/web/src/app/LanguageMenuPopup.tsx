import '@mantine/core/styles/Popover.css';
import '@mantine/core/styles/Menu.css';
import { Button, Menu } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { changeUiLanguage, type UiLanguage } from '../i18n/index.ts';
import type { LanguageButtonProps } from './LanguageMenu.tsx';

export interface LanguageMenuPopupProps {
  current: UiLanguage;
  languages: readonly UiLanguage[];
  buttonProps: LanguageButtonProps;
}

/** The language menu once loaded (LanguageMenu.tsx); it replaces the plain button on its first click. */
export function LanguageMenuPopup({ current, languages, buttonProps }: LanguageMenuPopupProps) {
  const { t } = useTranslation();
  return (
    // Opened at once: it appears in answer to the click that loaded it.
    <Menu position="bottom-end" defaultOpened returnFocus>
      <Menu.Target>
        <Button {...buttonProps} />
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('nav.interfaceLanguage')}</Menu.Label>
        {languages.map((lang) => (
          <Menu.Item key={lang} onClick={() => changeUiLanguage(lang)} disabled={lang === current}>
            {t(`uiLanguages.${lang}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
