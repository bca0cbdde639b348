import {
  type CSSVariablesResolver,
  createTheme,
  DEFAULT_THEME,
  darken,
  Loader,
  luminance,
  type MantineThemeOverride,
  Modal,
  Notification,
  PasswordInput,
} from '@mantine/core';
import type { TFunction } from 'i18next';

/** WCAG 2.1 AA for normal text: every colour pair the theme makes must reach it, in both schemes. */
const AA = 4.5;

export function contrastRatio(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

/** `color`, darkened in small steps until it reads at AA on every one of `backgrounds`. */
export function readableOn(color: string, backgrounds: readonly string[]): string {
  let result = color;
  for (let i = 0; i < 40 && backgrounds.some((bg) => contrastRatio(result, bg) < AA); i++) {
    result = darken(result, 0.05);
  }
  return result;
}

/** The darkest of shades 4 to 0 of `palette` that reads at AA on every one of `backgrounds` (dark scheme). */
function lightestNeeded(palette: string, backgrounds: readonly string[]): string {
  for (let i = 4; i > 0; i--) {
    if (backgrounds.every((bg) => contrastRatio(shade(palette, i), bg) >= AA)) return shade(palette, i);
  }
  return shade(palette, 0);
}

const WHITE = DEFAULT_THEME.white;
const DARK_BODY = DEFAULT_THEME.colors.dark?.[7] ?? '#242424';
const palettes = Object.keys(DEFAULT_THEME.colors);

function shade(palette: string, index: number): string {
  return DEFAULT_THEME.colors[palette]?.[index] ?? WHITE;
}

/*
 * Mantine's defaults fall short of AA in places (white on blue 6 is 3.5:1, grey 6 "dimmed" text is 3.3:1,
 * yellow and teal text on their own light tints is 2.7 to 4.3:1). The overrides below are computed, so a
 * palette change cannot quietly bring a failing pair back; theme.test.ts checks the result.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => {
  const light: Record<string, string> = {
    // Help text under fields and in lists.
    '--mantine-color-dimmed': shade('gray', 7),
    // Placeholders drawn as text (FileInput, Select) are read by everyone; gray 5 is 2.1:1.
    '--mantine-color-placeholder': readableOn(shade('gray', 6), [WHITE]),
    // Field errors; red 6 is 3.6:1 on white.
    '--mantine-color-error': readableOn(shade('red', 6), [WHITE]),
    // Links sit on white and inside alerts of every colour.
    '--mantine-color-anchor': readableOn(shade('blue', 8), [WHITE, ...palettes.map((p) => shade(p, 1))]),
  };
  for (const p of palettes) {
    // Text of light badges, alerts and subtle buttons: on the colour's own tint (shade 1) and on white.
    light[`--mantine-color-${p}-light-color`] = readableOn(shade(p, 9), [shade(p, 1), WHITE]);
  }
  const dark: Record<string, string> = {
    // Dark 2 is 4.2:1 on the dark body; dark 1 is 8.5:1.
    '--mantine-color-dimmed': shade('dark', 1),
    '--mantine-color-error': shade('red', 4),
    // On the input background (dark 6) and the body (dark 7); dark 3 is 2.6:1.
    '--mantine-color-placeholder': lightestNeeded('dark', [shade('dark', 6), DARK_BODY]),
    // Links sit on the dark body and inside alerts of every colour (their tint is shade 9 darkened by half).
    '--mantine-color-anchor': lightestNeeded('blue', [DARK_BODY, ...palettes.map((p) => darken(shade(p, 9), 0.5))]),
  };
  return { variables: {}, light, dark };
};

/** The console's theme; built per interface language because it holds the names of generic controls. */
export function makeTheme(t: TFunction): MantineThemeOverride {
  return createTheme({
    primaryColor: 'blue',
    // White on blue 8 is 4.9:1 (on the default shade 6 it is 3.5:1).
    primaryShade: { light: 8, dark: 8 },
    // Filled controls of any colour get black or white text, whichever contrasts more: 0.179 is the
    // luminance at which both reach the same ratio.
    autoContrast: true,
    luminanceThreshold: 0.179,
    defaultRadius: 'md',
    // Someone whose system asks for less motion gets none: dialogs and notifications appear and go at once.
    respectReducedMotion: true,
    components: {
      // Mantine's close X of a dismissible alert has no name of its own (axe: button-name, critical), nor has
      // the clear X of a clearable file input. Plain entries, as Menu's below: the components stay out of the
      // sign-in page's script.
      Alert: { defaultProps: { closeButtonLabel: t('common.close') } },
      FileInput: { defaultProps: { clearButtonProps: { 'aria-label': t('common.clearFile') } } },
      // A named loader needs a role to carry the name (aria-prohibited-attr otherwise): it is a status.
      Loader: Loader.extend({ defaultProps: { role: 'status' } }),
      // Mantine puts a focusable placeholder <div> first in every menu's dropdown, a child a role=menu may not
      // have (axe: aria-required-children, critical). Without it the dropdown focuses its first item on
      // opening, as the WAI-ARIA menu button pattern does. A plain entry, not Menu.extend: importing Menu here
      // would put the menu, popover and focus trap into the sign-in page's script (e2e/console-size.spec.ts).
      Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
      // Mantine's close buttons carry no name of their own.
      Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': t('common.close') } } }),
      // Under a title Mantine draws the message in grey 6 (3.3:1 on white), not in the dimmed colour.
      Notification: Notification.extend({
        defaultProps: { closeButtonProps: { 'aria-label': t('common.close') } },
        styles: { description: { color: 'var(--mantine-color-dimmed)' } },
      }),
      // The show/hide toggle is reachable with Tab, and named in the interface language.
      PasswordInput: PasswordInput.extend({
        defaultProps: {
          visibilityToggleFocusable: true,
          visibilityToggleButtonProps: { 'aria-label': t('common.togglePassword') },
        },
      }),
    },
  });
}
