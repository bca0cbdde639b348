import {
  finalReportSchema,
  type LanguageRequest,
  languagesResponseSchema,
  provisioningEngineSchema,
  userProviderSchema,
  type WizardUpdate,
  wizardStateListSchema,
  wizardStateSchema,
} from '@centralino/contract';
import { z } from 'zod';
import { apiRequest } from './client.ts';

const success = z.object({ success: z.literal(true) }).loose();

export const api = {
  wizard: () => apiRequest('GET', '/api/configuration/wizard', { schema: wizardStateListSchema }),
  saveWizard: (body: WizardUpdate) =>
    apiRequest('POST', '/api/configuration/wizard', { body, schema: wizardStateSchema }),
  provisioningEngine: () => apiRequest('GET', '/api/provisioning/engine', { schema: provisioningEngineSchema }),
  languages: () => apiRequest('GET', '/api/settings/languages', { schema: languagesResponseSchema }),
  installLanguage: (body: LanguageRequest) => apiRequest('POST', '/api/settings/language', { body, schema: success }),
  setDefaultLanguage: (body: LanguageRequest) =>
    apiRequest('POST', '/api/settings/defaultlanguage', { body, schema: success }),
  changeAdminPassword: (password: string, currentPassword: string) =>
    apiRequest('POST', '/api/users/admin/password', {
      body: { password, current_password: currentPassword },
      schema: success,
    }),
  finalReport: () => apiRequest('GET', '/api/final', { schema: finalReportSchema }),
  userProvider: () => apiRequest('GET', '/api/configuration/userprovider', { schema: userProviderSchema }),
};
