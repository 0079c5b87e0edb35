/**
 * The process's legal-form index: read lazily from the newest `elf/iso-20275-*.csv` under the
 * reference directory (VERICASE_REFERENCE_DIR, else the version `vericase data pull` wrote), then kept.
 *
 * Every call compares a cheap signature of that file (its name, size, modification time and inode:
 * one readdir and one stat, unlike the screening directory signature that walks every list file) and
 * reads the list again only when it changed, so a new edition or a `data pull` is picked up without a
 * restart. Concurrent callers share one read.
 */
import { readFile, stat } from 'node:fs/promises';
import type { AppContext } from '../../app-context.ts';
import { resolveReferenceDir } from '../../screening/service/reference-dir.ts';
import { newestElfFile, parseElfCsv } from '../../shared/elf-csv.ts';
import { LegalFormIndex } from './legal-form-index.ts';

export const HOW_TO_PROVIDE_LEGAL_FORMS =
  'set VERICASE_REFERENCE_DIR to a directory holding elf/iso-20275-<date>.csv (the GLEIF ELF code list; see docs/company-data.md), or run `npx vericase data pull` with VERICASE_PULL_URL_ELF set to the CSV address on GLEIF’s ELF code list page';

interface Cached {
  signature: string;
  index: Promise<LegalFormIndex | null>;
}

/** One entry per reference directory (a process normally has one). */
const cache = new Map<string, Cached>();

/**
 * The list last read in this process (a process has one reference directory), for what must label a
 * code synchronously: a company's `entity_legal_form_label` as every presentation of a company shows it.
 */
let latest: { dir: string | null; index: LegalFormIndex | null } | null = null;

/** The label of an ISO 20275 code in the list last read (the local names, joined with ", "), or null. */
export function legalFormLabelOf(code: string | null | undefined): string | null {
  if (!code || !latest?.index) return null;
  return latest.index.label(code);
}

const RECHECK_MS = 60_000;
let ensured: { config: object; at: number; ready: Promise<void>; done: boolean } | null = null;

/**
 * Makes `legalFormLabelOf` answer from this context's list: the first call (and a call with another
 * configuration) reads it; later ones look for a new edition in the background at most once a
 * minute (a read through `getLegalForms` elsewhere, e.g. the legal-forms endpoint, refreshes it
 * too). Never rejects: a list that cannot be read leaves labels null.
 */
export function ensureLegalFormLabels(ctx: Pick<AppContext, 'config'>): Promise<void> {
  return legalFormLabelsWait(ctx) ?? Promise.resolve();
}

/**
 * What a request must wait for before it may present a company: the first read of the list, or
 * null once it was read (the request hook's path then allocates nothing: no promise per request).
 */
export function legalFormLabelsWait(ctx: Pick<AppContext, 'config'>): Promise<void> | null {
  const now = Date.now();
  if (ensured?.config === ctx.config) {
    if (now - ensured.at >= RECHECK_MS) {
      // a recheck runs in the background: the labels already loaded serve meanwhile
      ensured.at = now;
      void readLabels(ctx);
    }
    return ensured.done ? null : ensured.ready;
  }
  const entry = { config: ctx.config, at: now, ready: readLabels(ctx), done: false };
  entry.ready.then(() => {
    entry.done = true;
  });
  ensured = entry;
  return entry.ready;
}

function readLabels(ctx: Pick<AppContext, 'config'>): Promise<void> {
  return getLegalForms(ctx).then(
    (index) => {
      latest = { dir: resolveReferenceDir(ctx.config).dir, index };
    },
    () => undefined,
  );
}

async function signatureOf(dir: string): Promise<{ signature: string; path: string | null; name: string }> {
  const file = await newestElfFile(dir);
  if (!file) return { signature: 'none', path: null, name: '' };
  const s = await stat(file.path).catch(() => undefined);
  if (!s) return { signature: 'none', path: null, name: '' };
  return { signature: `${file.name}:${s.size}:${s.mtimeMs}:${s.ino}`, path: file.path, name: file.name };
}

/** Reads and indexes one ELF file. */
export async function loadLegalFormIndex(path: string, name: string): Promise<LegalFormIndex> {
  const text = await readFile(path, 'utf8');
  try {
    return new LegalFormIndex(parseElfCsv(text), name);
  } catch (err) {
    throw new Error(`The ISO 20275 list elf/${name} could not be read: ${(err as Error).message}`);
  }
}

/**
 * The active legal forms of the ISO 20275 list, or null when the reference directory holds none.
 * Throws when the file exists but cannot be read as an ELF list.
 */
export async function getLegalForms(ctx: Pick<AppContext, 'config'>): Promise<LegalFormIndex | null> {
  const { dir } = resolveReferenceDir(ctx.config);
  if (!dir) return null;
  const { signature, path, name } = await signatureOf(dir);
  const hit = cache.get(dir);
  if (hit && hit.signature === signature) return hit.index;
  const index = path ? loadLegalFormIndex(path, name) : Promise.resolve(null);
  const entry = { signature, index };
  cache.set(dir, entry);
  index.then(
    (loaded) => {
      if (cache.get(dir) === entry) latest = { dir, index: loaded };
    },
    () => undefined,
  );
  // a failed read is not kept: the next call tries again
  index.catch(() => {
    if (cache.get(dir) === entry) cache.delete(dir);
  });
  return index;
}
