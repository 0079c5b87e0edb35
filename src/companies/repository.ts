import { findInLiveCase } from '../cases/repository.ts';
import type { Db } from '../db/connect.ts';

/** A company of the workspace whose case is not deleted. */
export const findCompany = (db: Db, workspaceId: string, id: string) =>
  findInLiveCase(db, 'companies', workspaceId, id);
