import assert from 'node:assert/strict';
import net from 'node:net';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import type { AppContext } from '../src/app-context.ts';
import { loadConfig } from '../src/config.ts';
import { mailModule } from '../src/mail/module.ts';
import { sendMail } from '../src/mail/send-mail.ts';
import { getHarness } from './helpers/harness.ts';
import { type MailCatcher, startMailCatcher } from './helpers/mail-catcher.ts';

// sendMail through a real SMTP server on loopback (smtp-server), and its log fallback when no
// VERICASE_SMTP_URL is set; on both databases (the mail module is installed like in the service).

let catcher: MailCatcher;
before(async () => {
  catcher = await startMailCatcher();
});
after(() => catcher.close());

/** A context like the service's, with this mail configuration and a log kept in memory. */
async function contextWith(mail: { smtpUrl: string | null; from: string }) {
  const { ctx } = await getHarness();
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const own = { ...ctx, config: { ...ctx.config, mail }, stop: undefined } as AppContext;
  await mailModule.install(own, pino({ level: 'info' }, sink));
  return { ctx: own, lines };
}

describe('mail', () => {
  test('sends through the configured SMTP server, from VERICASE_MAIL_FROM, text and HTML', async () => {
    const { ctx, lines } = await contextWith({ smtpUrl: catcher.url, from: 'signatures@vericase.test' });
    const to = `signer-${Date.now()}@example.com`;
    const text = 'Your signing code is 123456.\nIt is valid for 10 minutes.';
    await sendMail(ctx, {
      to,
      subject: 'Your signing code: 123456',
      text,
      html: '<p>Your code: <b>123456</b></p>',
    });
    const mail = await catcher.next(to, 0);
    assert.deepEqual(mail.to, [to]);
    assert.equal(mail.from, 'signatures@vericase.test');
    assert.match(mail.raw, /^Subject: Your signing code: 123456\r?$/m);
    assert.match(mail.raw, /^From: signatures@vericase\.test\r?$/m);
    assert.match(mail.text, /Your signing code is 123456\.\nIt is valid for 10 minutes\./);
    assert.match(mail.text, /<b>123456<\/b>/);
    // the log says a mail went, without its text (a code must not sit in the logs)
    const sent = lines.find((l) => l.msg === 'mail sent') as { mail: Record<string, unknown> } | undefined;
    assert.ok(sent);
    assert.deepEqual(sent.mail, { to, subject: 'Your signing code: 123456' });
    assert.ok(!JSON.stringify(lines).includes('valid for 10 minutes'));

    // a second mail reuses the transport and arrives too
    await sendMail(ctx, { to, subject: 'Second', text: 'Again' });
    assert.match((await catcher.next(to, 1)).text, /Again/);
    await ctx.stop?.();
  });

  test('without VERICASE_SMTP_URL the whole mail is written to the log at info, nothing is sent', async () => {
    const { ctx, lines } = await contextWith({ smtpUrl: null, from: 'vericase@localhost' });
    const to = `log-${Date.now()}@example.com`;
    const text = 'Hello,\n\nYour code: 654321\n\n-- \nvericase';
    await sendMail(ctx, { to, subject: 'Code', text });
    const logged = lines.find((l) => (l.mail as { to?: string } | undefined)?.to === to);
    assert.ok(logged, 'the mail is in the log');
    assert.equal(logged.level, 30);
    assert.equal(logged.module, 'mail');
    assert.deepEqual(logged.mail, { from: 'vericase@localhost', to, subject: 'Code', text });
    assert.match(String(logged.msg), /VERICASE_SMTP_URL is not set/);
    assert.equal(catcher.countTo(to), 0);
  });

  test('a server that refuses the connection makes sendMail fail (the caller decides what to answer)', async () => {
    // a port nothing listens on: the catcher's, once a second catcher on it is closed
    const gone = await startMailCatcher();
    await gone.close();
    const { ctx } = await contextWith({ smtpUrl: gone.url, from: 'vericase@localhost' });
    await assert.rejects(
      sendMail(ctx, { to: 'x@example.com', subject: 'S', text: 'T' }),
      /ECONNREFUSED|connect/i,
    );
  });

  test('a server that accepts the connection but never answers: sendMail gives up after the greeting timeout (set in the URL)', async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as net.AddressInfo).port;
    try {
      const { ctx } = await contextWith({
        smtpUrl: `smtp://127.0.0.1:${port}/?greetingTimeout=200`,
        from: 'vericase@localhost',
      });
      await assert.rejects(sendMail(ctx, { to: 'x@example.com', subject: 'S', text: 'T' }), /greeting/i);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  test('VERICASE_SMTP_URL must be smtp:// or smtps://; the sender defaults to vericase@localhost', () => {
    assert.throws(
      () => loadConfig({ VERICASE_SMTP_URL: 'http://mail.example.com' }),
      /VERICASE_SMTP_URL must start with smtp/,
    );
    assert.equal(
      loadConfig({ VERICASE_SMTP_URL: 'smtps://u:p@mail.example.com:465' }).mail.smtpUrl,
      'smtps://u:p@mail.example.com:465',
    );
    assert.deepEqual(loadConfig({}).mail, { smtpUrl: null, from: 'vericase@localhost' });
    assert.equal(
      loadConfig({ VERICASE_MAIL_FROM: ' Vericase <no-reply@example.com> ' }).mail.from,
      'Vericase <no-reply@example.com>',
    );
  });
});
