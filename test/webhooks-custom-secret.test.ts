import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { type Client, getHarness, newWorkspace } from './helpers/harness.ts';
import { type Received, type Receiver, startReceiver } from './helpers/receiver.ts';

/**
 * A custom secret (not `whsec_`) is the HMAC key as raw bytes; docs/webhooks.md says to verify with
 * the library's `{ format: 'raw' }`. The JavaScript library (standardwebhooks 1.1.1) keys a raw
 * string with one byte per character (`charCodeAt`, cut to 8 bits), the service with its UTF-8
 * bytes: the same for ASCII, different for anything else, so a non-ASCII secret was accepted and
 * then no delivery of it verified with the documented recipe. Custom secrets are printable ASCII.
 */
let receiver: Receiver;
before(async () => {
  receiver = await startReceiver();
});
after(async () => {
  await receiver.stop();
});

const NON_ASCII = 'my-own-secret-ünïcode-1234';

function verifyRaw(r: Received, key: string | Uint8Array): void {
  new StandardWebhook(key, { format: 'raw' }).verify(r.body, {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  });
}

/** Creates a case and returns its Case.Created delivery at `path`. */
async function deliveredCase(api: Client, path: string): Promise<Received> {
  const c = await api.post('/v1/cases', { name: 'secret case', status: 'draft' });
  assert.equal(c.status, 201, JSON.stringify(c.body));
  await receiver.waitFor(() => receiver.deliveries(path).some((r) => r.json.case?.id === c.body.id));
  return receiver.deliveries(path).find((r) => r.json.case?.id === c.body.id) as Received;
}

describe('custom webhook secrets', () => {
  test('a non-ASCII custom secret is refused at create and at update (400 naming secret)', async () => {
    const api = await newWorkspace();
    for (const secret of [
      NON_ASCII,
      'sixteen-chars-€€€€',
      'tab\tinside-a-secret-1234',
      'trailing-newline-1234\n',
    ]) {
      const res = await api.post('/v1/webhooks', { url: receiver.url('/x'), events: ['*'], secret });
      assert.equal(res.status, 400, `${JSON.stringify(secret)}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.details[0].path, 'secret');
      assert.match(res.body.details[0].message, /printable ASCII/);
    }
    const created = await api.post('/v1/webhooks', { url: receiver.url('/x'), events: ['*'] });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const patched = await api.patch(`/v1/webhooks/${created.body.id}`, { secret: NON_ASCII });
    assert.equal(patched.status, 400, JSON.stringify(patched.body));
    assert.equal(patched.body.details[0].path, 'secret');
    const unchanged = await api.get(`/v1/webhooks/${created.body.id}`);
    assert.equal(unchanged.body.secret, created.body.secret);
  });

  test('a printable ASCII custom secret verifies with the documented recipe (standardwebhooks, raw format)', async () => {
    const api = await newWorkspace();
    const secret = 'my own secret: ASCII ~!@#$%^&*()_+{}|<>? 1234';
    const path = '/ascii';
    const created = await api.post('/v1/webhooks', { url: receiver.url(path), events: ['Case.*'], secret });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.secret, secret);
    verifyRaw(await deliveredCase(api, path), secret);
  });

  test('a non-ASCII secret stored before the rule still signs with its UTF-8 bytes, and a PATCH repeating it is accepted', async () => {
    const api = await newWorkspace();
    const path = '/legacy';
    const created = await api.post('/v1/webhooks', { url: receiver.url(path), events: ['Case.*'] });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    // as an earlier version accepted it
    const { ctx } = await getHarness();
    await ctx.db
      .updateTable('webhooks')
      .set({ secret: NON_ASCII })
      .where('id', '=', created.body.id)
      .execute();

    const r = await deliveredCase(api, path);
    // the docs' recipe for such a secret
    verifyRaw(r, Buffer.from(NON_ASCII, 'utf8'));
    // what the plain string in raw format does instead: why new ones are refused
    assert.throws(() => verifyRaw(r, NON_ASCII), /signature/i);

    const shown = (await api.get(`/v1/webhooks/${created.body.id}`)).body;
    const again = await api.patch(`/v1/webhooks/${created.body.id}`, {
      name: 'renamed',
      url: shown.url,
      events: shown.events,
      secret: shown.secret,
    });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.equal(again.body.secret, NON_ASCII);
  });
});
