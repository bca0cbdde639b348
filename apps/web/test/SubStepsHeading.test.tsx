import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SubStepsPage } from '../src/features/wizard/SubSteps.tsx';
import i18n from '../src/i18n/index.ts';
import { renderThemed } from './renderThemed.tsx';

describe('the parent screens of two wizard steps', () => {
  it.each([
    ['trunks', 'en'],
    ['routes', 'en'],
    ['trunks', 'it'],
    ['routes', 'it'],
  ] as const)('/%s has its title as the one top-level heading (%s)', async (group, lang) => {
    await i18n.changeLanguage(lang);
    renderThemed(<SubStepsPage group={group} />);
    const headings = screen.getAllByRole('heading', { level: 1 });
    expect(headings.map((h) => h.textContent)).toEqual([i18n.t(`wizard.subSteps.${group}.title`)]);
  });
});
