import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { type DatabaseHandle, openDatabase } from '../../src/db/connect.ts';

/**
 * An embedded database of the calling suite's own, in both passes of the suite: opened in a fresh
 * directory before its tests, closed and removed after them. `handle()` is valid inside the tests.
 */
export function ownPglite(label: string): () => DatabaseHandle {
  let dir: string;
  let handle: DatabaseHandle | undefined;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), `vericase-${label}-`));
    handle = await openDatabase({ ...loadConfig({ DATA_DIR: dir }), databaseUrl: null });
  });
  after(async () => {
    await handle?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    if (!handle) throw new Error('the suite database is open only inside its tests');
    return handle;
  };
}
