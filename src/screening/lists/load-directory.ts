/**
 * Load every known list file found under a reference-data directory. Layout (relative to `dir`):
 *
 *   sanctions/ofac-sdn[-suffix]/sdn.csv (+ add, alt, sdn_comments.csv)  → ofac_sdn (lexicographically last dir)
 *   sanctions/un/consolidated.xml                                        → un_sc
 *   sanctions/eu/<file>.csv                                                   → eu_fsf (one result per file)
 *   sanctions/uk/<file>.csv                                                   → uk_hmt (one result per file)
 *   sanctions/{ftm,ftm-samples}/<file>.ftm.jsonl                              → ftm   (one result per file)
 *   elf/iso-20275-<date>.csv                                             → legal forms (loadLegalFormsFromDirectory)
 *
 * Missing files are simply skipped. Versions are content hashes (plus dates found inside the files), so
 * they do not depend on file modification times.
 */

import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newestElfFile } from '../../shared/elf-csv.ts';
import type { ListLoadResult } from '../entity.ts';
import { type LegalForms, legalFormsFromElfCsv } from '../normalize.ts';
import { loadEuFsf } from './eu-fsf.ts';
import { loadFtm } from './ftm.ts';
import { loadOfacSdn } from './ofac-sdn.ts';
import { loadUkHmt } from './uk-hmt.ts';
import { loadUnConsolidated } from './un-consolidated.ts';
import { contentHash } from './util.ts';

function toPath(dir: string | URL): string {
  return dir instanceof URL ? fileURLToPath(dir) : dir;
}

async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

async function list(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).sort();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw err;
  }
}

/** Read an OFAC legacy CSV directory (sdn.csv required). Undefined when sdn.csv is missing. */
export async function loadOfacSdnDirectory(dir: string): Promise<ListLoadResult | undefined> {
  const read = async (name: string) =>
    (await readIfExists(join(dir, name))) ?? (await readIfExists(join(dir, name.toUpperCase())));
  const sdn = await read('sdn.csv');
  if (sdn === undefined) return undefined;
  return loadOfacSdn({
    sdn,
    add: await read('add.csv'),
    alt: await read('alt.csv'),
    comments: await read('sdn_comments.csv'),
  });
}

export async function loadReferenceDirectory(dir: string | URL): Promise<ListLoadResult[]> {
  const root = toPath(dir);
  const sanctions = join(root, 'sanctions');
  const results: ListLoadResult[] = [];
  const entries = await list(sanctions);

  const ofacDirs = entries.filter((n) => /^ofac-sdn/i.test(n));
  if (ofacDirs.length) {
    const r = await loadOfacSdnDirectory(join(sanctions, ofacDirs[ofacDirs.length - 1]));
    if (r) results.push({ ...r, origin: `sanctions/${ofacDirs[ofacDirs.length - 1]}` });
  }
  const un = await readIfExists(join(sanctions, 'un', 'consolidated.xml'));
  if (un !== undefined) results.push({ ...loadUnConsolidated(un), origin: 'sanctions/un/consolidated.xml' });
  for (const f of (await list(join(sanctions, 'eu'))).filter((n) => n.toLowerCase().endsWith('.csv'))) {
    const text = await readFile(join(sanctions, 'eu', f), 'utf8');
    results.push({ ...loadEuFsf(text), origin: `sanctions/eu/${f}` });
  }
  for (const f of (await list(join(sanctions, 'uk'))).filter((n) => n.toLowerCase().endsWith('.csv'))) {
    const text = await readFile(join(sanctions, 'uk', f), 'utf8');
    results.push({ ...loadUkHmt(text), origin: `sanctions/uk/${f}` });
  }
  for (const sub of ['ftm', 'ftm-samples']) {
    for (const f of (await list(join(sanctions, sub))).filter((n) => n.endsWith('.ftm.jsonl'))) {
      const text = await readFile(join(sanctions, sub, f), 'utf8');
      results.push({ ...loadFtm(text), origin: `sanctions/${sub}/${f}` });
    }
  }
  return results;
}

/** Legal forms from the newest `elf/iso-20275-*.csv`, or undefined when there is none. */
export async function loadLegalFormsFromDirectory(
  dir: string | URL,
): Promise<{ legalForms: LegalForms; version: string } | undefined> {
  const file = await newestElfFile(toPath(dir));
  if (!file) return undefined;
  const text = await readFile(file.path, 'utf8');
  return { legalForms: legalFormsFromElfCsv(text), version: `${file.name}/${contentHash(text)}` };
}
