/**
 * The bundled build (bin/server-bundle.js, scripts/build-server.ts; issue 17's start-up): it runs only
 * while its fingerprint matches the sources, and `vericase serve` says which one it runs.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { NODE_FLAGS } from '../bin/node-flags.js';
import { freshBundle, setCurrentBuild, sourceFingerprint } from '../bin/server-bundle.js';
import { captureOutput, freePort } from './helpers/child-process.ts';
import { scratchDatabase } from './helpers/scratch-database.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

function tree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-bundle-'));
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, 'src', name)), { recursive: true });
    fs.writeFileSync(path.join(root, 'src', name), content);
  }
  return root;
}

describe('the bundle fingerprint', () => {
  test('follows every file of src/ (content, addition, removal, rename) and package-lock.json; not modification times', () => {
    const root = tree({ 'a.ts': 'export const a = 1;\n', 'x/b.ts': 'export const b = 2;\n' });
    const first = sourceFingerprint(root);
    assert.match(first, /^[0-9a-f]{64}$/);
    assert.equal(sourceFingerprint(root), first);

    // the same files elsewhere, written later: the same fingerprint
    const copy = tree({ 'x/b.ts': 'export const b = 2;\n', 'a.ts': 'export const a = 1;\n' });
    assert.equal(sourceFingerprint(copy), first);
    fs.utimesSync(path.join(root, 'src/a.ts'), new Date(0), new Date(0));
    assert.equal(sourceFingerprint(root), first);

    fs.writeFileSync(path.join(root, 'src/a.ts'), 'export const a = 3;\n');
    const edited = sourceFingerprint(root);
    assert.notEqual(edited, first);
    fs.writeFileSync(path.join(root, 'src/x/c.ts'), '');
    const added = sourceFingerprint(root);
    assert.notEqual(added, edited);
    fs.renameSync(path.join(root, 'src/x/c.ts'), path.join(root, 'src/x/d.ts'));
    const renamed = sourceFingerprint(root);
    assert.notEqual(renamed, added);
    fs.rmSync(path.join(root, 'src/x/d.ts'));
    assert.equal(sourceFingerprint(root), edited);

    // the bundle holds the packages too: another lockfile (an npm install) is another bundle
    fs.writeFileSync(
      path.join(root, 'package-lock.json'),
      '{"packages":{"node_modules/a":{"version":"1.0.0"}}}',
    );
    const locked = sourceFingerprint(root);
    assert.notEqual(locked, edited);
    fs.writeFileSync(
      path.join(root, 'package-lock.json'),
      '{"packages":{"node_modules/a":{"version":"1.0.1"}}}',
    );
    assert.notEqual(sourceFingerprint(root), locked);
  });

  test('a build is run only while it matches the sources, and never when VERICASE_BUNDLE=0', () => {
    const root = tree({ 'a.ts': 'export const a = 1;\n' });
    const dir = path.join(root, 'bundle');
    fs.mkdirSync(dir);
    assert.equal(freshBundle(root, dir), null, 'no build yet');

    setCurrentBuild('b1', sourceFingerprint(root), dir);
    assert.equal(freshBundle(root, dir), null, 'the build named has no entry');
    fs.mkdirSync(path.join(dir, 'b1'));
    fs.writeFileSync(path.join(dir, 'b1', 'main.js'), '');
    assert.equal(freshBundle(root, dir), path.join(dir, 'b1', 'main.js'));

    const saved = process.env.VERICASE_BUNDLE;
    process.env.VERICASE_BUNDLE = '0';
    try {
      assert.equal(freshBundle(root, dir), null);
    } finally {
      if (saved === undefined) delete process.env.VERICASE_BUNDLE;
      else process.env.VERICASE_BUNDLE = saved;
    }

    fs.writeFileSync(path.join(root, 'src/a.ts'), 'export const a = 2;\n');
    assert.equal(freshBundle(root, dir), null, 'the sources changed after the build');
  });
});

/**
 * Starts `vericase serve`, waits for its 'vericase listening' line, runs `probe` against it and stops
 * it; returns that line.
 */
async function listeningLine(
  env: Record<string, string>,
  command: string[] = [process.execPath, 'bin/vericase.js'],
  probe?: (base: string) => Promise<void>,
): Promise<Record<string, unknown>> {
  const port = await freePort();
  const child = spawn(command[0], [...command.slice(1), 'serve'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-bundle-serve-')),
      DATABASE_URL: '',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      ...env,
    },
  });
  const output = captureOutput(child);
  try {
    for (let i = 0; i < 600; i++) {
      if (child.exitCode !== null) throw new Error(`server exited: ${output.text}`);
      const up = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (up) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await probe?.(`http://127.0.0.1:${port}`);
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('close', r));
  }
  const line = output.text
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .find((l) => l.msg === 'vericase listening');
  assert.ok(line, `no 'vericase listening' line in: ${output.text}`);
  return line;
}

describe('vericase serve', () => {
  test('runs the bundle once it is built for these sources, the sources with VERICASE_BUNDLE=0', async () => {
    // up to date already (npm install builds it): then this only checks the fingerprint
    execFileSync(process.execPath, ['scripts/build-server.ts'], { cwd: ROOT, stdio: 'pipe' });
    const entry = freshBundle();
    assert.ok(entry, 'the build script left a bundle that matches the sources');
    // its chunks are declared ES modules: Node then skips syntax detection (two parses per chunk)
    const manifest = JSON.parse(fs.readFileSync(path.join(path.dirname(entry), 'package.json'), 'utf8'));
    assert.deepEqual(manifest, { type: 'module' });
    assert.equal((await listeningLine({})).code, 'bundle');
    assert.equal((await listeningLine({ VERICASE_BUNDLE: '0' })).code, 'sources');
  });

  test('the bundle refuses what the sources refuse: a URL that is not valid percent-encoded UTF-8', async () => {
    // the bundler's minifier once dropped this check (a decodeURIComponent whose result went unused)
    const probe = async (base: string) => {
      for (const url of ['/healthz?x=%E0%A4%A', '/healthz?x=%FF', '/v1/cases?name=%C3']) {
        const res = await fetch(base + url);
        assert.equal(res.status, 400, url);
        const body = (await res.json()) as { message: string; details: { path: string }[] };
        assert.equal(body.message, 'The URL is not valid percent-encoded UTF-8', url);
        assert.equal(body.details[0].path, 'url');
      }
      const fine = await fetch(`${base}/healthz?x=%C3%A9`);
      assert.equal(fine.status, 200);
    };
    assert.equal((await listeningLine({}, undefined, probe)).code, 'bundle');
    assert.equal((await listeningLine({ VERICASE_BUNDLE: '0' }, undefined, probe)).code, 'sources');
  });

  test('keeps the compile cache on both databases and hands it to the processes it starts', async () => {
    const embedded = await listeningLine({});
    assert.equal(embedded.database, 'pglite');
    assert.equal(embedded.compileCache, true);
    // the PostgreSQL pass of the suite (scripts/test.ts) starts one on a database of its own
    const server = process.env.DATABASE_URL;
    if (server) {
      const db = await scratchDatabase(server, `vericase_bundle_${process.pid}_${Date.now()}`);
      try {
        const onServer = await listeningLine({ DATABASE_URL: db.url });
        assert.equal(onServer.database, 'postgres');
        assert.equal(onServer.compileCache, true);
      } finally {
        await db.drop();
      }
    }
    // the process keeps it, and the Node processes it starts (the list loader) inherit it; the probe
    // starts without either variable (an empty NODE_DISABLE_COMPILE_CACHE still disables it)
    const { NODE_COMPILE_CACHE: _cache, NODE_DISABLE_COMPILE_CACHE: _disable, ...childEnv } = process.env;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-cc-'));
    const seen = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import m from 'node:module';
         const { enableCompileCache } = await import(${JSON.stringify(path.join(ROOT, 'bin/server-bundle.js'))});
         enableCompileCache(${JSON.stringify(dir)});
         console.log(JSON.stringify({ self: m.getCompileCacheDir() ?? null, children: process.env.NODE_COMPILE_CACHE }));`,
      ],
      { env: childEnv, encoding: 'utf8' },
    );
    const cacheDir = path.join(dir, 'compile-cache');
    const { self, children } = JSON.parse(seen) as { self: string | null; children: string };
    // Node keeps its entries in a directory per Node version and V8 flags under the one given
    assert.equal(path.dirname(self ?? ''), cacheDir);
    assert.equal(children, cacheDir);
  });

  test('runs with async context frames when started as the executable or by npm start; without the option too', async () => {
    // the shebang passes the option (bin/node-flags.js); the node found on PATH runs it
    const executable = await listeningLine({}, [path.join(ROOT, 'bin/vericase.js')]);
    assert.equal(executable.asyncContextFrame, true);
    const start = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts
      .start as string;
    // `exec`: the shell npm runs the script in gives way to node, which then hears the signals npm
    // forwards (test/npm-start-signals.test.ts)
    assert.ok(start.startsWith(`exec node ${NODE_FLAGS.join(' ')} bin/vericase.js`), start);
    assert.equal((await listeningLine({})).asyncContextFrame, false);
  });
});
