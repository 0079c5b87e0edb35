/**
 * `npm run profile -- <path>`: where the service spends its CPU on one request path under load.
 * Starts `vericase serve` with `--cpu-prof` on a fresh embedded database (or DATABASE_URL), seeds
 * what the path needs, loads it with autocannon (BENCH_DURATION seconds after a warm-up), stops the
 * server and prints the self time of the load window by package and by function. The
 * `.cpuprofile` is kept under bench/profiles/: open it in Chrome DevTools (Performance, "Load
 * profile") or https://www.speedscope.app for a flame graph.
 *
 * Paths: ping, create-case, get-case, list-cases. See docs/performance.md for what they showed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { sampleCaseBody } from '../test/helpers/harness.ts';
import { ensureServerBundle, freePort, ROOT, startProcess, stopProcess } from './lib.ts';

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const PATHS = ['ping', 'create-case', 'get-case', 'list-cases'] as const;
type PathName = (typeof PATHS)[number];

const KEY = 'vk_profile_0123456789abcdefghijklmnopqrstuv';

/** Self time (ms) of the samples taken after `from` (µs since the profile's start), by `keyOf`. */
export function selfTime(
  profile: CpuProfile,
  fromUs: number,
  keyOf: (frame: { functionName: string; url: string }) => string,
): Map<string, number> {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const out = new Map<string, number>();
  let t = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    if (t < fromUs) continue;
    const node = nodes.get(profile.samples[i]);
    if (!node) continue;
    const key = keyOf(node.callFrame);
    out.set(key, (out.get(key) ?? 0) + profile.timeDeltas[i] / 1000);
  }
  return out;
}

/** `fastify`, `@scope/name`, `src/http`, `node:internal/...`, or `(native)`: a frame's owner. */
export function packageOf(frame: { url: string }): string {
  const url = frame.url;
  if (!url) return '(native: idle, GC, system calls)';
  const nm = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (nm) return nm[1];
  const src = url.match(/\/src\/([^/]+)/);
  if (src) return `src/${src[1]}`;
  return url.startsWith('node:') ? url.split('/').slice(0, 2).join('/') : url;
}

function functionOf(frame: { functionName: string; url: string }): string {
  const file = frame.url.replace(/^.*\/(node_modules|src)\//, '$1/');
  return `${frame.functionName || '(anonymous)'} ${file.split('/').slice(-2).join('/')}`;
}

function top(map: Map<string, number>, n: number): string {
  const total = [...map.values()].reduce((a, b) => a + b, 0);
  return [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `| ${k} | ${Math.round(v)} | ${((v / total) * 100).toFixed(1)}% |`)
    .join('\n');
}

async function main(which: PathName) {
  ensureServerBundle();
  const seconds = Number(process.env.BENCH_DURATION ?? 8);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-profile-'));
  const profileDir = path.join(ROOT, 'bench', 'profiles');
  fs.mkdirSync(profileDir, { recursive: true });
  const before = new Set(fs.readdirSync(profileDir));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = {
    ...(process.env.DATABASE_URL ? {} : { DATABASE_URL: '', DATA_DIR: dataDir }),
    PORT: String(port),
    HOST: '127.0.0.1',
    VERICASE_BOOTSTRAP_API_KEY: KEY,
    VERICASE_RATE_LIMIT_PER_MINUTE: '0',
  };
  const server = await startProcess(
    ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, 'bin/vericase.js', 'serve'],
    env,
    `${base}/healthz`,
  );
  const headers = { 'x-service-api-key': KEY, 'content-type': 'application/json' };
  const body = JSON.stringify(sampleCaseBody());
  let url = `${base}/v1/ping`;
  let method: 'GET' | 'POST' = 'GET';
  if (which === 'create-case') {
    url = `${base}/v1/cases`;
    method = 'POST';
  } else if (which === 'get-case' || which === 'list-cases') {
    for (let i = 0; i < 200; i++) await fetch(`${base}/v1/cases`, { method: 'POST', headers, body });
    const created = (await (await fetch(`${base}/v1/cases`, { method: 'POST', headers, body })).json()) as {
      id: string;
    };
    url =
      which === 'get-case' ? `${base}/v1/cases/${created.id}` : `${base}/v1/cases?status=open&sort=name.desc`;
  }
  const connections = method === 'POST' ? 10 : 20;
  const run = (duration: number) =>
    autocannon({ url, method, headers, body: method === 'POST' ? body : undefined, connections, duration });
  await run(5);
  const loadStart = Date.now();
  const result = await run(seconds);
  await stopProcess(server);
  const file = fs.readdirSync(profileDir).find((f) => !before.has(f) && f.endsWith('.cpuprofile'));
  if (!file) throw new Error('no profile written');
  const profile = JSON.parse(fs.readFileSync(path.join(profileDir, file), 'utf8')) as CpuProfile;
  // the load window: from the measured run's start, on the profile's clock
  const fromUs = profile.endTime - profile.startTime - (Date.now() - loadStart) * 1000;
  const name = path.join(profileDir, `${which}-${new Date().toISOString().replaceAll(':', '')}.cpuprofile`);
  fs.renameSync(path.join(profileDir, file), name);
  fs.rmSync(dataDir, { recursive: true, force: true });
  console.log(
    `\n${which}: ${Math.round(result.requests.average)} req/s over ${seconds} s, ${connections} connections`,
  );
  console.log(`profile: ${path.relative(ROOT, name)}\n`);
  console.log('| package | self ms | share |\n|---|---:|---:|');
  console.log(top(selfTime(profile, fromUs, packageOf), 20));
  console.log('\n| function | self ms | share |\n|---|---:|---:|');
  console.log(top(selfTime(profile, fromUs, functionOf), 30));
}

if (import.meta.main) {
  const which = process.argv[2] as PathName;
  if (!PATHS.includes(which)) {
    console.error(`usage: npm run profile -- <${PATHS.join('|')}>`);
    process.exit(2);
  }
  await main(which);
}
