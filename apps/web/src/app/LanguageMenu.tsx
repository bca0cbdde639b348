import { UI_LANGUAGES } from '@centralino/contract/constants';
import { Button, type ButtonProps } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { type ComponentPropsWithRef, type ComponentType, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { UiLanguage } from '../i18n/index.ts';
import type { LanguageMenuPopupProps } from './LanguageMenuPopup.tsx';

// The menu itself (Mantine's Menu, its popover and focus trap) is a chunk of its own, fetched when the
// pointer or the focus reaches the button and shown on the first click: the sign-in page does not
// download it otherwise (docs/architecture.md, "What loads before sign-in").
const loadPopup = () => import('./LanguageMenuPopup.tsx');

export type LanguageButtonProps = ButtonProps & ComponentPropsWithRef<'button'>;

/** Switches the language of this console (not of the PBX), remembered in the browser. */
export function LanguageMenu() {
  const { t, i18n } = useTranslation();
  const current = (i18n.resolvedLanguage ?? 'en') as UiLanguage;
  const [Popup, setPopup] = useState<ComponentType<LanguageMenuPopupProps> | null>(null);

  const buttonProps: LanguageButtonProps = {
    variant: 'subtle',
    size: 'compact-sm',
    leftSection: <IconLanguage size={16} aria-hidden />,
    // Named by what it shows, then what it is: the visible text starts the name (WCAG 2.5.3).
    'aria-label': `${t(`uiLanguages.${current}`)} (${t('nav.interfaceLanguage')})`,
    children: t(`uiLanguages.${current}`),
  };
  if (Popup) return <Popup current={current} languages={UI_LANGUAGES} buttonProps={buttonProps} />;

  const prefetch = () => void loadPopup().catch(() => undefined);
  return (
    <Button
      {...buttonProps}
      aria-haspopup="menu"
      aria-expanded={false}
      onPointerEnter={prefetch}
      onFocus={prefetch}
      onClick={() => void loadPopup().then((module) => setPopup(() => module.LanguageMenuPopup))}
    />
  );
}
