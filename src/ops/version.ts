/**
 * What is running: the package version, the commit it was built from and the Node version.
 * The commit comes from VERICASE_GIT_COMMIT (set by the Dockerfile's build argument) or, in a
 * checkout, from `.git`; it is null when neither says.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../shared/package-root.ts';

export interface VersionInfo {
  name: string;
  version: string;
  commit: string | null;
  node: string;
}

const root = PACKAGE_ROOT;
let cached: VersionInfo | undefined;

function readCommit(): string | null {
  const fromEnv = process.env.VERICASE_GIT_COMMIT?.trim();
  if (fromEnv) return fromEnv;
  try {
    const gitDir = path.join(root, '.git');
    const head = fs.readFileSync(path.join(gitDir, 'HEAD'), 'utf8').trim();
    if (!head.startsWith('ref: ')) return /^[0-9a-f]{40}$/.test(head) ? head : null;
    const ref = head.slice(5);
    const loose = path.join(gitDir, ref);
    if (fs.existsSync(loose)) return fs.readFileSync(loose, 'utf8').trim() || null;
    const packed = fs.readFileSync(path.join(gitDir, 'packed-refs'), 'utf8');
    const line = packed.split('\n').find((l) => l.endsWith(` ${ref}`));
    return line ? line.split(' ')[0] : null;
  } catch {
    return null;
  }
}

export function versionInfo(): VersionInfo {
  if (!cached) {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      name: string;
      version: string;
    };
    cached = { name: pkg.name, version: pkg.version, commit: readCommit(), node: process.version };
  }
  return cached;
}
