/**
 * The Dockerfile and compose.yaml, checked without a Docker engine (this machine has none): the
 * compose file is parsed (yaml) and each vericase service's environment goes through the service's
 * own configuration loader; the Dockerfile's stages, user and healthcheck are read, and the
 * healthcheck command itself is run against a listening server. Where `docker` is installed, `docker
 * compose config` validates the file as well.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse } from 'yaml';
import { NODE_FLAGS } from '../bin/node-flags.js';
import { loadConfig } from '../src/config.ts';
import { STOP_DEADLINE_MS } from '../src/ops/stop-on-signals.ts';
import { type LiveServer, listen } from './helpers/live-server.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const compose = parse(fs.readFileSync(path.join(ROOT, 'compose.yaml'), 'utf8'), { merge: true });
const dockerfile = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
const APP_SERVICES = ['api-1', 'api-2', 'worker'];

/** A compose environment (map or KEY=VALUE list) as strings. */
function envOf(service: { environment?: Record<string, unknown> | string[] }): Record<string, string> {
  const e = service.environment ?? {};
  if (Array.isArray(e))
    return Object.fromEntries(e.map((kv) => [kv.split('=')[0], kv.split('=').slice(1).join('=')]));
  return Object.fromEntries(Object.entries(e).map(([k, v]) => [k, String(v)]));
}

/** `${VAR:-default}` as compose resolves it with VAR unset. */
const interpolate = (v: string) => v.replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1');

describe('compose.yaml', () => {
  test('PostgreSQL, MinIO (and its bucket), two API processes and one worker', () => {
    assert.deepEqual(Object.keys(compose.services).sort(), [
      'api-1',
      'api-2',
      'minio',
      'minio-bucket',
      'postgres',
      'worker',
    ]);
    assert.match(compose.services.postgres.image, /^postgres:17/);
    assert.match(compose.services.minio.image, /^minio\/minio/);
    for (const name of APP_SERVICES) {
      const s = compose.services[name];
      assert.equal(s.build.context, '.', name);
      assert.equal(s.image, 'vericase:local', name);
      assert.equal(s.init, true, name);
      assert.equal(s.depends_on.postgres.condition, 'service_healthy', name);
      assert.equal(s.depends_on['minio-bucket'].condition, 'service_completed_successfully', name);
      // Docker's default is 10 s before SIGKILL, inside the graceful stop (requests 4 s, jobs 10 s)
      const grace = /^(\d+)s$/.exec(String(s.stop_grace_period));
      assert.ok(grace, `${name}: stop_grace_period in seconds, got ${s.stop_grace_period}`);
      assert.ok(Number(grace[1]) * 1000 > STOP_DEADLINE_MS, `${name}: longer than the stop's own deadline`);
    }
    assert.deepEqual(compose.services['api-1'].command, ['serve']);
    assert.deepEqual(compose.services['api-2'].command, ['serve']);
    assert.deepEqual(compose.services.worker.command, ['worker']);
    // the two APIs publish different host ports; the worker publishes none
    const hostPorts = ['api-1', 'api-2'].map((n) => compose.services[n].ports[0].split(':')[0]);
    assert.deepEqual(hostPorts, ['3000', '3001']);
    assert.equal(compose.services.worker.ports, undefined);
    // every named volume used is declared
    for (const s of Object.values(compose.services) as { volumes?: string[] }[]) {
      for (const v of s.volumes ?? []) assert.ok(v.split(':')[0] in compose.volumes, v);
    }
  });

  test("each vericase service's environment is a valid configuration pointing at the compose services", () => {
    const pgEnv = envOf(compose.services.postgres);
    const minioEnv = envOf(compose.services.minio);
    const bucketCommand = compose.services['minio-bucket'].command.join(' ');
    for (const name of APP_SERVICES) {
      const env = Object.fromEntries(
        Object.entries(envOf(compose.services[name])).map(([k, v]) => [k, interpolate(v)]),
      );
      // the service's own loader: a wrong name or value would throw here as it would at start-up
      const config = loadConfig(env);
      const db = new URL(config.databaseUrl as string);
      assert.equal(db.hostname, 'postgres', name);
      assert.equal(db.username, pgEnv.POSTGRES_USER);
      assert.equal(db.password, pgEnv.POSTGRES_PASSWORD);
      assert.equal(db.pathname, `/${pgEnv.POSTGRES_DB}`);
      assert.equal(config.s3?.endpoint, 'http://minio:9000');
      assert.equal(config.s3?.forcePathStyle, true);
      assert.ok(bucketCommand.includes(`local/${config.s3?.bucket}`), 'the bucket the init job creates');
      assert.equal(env.AWS_ACCESS_KEY_ID, minioEnv.MINIO_ROOT_USER);
      assert.equal(env.AWS_SECRET_ACCESS_KEY, minioEnv.MINIO_ROOT_PASSWORD);
      assert.ok(bucketCommand.includes(`${minioEnv.MINIO_ROOT_USER} ${minioEnv.MINIO_ROOT_PASSWORD}`));
      assert.equal(config.dataDir, path.resolve('./data'), 'DATA_DIR comes from the image (/data)');
      // what docs/deployment.md asks of every process of an installation
      assert.equal(config.publicUrl, 'http://localhost:3000', `${name}: VERICASE_PUBLIC_URL`);
      assert.equal(config.sandboxFileControls, false, `${name}: VERICASE_SANDBOX_FILE_CONTROLS`);
      if (name === 'worker') {
        assert.equal(config.workerPort, 3000);
      } else {
        assert.equal(config.runWorkers, false, `${name} leaves the jobs to the worker`);
        assert.equal(config.workerPort, null);
      }
      // every VERICASE_ setting named in the file is one the service reads
      const sources = fs.readFileSync(path.join(ROOT, 'src/config.ts'), 'utf8');
      for (const key of Object.keys(env).filter((k) => k.startsWith('VERICASE_'))) {
        assert.ok(sources.includes(key), `${key} is read by src/config.ts`);
      }
    }
  });

  test('docker compose config accepts it where Docker is installed', () => {
    const probe = spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' });
    if (probe.error || probe.status !== 0) {
      // no Docker engine or CLI on this machine: the parse above is the validation
      assert.ok(probe.error || probe.status !== 0);
      return;
    }
    const res = spawnSync('docker', ['compose', '-f', 'compose.yaml', 'config', '--quiet'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    assert.equal(res.status, 0, res.stderr);
  });
});

describe('Dockerfile', () => {
  let server: LiveServer;
  before(async () => {
    server = await listen();
  });
  after(async () => {
    await server?.close();
  });

  const stages = [...dockerfile.matchAll(/^FROM (\S+) AS (\S+)$/gm)].map((m) => ({
    image: m[1],
    name: m[2],
  }));
  const final = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));

  test('multi-stage on Node 22 slim; the final stage runs as a user other than root', () => {
    assert.deepEqual(
      stages.map((s) => s.name),
      ['build', 'deps', 'runtime'],
    );
    const arg = '$' + '{NODE_IMAGE}';
    assert.ok(stages.every((s) => s.image === arg));
    assert.match(dockerfile, /^ARG NODE_IMAGE=node:22-[a-z]*-?slim$/m);
    assert.match(final, /^USER node$/m);
    assert.doesNotMatch(final.slice(final.indexOf('USER node')), /^USER root$/m);
    assert.match(final, /npm ci --omit=dev|COPY --from=deps/);
    // with the service's Node options (bin/node-flags.js), as npm start and the shebang run it
    const entry = /^ENTRYPOINT (\[.*\])$/m.exec(final);
    assert.ok(entry, 'an exec-form ENTRYPOINT');
    assert.deepEqual(JSON.parse(entry[1]), ['node', ...NODE_FLAGS, 'bin/vericase.js']);
    // the bundle built in the build stage is copied where bin/server-bundle.js looks for it
    assert.match(dockerfile, /^RUN node scripts\/build-web\.ts && node scripts\/build-server\.ts$/m);
    assert.match(
      final,
      /^COPY --from=build \/app\/node_modules\/\.cache\/vericase-server \.\/node_modules\/\.cache\/vericase-server$/m,
    );
    assert.match(final, /^CMD \["serve"\]$/m);
    // what the final stage copies from the build context exists
    for (const m of final.matchAll(/^COPY (?:--chown=\S+ )?(?!--from)(.+) \S+$/gm)) {
      for (const src of m[1].split(' ')) assert.ok(fs.existsSync(path.join(ROOT, src)), `${src} exists`);
    }
    // the node_modules and the web build come from the earlier stages, not the context
    const ignore = fs.readFileSync(path.join(ROOT, '.dockerignore'), 'utf8').split('\n');
    for (const p of ['node_modules', 'web/dist', '.git', 'data'])
      assert.ok(ignore.includes(p), `.dockerignore ${p}`);
  });

  test('its HEALTHCHECK command succeeds against a live server and fails without one', async () => {
    const m = /^HEALTHCHECK .*\\\n\s+CMD (\[.*\])$/m.exec(dockerfile);
    assert.ok(m, 'HEALTHCHECK ... CMD [exec form]');
    const argv = JSON.parse(m[1]) as string[];
    assert.equal(argv[0], 'node');
    // asynchronously: the server answering is in this process
    const run = (env: Record<string, string>) =>
      new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, argv.slice(1), {
          env: { ...process.env, VERICASE_WORKER_PORT: '', ...env },
          stdio: 'ignore',
        });
        child.once('exit', (code) => resolve(code));
      });
    assert.equal(await run({ PORT: String(server.port) }), 0);
    // a worker container: VERICASE_WORKER_PORT wins over PORT
    assert.equal(await run({ PORT: '3189', VERICASE_WORKER_PORT: String(server.port) }), 0);
    assert.equal(await run({ PORT: '3189' }), 1, 'nothing listens on 3189');
  });
});
