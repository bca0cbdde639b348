import { fireEvent, screen } from '@testing-library/react';
import axe from 'axe-core';
import { describe, expect, it } from 'vitest';
import { RebootMenu } from '../src/features/phones/RebootMenu.tsx';
import i18n from '../src/i18n/index.ts';
import { renderThemed } from './renderThemed.tsx';

const MAC = '00-15-65-AA-BB-CC';

describe('the inventory reboot menu, open', () => {
  it('holds only menu items (axe aria-required-children)', async () => {
    await i18n.changeLanguage('en');
    renderThemed(<RebootMenu mac={MAC} scheduled={{ hours: '23', minutes: '30' }} onChanged={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: i18n.t('phones.reboot.menuFor', { mac: MAC }) }));
    const menu = await screen.findByRole('menu');
    for (const child of menu.children) expect(child.getAttribute('role'), child.outerHTML).toBe('menuitem');
    expect(menu.children).toHaveLength(3);
    const results = await axe.run(menu, { runOnly: { type: 'rule', values: ['aria-required-children'] } });
    expect(results.violations.map((v) => v.id)).toEqual([]);
  });
});
