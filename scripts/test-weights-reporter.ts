/**
 * A `node --test` reporter for scripts/test.ts under TEST_RECORD_WEIGHTS=1: the seconds each test
 * file's top-level tests and suites took, as one JSON object keyed by the file's path from the
 * repository's root. Those weights split the suite into shards of about equal length.
 */
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

interface TestEvent {
  type: string;
  data: { file?: string; nesting?: number; details?: { duration_ms?: number } };
}

export default async function* weights(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  const seconds: Record<string, number> = {};
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { file, nesting, details } = event.data;
    if (!file || nesting !== 0 || details?.duration_ms === undefined) continue;
    const key = path.relative(ROOT, file).split(path.sep).join('/');
    seconds[key] = Math.round(((seconds[key] ?? 0) + details.duration_ms / 1000) * 10) / 10;
  }
  yield `${JSON.stringify(seconds)}\n`;
}
