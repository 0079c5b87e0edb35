import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { getHarness, newWorkspace } from './helpers/harness.ts';
import { type Received, type Receiver, startReceiver } from './helpers/receiver.ts';

/** Receivers written for the reference product verify a hex HMAC-SHA256 of the raw body. */

let receiver: Receiver;
before(async () => {
  receiver = await startReceiver();
});
after(async () => {
  await receiver.stop();
});

/** Exactly what such a receiver does: HMAC the raw body with the secret string, hex, compare. */
function referenceReceiverAccepts(r: Received, secret: string, header: string): boolean {
  const given = r.headers[header];
  if (typeof given !== 'string') return false;
  const expected = createHmac('sha256', secret).update(r.body).digest('hex');
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

describe('webhook signature schemes', () => {
  test('hmac_sha256_hex signs the raw body in the dotfile-signature header by default', async () => {
    const api = await newWorkspace();
    const path = `/hex/${Math.random().toString(36).slice(2)}`;
    const created = await api.post('/v1/webhooks', {
      url: receiver.url(path),
      events: ['Case.Created'],
      signature: 'hmac_sha256_hex',
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.signature, 'hmac_sha256_hex');
    assert.equal(created.body.signature_header, 'dotfile-signature');
    await api.post('/v1/cases', { name: 'Hex signed' });
    const [got] = await receiver.waitFor((reqs) => reqs.some((r) => r.path === path));
    const r = receiver.requests.find((x) => x.path === path)!;
    assert.ok(got);
    assert.equal(r.json.event, 'Case.Created');
    assert.ok(referenceReceiverAccepts(r, created.body.secret, 'dotfile-signature'));
    assert.equal(r.headers['webhook-signature'], undefined, 'one signature scheme per webhook');
    // a forged body does not verify
    assert.ok(
      !referenceReceiverAccepts(
        { ...r, body: r.body.replace('Hex signed', 'Forged') },
        created.body.secret,
        'dotfile-signature',
      ),
    );
  });

  test('the header name is configurable; switching back to standard_webhooks', async () => {
    const api = await newWorkspace();
    const path = `/hex/${Math.random().toString(36).slice(2)}`;
    const created = await api.post('/v1/webhooks', {
      url: receiver.url(path),
      events: ['Case.Created'],
      signature: 'hmac_sha256_hex',
      signature_header: 'X-My-Signature',
      secret: 'a-plain-secret-of-some-length',
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.signature_header, 'x-my-signature');
    await api.post('/v1/cases', { name: 'Custom header' });
    await receiver.waitFor((reqs) => reqs.some((r) => r.path === path));
    const r = receiver.requests.find((x) => x.path === path)!;
    assert.ok(referenceReceiverAccepts(r, 'a-plain-secret-of-some-length', 'x-my-signature'));

    const back = await api.patch(`/v1/webhooks/${created.body.id}`, { signature: 'standard_webhooks' });
    assert.equal(back.status, 200);
    assert.equal(back.body.signature_header, null);
    const bad = await api.patch(`/v1/webhooks/${created.body.id}`, { signature: 'md5' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.details[0].path, 'signature');
    const badHeader = await api.patch(`/v1/webhooks/${created.body.id}`, { signature_header: 'bad header' });
    assert.equal(badHeader.status, 400);
    assert.equal(badHeader.body.details[0].path, 'signature_header');

    // a header for the standard signature would be kept unseen: refused, on create and on update
    const hidden = await api.patch(`/v1/webhooks/${created.body.id}`, { signature_header: 'x-hidden' });
    assert.equal(hidden.status, 400, JSON.stringify(hidden.body));
    assert.equal(hidden.body.details[0].path, 'signature_header');
    assert.match(hidden.body.message, /only to the signature hmac_sha256_hex/);
    const hiddenNew = await api.post('/v1/webhooks', {
      url: receiver.url(`${path}/2`),
      events: ['Case.Created'],
      signature_header: 'x-hidden',
    });
    assert.equal(hiddenNew.status, 400, JSON.stringify(hiddenNew.body));
    assert.equal(hiddenNew.body.details[0].path, 'signature_header');
    // leaving hmac_sha256_hex forgot the custom header: coming back shows (and uses) the default
    const again = await api.patch(`/v1/webhooks/${created.body.id}`, { signature: 'hmac_sha256_hex' });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.equal(again.body.signature_header, 'dotfile-signature');
    // both in one request: the header follows the mode it is sent with
    const both = await api.patch(`/v1/webhooks/${created.body.id}`, {
      signature: 'hmac_sha256_hex',
      signature_header: 'x-both',
    });
    assert.equal(both.body.signature_header, 'x-both');
    const { ctx } = await getHarness();
    const stored = await ctx.db
      .selectFrom('webhooks')
      .select('signature_header')
      .where('id', '=', created.body.id)
      .executeTakeFirstOrThrow();
    assert.equal(stored.signature_header, 'x-both');
  });
});
