import { DEFAULT_THEME, darken, mergeMantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { contrastRatio, cssVariablesResolver, makeTheme } from '../src/app/theme.ts';

const colors = DEFAULT_THEME.colors;
const palettes = Object.keys(colors);
const t = ((key: string) => key) as never;
const theme = mergeMantineTheme(DEFAULT_THEME, makeTheme(t));
const vars = cssVariablesResolver(theme);

/** Resolves `var(--mantine-color-x-n)` to its hex value. */
function resolve(value: string | undefined): string {
  const match = value?.match(/^var\(--mantine-color-(\w+)-(\d)\)$/);
  if (!match) return value ?? '';
  return colors[match[1] as string]?.[Number(match[2])] ?? '';
}

describe('theme contrast (WCAG AA, 4.5:1)', () => {
  it('white text on the filled primary colour, in both schemes', () => {
    const shade = theme.primaryShade as { light: number; dark: number };
    expect(contrastRatio('#ffffff', colors.blue?.[shade.light] ?? '')).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio('#ffffff', colors.blue?.[shade.dark] ?? '')).toBeGreaterThanOrEqual(4.5);
  });

  it('filled controls of every colour and shade get the text that reads', () => {
    // autoContrast picks black above the threshold luminance, white below.
    for (const p of palettes) {
      for (const bg of colors[p] ?? []) {
        const best = Math.max(contrastRatio('#000000', bg), contrastRatio('#ffffff', bg));
        expect(best, `${p} ${bg}`).toBeGreaterThanOrEqual(4.5);
      }
    }
    expect(theme.autoContrast).toBe(true);
  });

  it('dimmed text, errors and links on the light body, and light-variant text on its tint', () => {
    expect(contrastRatio(resolve(vars.light['--mantine-color-dimmed']), '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(resolve(vars.light['--mantine-color-error']), '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(resolve(vars.light['--mantine-color-placeholder']), '#ffffff')).toBeGreaterThanOrEqual(4.5);
    for (const p of palettes) {
      const text = resolve(vars.light[`--mantine-color-${p}-light-color`]);
      expect(contrastRatio(text, colors[p]?.[1] ?? ''), p).toBeGreaterThanOrEqual(4.5);
      expect(
        contrastRatio(resolve(vars.light['--mantine-color-anchor']), colors[p]?.[1] ?? ''),
        p,
      ).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('placeholders on dark inputs', () => {
    const input = colors.dark?.[6] ?? '';
    expect(contrastRatio(resolve(vars.dark['--mantine-color-placeholder']), input)).toBeGreaterThanOrEqual(4.5);
  });

  it('dimmed text, errors and links on the dark body, links inside dark alerts', () => {
    const body = colors.dark?.[7] ?? '';
    for (const name of ['dimmed', 'error', 'anchor', 'placeholder']) {
      expect(contrastRatio(resolve(vars.dark[`--mantine-color-${name}`]), body), name).toBeGreaterThanOrEqual(4.5);
    }
    for (const p of palettes) {
      const tint = darken(colors[p]?.[9] ?? '', 0.5);
      expect(contrastRatio(resolve(vars.dark['--mantine-color-anchor']), tint), p).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('modal and notification close buttons and the password toggle are named', () => {
    const components = theme.components as Record<string, { defaultProps?: Record<string, unknown> }>;
    expect(components.Modal?.defaultProps?.closeButtonProps).toEqual({ 'aria-label': 'common.close' });
    expect(components.Notification?.defaultProps?.closeButtonProps).toEqual({ 'aria-label': 'common.close' });
    expect(components.PasswordInput?.defaultProps).toMatchObject({
      visibilityToggleFocusable: true,
      visibilityToggleButtonProps: { 'aria-label': 'common.togglePassword' },
    });
  });
});
