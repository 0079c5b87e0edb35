import type { Module } from '../modules.ts';
import { loadHashSecret } from './hashing.ts';

/** The fraud list: its hashing key is loaded (or generated once) before anything is served. */
export const fraudDatabaseModule: Module = {
  name: 'fraud-database',
  install: (ctx) => loadHashSecret(ctx),
};
