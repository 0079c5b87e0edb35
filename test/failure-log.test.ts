/**
 * A background loop's failures are logged once per episode (src/ops/failure-log.ts): the first with
 * its error, repeats counted, the recovery with their number; a failure long after the last starts
 * a new episode even without a recovery (pg-boss never reports one).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import pino from 'pino';
import { FailureLog } from '../src/ops/failure-log.ts';

test('failures logged once per episode, the recovery with the repeats; a quiet minute starts a new episode', () => {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (l: string) => void lines.push(JSON.parse(l)) });
  let now = 0;
  const log = new FailureLog(logger, 'loop failed', 'warn', () => now);

  log.succeeded();
  assert.equal(lines.length, 0, 'nothing to recover from');
  log.failed(new Error('down'));
  for (let i = 0; i < 5; i++) {
    now += 1000;
    log.failed(new Error('still down'));
  }
  assert.equal(lines.length, 1);
  assert.equal(lines[0]?.level, 40);
  assert.equal(lines[0]?.msg, 'loop failed (repeats are counted, not logged, until it recovers)');
  assert.equal((lines[0]?.err as { message: string } | undefined)?.message, 'down');

  now += 500;
  log.succeeded();
  log.succeeded();
  assert.equal(lines.length, 2);
  assert.equal(lines[1]?.msg, 'loop failed: recovered');
  assert.equal(lines[1]?.repeats, 5);
  assert.equal(lines[1]?.failingForMs, 5500);

  // a source that never reports success: a failure a minute after the last is a new episode
  log.failed(new Error('again'));
  now += 10_000;
  log.failed(new Error('again'));
  assert.equal(lines.length, 3);
  now += 60_000;
  log.failed(new Error('much later'));
  assert.equal(lines.length, 4);
  assert.equal((lines[3]?.err as { message: string } | undefined)?.message, 'much later');
  assert.equal(lines[3]?.previousRepeats, 1);
});
