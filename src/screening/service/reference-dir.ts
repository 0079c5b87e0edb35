/**
 * Where the screening lists are read from, and a fingerprint of that directory so a process notices a
 * new list version (a `data pull`, files replaced by an operator) without a restart.
 */
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Config } from '../../config.ts';

/** `<DATA_DIR>/reference`: where `vericase data pull` writes versions and its `current` pointer. */
export function pulledReferenceRoot(dataDir: string): string {
  return join(dataDir, 'reference');
}

export interface ReferenceDirChoice {
  dir: string | null;
  origin: 'env' | 'pulled' | 'none';
}

/**
 * VERICASE_REFERENCE_DIR when set; otherwise the `current` version written by `vericase data pull`
 * (the pointer path itself, so a later pull is followed); otherwise none.
 */
export function resolveReferenceDir(config: Pick<Config, 'referenceDir' | 'dataDir'>): ReferenceDirChoice {
  if (config.referenceDir) return { dir: config.referenceDir, origin: 'env' };
  const current = join(pulledReferenceRoot(config.dataDir), 'current');
  if (existsSync(current)) return { dir: current, origin: 'pulled' };
  return { dir: null, origin: 'none' };
}

/**
 * What is wrong with `dir` as a reference directory before any list is looked for, in words that
 * follow its path ("does not exist"), or null when it is a directory. Synchronous: one stat, for a
 * message that must stay true after an operator creates the directory.
 */
export function directoryProblem(dir: string): string | null {
  try {
    return statSync(dir).isDirectory() ? null : 'is not a directory';
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'does not exist';
    return `cannot be read (${code ?? (err as Error).message})`;
  }
}

/** Files that can hold lists or legal forms (what loadReferenceDirectory may read). */
async function listFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string, depth: number) => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const path = join(dir, e.name);
      if (e.isDirectory() && depth < 3) await walk(path, depth + 1);
      else if (e.isFile()) out.push(path);
    }
  };
  for (const sub of ['sanctions', 'elf']) await walk(join(root, sub), 0);
  return out.sort();
}

/** Cheap signature (paths, sizes, modification times): when it is unchanged, the content is not re-hashed. */
export async function directoryStatSignature(dir: string): Promise<string> {
  const real = await realpath(dir).catch(() => dir);
  const files = await listFiles(real);
  const h = createHash('sha256').update(real);
  for (const f of files) {
    const s = await stat(f).catch(() => undefined);
    h.update(`\n${relative(real, f)}:${s?.size ?? -1}:${s?.mtimeMs ?? -1}`);
  }
  return h.digest('hex');
}

/** Content hash of every list file under the directory (relative paths and bytes). */
export async function directoryFingerprint(dir: string): Promise<string> {
  const real = await realpath(dir).catch(() => dir);
  const files = await listFiles(real);
  const h = createHash('sha256');
  for (const f of files) {
    h.update(`\n${relative(real, f)}\n`);
    h.update(await readFile(f).catch(() => Buffer.alloc(0)));
  }
  return `sha256:${h.digest('hex')}`;
}
