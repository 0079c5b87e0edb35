import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Shared reference data directory: VERICASE_REFERENCE_DIR, else ../shared/data next to the repo. */
export const REFERENCE_DIR =
  process.env.VERICASE_REFERENCE_DIR ?? fileURLToPath(new URL('../../../shared/data', import.meta.url));

export function readRef(...parts: string[]): string {
  return readFileSync(join(REFERENCE_DIR, ...parts), 'utf8');
}

export function ofacFiles(dir: string) {
  return {
    sdn: readRef('sanctions', dir, 'sdn.csv'),
    add: readRef('sanctions', dir, 'add.csv'),
    alt: readRef('sanctions', dir, 'alt.csv'),
    comments: readRef('sanctions', dir, 'sdn_comments.csv'),
  };
}
