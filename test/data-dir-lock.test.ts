import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import { ROOT } from '../drills/_lib.ts';

/**
 * The embedded database's directory lock, in the states another process leaves it in while it
 * starts: each is a process's view at one instant of a race between two starts.
 */
const execFileP = promisify(execFile);

async function migrate(dataDir: string) {
  try {
    const { stdout, stderr } = await execFileP(process.execPath, ['bin/vericase.js', 'migrate'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      timeout: 120_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-lock-'));
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid as number;

describe('embedded database: the directory lock while another process starts', () => {
  test('a lock file just created, its pid not written yet, is held: refused, nothing opened', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'vericase.lock'), '');
    const res = await migrate(dir);
    assert.equal(res.code, 3, res.stderr);
    assert.match(res.stderr, /already in use by a process starting now/);
    assert.deepEqual(fs.readdirSync(dir), ['vericase.lock']);
  });

  test('a stale lock another process is taking over: refused, its takeover left alone', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'vericase.lock'), String(deadPid()));
    fs.writeFileSync(path.join(dir, 'vericase.lock.takeover'), '');
    const res = await migrate(dir);
    assert.equal(res.code, 3, res.stderr);
    assert.match(res.stderr, /already in use by a process starting now/);
    assert.deepEqual(fs.readdirSync(dir).sort(), ['vericase.lock', 'vericase.lock.takeover']);
  });

  test('a stale lock alone is taken over, and released at exit without leftovers', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'vericase.lock'), String(deadPid()));
    const res = await migrate(dir);
    assert.equal(res.code, 0, res.stderr);
    assert.deepEqual(
      fs.readdirSync(dir).filter((f) => f.startsWith('vericase.lock')),
      [],
    );
  });
});
