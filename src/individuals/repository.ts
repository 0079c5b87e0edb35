import { findInLiveCase } from '../cases/repository.ts';
import type { Db } from '../db/connect.ts';

/** An individual of the workspace whose case is not deleted. */
export const findIndividual = (db: Db, workspaceId: string, id: string) =>
  findInLiveCase(db, 'individuals', workspaceId, id);
