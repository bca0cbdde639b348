import { describe, expect, it } from 'vitest';
import { gatewayModelDescription, gatewayModels, gatewayNameIn } from '../src/gateways.ts';

describe('gateway model descriptions', () => {
  it('every model has an English description without the Italian words of the catalogue', () => {
    for (const model of gatewayModels) {
      expect(model.descriptionEn, model.model).not.toMatch(/Port[ae]\b|Analogico/);
      // The port count the model has, as the last words say.
      const ports = model.n_pri_trunks + model.n_isdn_trunks + model.n_fxo_trunks + model.n_fxs_ext;
      expect(model.descriptionEn, model.model).toMatch(new RegExp(`\\b${ports} (FX[OS] )?ports?$`));
    }
  });

  it('follows the interface language and falls back to the answer for unknown models', () => {
    expect(gatewayModelDescription(11, 'x', 'en')).toBe('TRINITY Analog 2 FXO ports');
    expect(gatewayModelDescription(11, 'x', 'it')).toBe('TRINITY Analogico 2 Porte FXO');
    expect(gatewayModelDescription(999, 'Something', 'en')).toBe('Something');
    expect(gatewayModelDescription(null, '', 'en')).toBe('');
  });

  it('names the model it describes in English (the Italian copies some GXW numbers wrongly)', () => {
    for (const model of gatewayModels.filter((m) => m.model.startsWith('gxw'))) {
      expect(model.descriptionEn).toContain(model.model.slice(0, 7).toUpperCase());
    }
  });
});

describe('gatewayNameIn', () => {
  it('names a gateway Centralino named in the reader language, and leaves other names alone', () => {
    expect(gatewayNameIn('Patton-TRINITY Analogico 2 Porte FXO', 11, 'en')).toBe('Patton-TRINITY Analog 2 FXO ports');
    expect(gatewayNameIn('Patton-TRINITY Analogico 2 Porte FXO', 11, 'it')).toBe(
      'Patton-TRINITY Analogico 2 Porte FXO',
    );
    expect(gatewayNameIn('Front office', 11, 'en')).toBe('Front office');
    expect(gatewayNameIn('Patton-TRINITY Analogico 2 Porte FXO', null, 'en')).toBe(
      'Patton-TRINITY Analogico 2 Porte FXO',
    );
  });
});
