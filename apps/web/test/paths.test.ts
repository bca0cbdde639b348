import { stepMaps } from '@centralino/contract';
import { describe, expect, it } from 'vitest';
import { ROUTED_PATHS, stepTitleKey } from '../src/app/paths.ts';
import { routes } from '../src/app/router.tsx';
import en from '../src/i18n/en.json';

function collect(list: { path?: string; children?: unknown[] }[]): string[] {
  return list.flatMap((r) => [...(r.path && r.path !== '*' ? [r.path] : []), ...collect((r.children ?? []) as never)]);
}

describe('routes', () => {
  it('the router and the list of routed paths agree', () => {
    expect(collect(routes).sort()).toEqual([...ROUTED_PATHS].sort());
  });

  it('every wizard step of both modes has a title', () => {
    const steps = en.wizard.steps as Record<string, string>;
    for (const path of [...stepMaps.tancredi, ...stepMaps.freepbx]) {
      const key = stepTitleKey(path).replace('wizard.steps.', '');
      expect(steps[key], path).toBeTruthy();
    }
  });
});
