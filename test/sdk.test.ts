/**
 * The TypeScript SDK (sdk/) against the running service, as an integrator uses it: its generated
 * types are current, then through a real HTTP server it creates a case graph, runs a check, pages
 * through cases, and verifies a real webhook delivery's signature.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { generateSdkTypes, SDK_SCHEMA } from '../scripts/sdk-generate.ts';
import { allPages, createVericaseClient, type VericaseClient, verifyWebhook } from '../sdk/src/index.ts';
import { newWorkspace } from './helpers/harness.ts';
import { type LiveServer, listen } from './helpers/live-server.ts';
import { type Receiver, startReceiver } from './helpers/receiver.ts';

let server: LiveServer;
let receiver: Receiver;
let vc: VericaseClient;

before(async () => {
  server = await listen();
  receiver = await startReceiver();
  const ws = await newWorkspace('sdk');
  vc = createVericaseClient({ baseUrl: `http://127.0.0.1:${server.port}/`, apiKey: ws.key });
});
after(async () => {
  await receiver?.stop();
  await server?.close();
});

describe('SDK', () => {
  test('its types are generated from the current OpenAPI document (npm run sdk:generate)', async () => {
    const committed = fs.readFileSync(SDK_SCHEMA, 'utf8');
    assert.ok(
      committed === (await generateSdkTypes()),
      'sdk/src/schema.d.ts is stale: run `npm run sdk:generate`',
    );
  });

  test('creates a case graph, runs a check, reads the result', async () => {
    const { data: created, error } = await vc.POST('/v1/cases', {
      body: {
        name: 'SDK onboarding',
        companies: [{ ref: 'main', type: 'main', name: 'SDK Test SAS', country: 'FR' }],
        individuals: [
          {
            first_name: 'Ines',
            last_name: 'Moreau',
            birth_date: '1990-02-03',
            address: { country: 'FR' },
            relations: [{ roles: ['legal_representative'] }],
          },
        ],
      },
    });
    assert.equal(error, undefined);
    assert.ok(created);
    const { data: detail } = await vc.GET('/v1/cases/{id}', { params: { path: { id: created.id } } });
    assert.ok(detail);
    assert.equal(detail.companies[0].name, 'SDK Test SAS');
    const person = detail.individuals[0];
    const { data: check, response } = await vc.POST('/v1/checks/ekyc', {
      body: { individual_id: person.id },
    });
    assert.equal(response.status, 201);
    assert.ok(check);
    const { data: read } = await vc.GET('/v1/checks/ekyc/{id}', { params: { path: { id: check.id } } });
    assert.equal(read?.status, 'approved');
    assert.equal(read?.individual_id, person.id);
    // an error answer is typed as the error body
    const bad = await vc.GET('/v1/cases/{id}', {
      params: { path: { id: '00000000-0000-4000-8000-000000000000' } },
    });
    assert.equal(bad.response.status, 404);
    assert.match(String(bad.error?.message), /not found/i);
  });

  test('default headers in every form the type allows reach the service (an Idempotency-Key replays)', async () => {
    const ws = await newWorkspace('sdk-headers');
    const forms = [
      // a key header of the caller's never replaces (nor doubles) the client's own
      new Headers({ 'Idempotency-Key': `h-${ws.workspaceId}`, 'x-service-api-key': 'wrong' }),
      [['Idempotency-Key', `t-${ws.workspaceId}`]] as [string, string][],
      { 'Idempotency-Key': `r-${ws.workspaceId}` },
    ];
    for (const headers of forms) {
      const client = createVericaseClient({
        baseUrl: `http://127.0.0.1:${server.port}`,
        apiKey: ws.key,
        headers,
      });
      const first = await client.POST('/v1/cases', { body: { name: 'Once' } });
      const again = await client.POST('/v1/cases', { body: { name: 'Once' } });
      assert.equal(first.response.status, 201, JSON.stringify(first.error));
      assert.equal(
        again.data?.id,
        first.data?.id,
        `replayed with ${JSON.stringify([...Object.entries(headers)])}`,
      );
    }
    const { data } = await createVericaseClient({
      baseUrl: `http://127.0.0.1:${server.port}`,
      apiKey: ws.key,
    }).GET('/v1/cases');
    assert.equal(data?.pagination.count, forms.length);
    // or per call, as the typed header parameter every JSON POST declares
    const perCall = createVericaseClient({ baseUrl: `http://127.0.0.1:${server.port}`, apiKey: ws.key });
    const call = () =>
      perCall.POST('/v1/cases', {
        params: { header: { 'Idempotency-Key': `p-${ws.workspaceId}` } },
        body: { name: 'Per call' },
      });
    const one = await call();
    const two = await call();
    assert.equal(two.data?.id, one.data?.id);
    assert.equal(two.response.headers.get('idempotent-replayed'), 'true');
  });

  test('pages through cases', async () => {
    for (let i = 0; i < 5; i++) {
      const { response } = await vc.POST('/v1/cases', { body: { name: `Paged ${i}` } });
      assert.equal(response.status, 201);
    }
    const names: string[] = [];
    for await (const c of allPages((page) =>
      vc.GET('/v1/cases', { params: { query: { page, limit: 2, sort: 'created_at' } } }),
    )) {
      names.push(c.name);
    }
    assert.deepEqual(
      names.filter((n) => n.startsWith('Paged')),
      ['Paged 0', 'Paged 1', 'Paged 2', 'Paged 3', 'Paged 4'],
    );
    assert.equal(names.length, 6);
    // the operator spellings of the filters are typed parameters, not casts
    const { data: filtered } = await vc.GET('/v1/cases', {
      params: { query: { 'name.like': 'Paged%', 'status.in': 'open,draft', 'created_at.gte': '2020-01-01' } },
    });
    assert.equal(filtered?.pagination.count, 5);
  });

  test('verifies a real webhook delivery', async () => {
    const { data: hook } = await vc.POST('/v1/webhooks', {
      body: { name: 'SDK', url: `http://127.0.0.1:${receiver.port}/sdk`, events: ['Case.Created'] },
    });
    assert.ok(hook?.secret);
    await vc.POST('/v1/cases', { body: { name: 'Webhook via SDK' } });
    const [delivery] = await receiver.waitFor((reqs) => reqs.some((r) => r.path === '/sdk'));
    const got = receiver.requests.find((r) => r.path === '/sdk') ?? delivery;
    const headers = got.headers as Record<string, string>;
    assert.equal(await verifyWebhook(hook.secret, headers, got.body), true);
    assert.equal(await verifyWebhook(hook.secret, headers, `${got.body} `), false, 'a changed body');
    assert.equal(
      await verifyWebhook('whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAA', headers, got.body),
      false,
      'another secret',
    );
    const stale = { ...headers, 'webhook-timestamp': String(Number(headers['webhook-timestamp']) - 3600) };
    assert.equal(await verifyWebhook(hook.secret, stale, got.body), false, 'an old timestamp');
    // header names in another case (a framework's plain object) are the same headers
    const capitalised = Object.fromEntries(
      Object.entries(headers).map(([k, v]) => [k.replace(/(^|-)\w/g, (c) => c.toUpperCase()), v]),
    );
    assert.ok('Webhook-Id' in capitalised);
    assert.equal(await verifyWebhook(hook.secret, capitalised, got.body), true, 'Webhook-Id spelling');
    // a malformed secret verifies nothing, without throwing
    assert.equal(await verifyWebhook('whsec_%%%not-base64', headers, got.body), false);
    assert.equal(await verifyWebhook('whsec_', headers, got.body), false);
    assert.equal(JSON.parse(got.body).event, 'Case.Created');
  });

  test('installed as a package, it runs in plain Node from node_modules and type-checks a consumer', async () => {
    // Node refuses to strip types inside node_modules: the package must ship JavaScript and
    // declarations (its `build`, run by `npm pack`), not only its .ts sources
    const root = path.resolve(import.meta.dirname, '..');
    const project = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-sdk-'));
    try {
      const pkg = path.join(project, 'node_modules', '@vericase', 'sdk');
      fs.mkdirSync(pkg, { recursive: true });
      for (const f of ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'README.md', 'src']) {
        fs.cpSync(path.join(root, 'sdk', f), path.join(pkg, f), { recursive: true });
      }
      const bin = path.join(root, 'node_modules', '.bin');
      const env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}` };
      // @types/node for the build's tsconfig comes from the service's node_modules
      fs.symlinkSync(path.join(root, 'node_modules'), path.join(pkg, 'node_modules'), 'dir');
      await run('npm', ['run', 'build'], { cwd: pkg, env });
      fs.rmSync(path.join(pkg, 'node_modules'));
      fs.rmSync(path.join(pkg, 'src'), { recursive: true });
      fs.symlinkSync(
        path.join(root, 'node_modules', 'openapi-fetch'),
        path.join(project, 'node_modules', 'openapi-fetch'),
        'dir',
      );
      const manifest = JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8'));
      for (const file of Object.values(manifest.exports['.']) as string[]) {
        assert.ok(fs.existsSync(path.join(pkg, file)), `${file} is built`);
      }

      const ws = await newWorkspace('sdk-package');
      fs.writeFileSync(
        path.join(project, 'consumer.mjs'),
        `import { allPages, createVericaseClient } from '@vericase/sdk';
const vc = createVericaseClient({ baseUrl: process.env.URL, apiKey: process.env.KEY });
const { data, error } = await vc.POST('/v1/cases', { body: { name: 'From node_modules' } });
if (error) throw new Error(error.message);
const names = [];
for await (const c of allPages((page) => vc.GET('/v1/cases', { params: { query: { page } } }))) names.push(c.name);
console.log(JSON.stringify({ id: data.id, names }));
`,
      );
      const out = await run(process.execPath, ['consumer.mjs'], {
        cwd: project,
        env: { ...process.env, URL: `http://127.0.0.1:${server.port}`, KEY: ws.key },
      });
      const result = JSON.parse(out);
      assert.match(result.id, /^[0-9a-f-]{36}$/);
      assert.deepEqual(result.names, ['From node_modules']);

      // the declarations resolve for a TypeScript consumer: a typo in a field is a compile error
      fs.writeFileSync(
        path.join(project, 'consumer.ts'),
        `import { createVericaseClient, type Case } from '@vericase/sdk';
const vc = createVericaseClient({ baseUrl: 'http://localhost:3000', apiKey: 'k' });
export async function created(): Promise<Case | undefined> {
  const { data } = await vc.POST('/v1/cases', { body: { name: 'Typed' } });
  return data;
}
export const typo = (c: Case) => c.nmae;
export const open = () =>
  vc.GET('/v1/cases', { params: { query: { 'status.in': 'open,draft', 'created_at.gte': '2026-01-01', 'name.search': 'acme' } } });
`,
      );
      fs.writeFileSync(
        path.join(project, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            target: 'es2022',
            module: 'nodenext',
            moduleResolution: 'nodenext',
            lib: ['es2023', 'dom'],
            types: [],
            strict: true,
            noEmit: true,
            skipLibCheck: false,
          },
          files: ['consumer.ts'],
        }),
      );
      const checked = await run('tsc', ['-p', '.'], { cwd: project, env }).then(
        () => '',
        (err: Error) => err.message,
      );
      const errors = checked.split('\n').filter((l) => /error TS/.test(l));
      assert.equal(errors.length, 1, checked);
      assert.match(errors[0], /consumer\.ts.*'nmae' does not exist/);
    } finally {
      fs.rmSync(project, { recursive: true, force: true });
    }
  });
});

function run(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { ...opts, timeout: 120_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${cmd} ${args.join(' ')}: ${err.message}\n${stdout}\n${stderr}`));
      else resolve(stdout);
    });
  });
}
