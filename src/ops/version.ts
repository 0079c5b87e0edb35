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

/**
 * Where a checkout's HEAD and refs are. In a linked worktree (`git worktree add`) `.git` is a file
 * (`gitdir: <main repository>/.git/worktrees/<name>`) holding the worktree's own HEAD, while the
 * branches are in the repository's common directory (named by its `commondir` file).
 */
function gitDirs(dotGit: string): { gitDir: string; commonDir: string } {
  if (!fs.statSync(dotGit).isFile()) return { gitDir: dotGit, commonDir: dotGit };
  const pointer = fs
    .readFileSync(dotGit, 'utf8')
    .match(/^gitdir:\s*(.+)$/m)?.[1]
    ?.trim();
  if (!pointer) throw new Error(`${dotGit} names no git directory`);
  const gitDir = path.resolve(path.dirname(dotGit), pointer);
  const common = path.join(gitDir, 'commondir');
  const commonDir = fs.existsSync(common)
    ? path.resolve(gitDir, fs.readFileSync(common, 'utf8').trim())
    : gitDir;
  return { gitDir, commonDir };
}

function readCommit(): string | null {
  const fromEnv = process.env.VERICASE_GIT_COMMIT?.trim();
  if (fromEnv) return fromEnv;
  try {
    const { gitDir, commonDir } = gitDirs(path.join(root, '.git'));
    const head = fs.readFileSync(path.join(gitDir, 'HEAD'), 'utf8').trim();
    if (!head.startsWith('ref: ')) return /^[0-9a-f]{40}$/.test(head) ? head : null;
    const ref = head.slice(5);
    for (const dir of new Set([gitDir, commonDir])) {
      const loose = path.join(dir, ref);
      if (fs.existsSync(loose)) return fs.readFileSync(loose, 'utf8').trim() || null;
    }
    const packed = fs.readFileSync(path.join(commonDir, 'packed-refs'), 'utf8');
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
