import type { Transporter } from 'nodemailer';
import pino from 'pino';
import type { AppContext } from '../app-context.ts';
import { lazyImport } from '../shared/lazy-module.ts';

// loaded by the first mail actually sent (src/shared/lazy-module.ts)
const loadNodemailer = lazyImport(() => import('nodemailer'));

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

type Logger = pino.Logger;

/**
 * nodemailer waits up to 2 minutes for a connection and 10 for a quiet socket; a signer waiting
 * for a code (and the request holding its transaction) should not: these are the defaults, and
 * the URL's query string overrides them (`?socketTimeout=60000`), like any nodemailer option.
 */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

/** The log of each context (set by the mail module at start-up) and its SMTP transport (made on first use). */
const loggers = new WeakMap<AppContext, Logger>();
const transports = new WeakMap<AppContext, Transporter>();
let fallbackLogger: Logger | undefined;

export function setMailLogger(ctx: AppContext, logger: Logger): void {
  loggers.set(ctx, logger);
}

/** Closes the SMTP transport's pooled connections, if one was made (at shutdown). */
export function closeMail(ctx: AppContext): void {
  transports.get(ctx)?.close();
  transports.delete(ctx);
}

/**
 * Sends a mail from `VERICASE_MAIL_FROM` through `VERICASE_SMTP_URL` (nodemailer: smtp:// with
 * STARTTLS when the server offers it, smtps:// for TLS from the start, credentials in the URL).
 * Resolves once the server accepted it; a refusal or an unreachable server rejects (the caller
 * decides: the signing code answers 502, nothing is recorded as sent). Without a URL nothing is
 * sent and the whole mail is written to the log at level info, so development and tests can read
 * it (never configure that in production: codes would sit in the logs).
 */
export async function sendMail(ctx: AppContext, mail: Mail): Promise<void> {
  const { smtpUrl, from } = ctx.config.mail;
  if (!smtpUrl) {
    logger(ctx).info(
      { mail: { from, to: mail.to, subject: mail.subject, text: mail.text } },
      'mail not sent (VERICASE_SMTP_URL is not set); its text is logged instead',
    );
    return;
  }
  let transport = transports.get(ctx);
  if (!transport) {
    const nodemailer = (await loadNodemailer()).default;
    transport = nodemailer.createTransport({ url: smtpUrl, ...TIMEOUTS });
    transports.set(ctx, transport);
  }
  await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
  logger(ctx).info({ mail: { to: mail.to, subject: mail.subject } }, 'mail sent');
}

function logger(ctx: AppContext): Logger {
  const known = loggers.get(ctx);
  if (known) return known;
  // outside a started service (a script): the default log on stdout
  fallbackLogger ??= pino({ level: 'info' }).child({ module: 'mail' });
  return fallbackLogger;
}
