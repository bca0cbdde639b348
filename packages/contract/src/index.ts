export * from './auth.ts';
export * from './csv.ts';
export * from './directory.ts';
export * from './errors.ts';
export * from './limits.ts';
export * from './settings.ts';
export * from './users.ts';
export * from './wizard.ts';
