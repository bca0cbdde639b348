export * from './auth.ts';
export * from './errors.ts';
export * from './limits.ts';
export * from './settings.ts';
export * from './wizard.ts';
