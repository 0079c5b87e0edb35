/**
 * A real SMTP server on loopback (smtp-server) that keeps every mail it is handed, for tests that
 * read what the service sent (the signing code). `next(to)` waits for the next mail to an address:
 * the wait ends when the mail arrives, not after a fixed time.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  to: string[];
  from: string;
  raw: string;
  /** The Subject header, unfolded, its encoded words (RFC 2047) decoded. */
  subject: string;
  /** The text of the message's body (headers and MIME part headers dropped, quoted-printable undone). */
  text: string;
}

/** Quoted-printable escapes undone: each run of `=XX` is UTF-8 bytes (`=C3=A9` is one é). */
function unQuote(text: string): string {
  return text.replace(/(?:=[0-9A-F]{2})+/g, (run) =>
    Buffer.from(run.replace(/=/g, ''), 'hex').toString('utf8'),
  );
}

/** The Subject header of a raw mail: unfolded, `=?UTF-8?Q?…?=` and `=?UTF-8?B?…?=` words decoded. */
function subjectOf(raw: string): string {
  const headers = raw.slice(0, Math.max(0, raw.search(/\r?\n\r?\n/))).replace(/\r?\n[ \t]+/g, ' ');
  const line = /^Subject: (.*)$/im.exec(headers)?.[1] ?? '';
  return line
    .replace(/\?=\s+=\?/g, '?==?') // the space between two encoded words is not part of the text
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_, enc: string, word: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(word, 'base64').toString('utf8')
        : unQuote(word.replace(/_/g, ' ')),
    );
}

export interface MailCatcher {
  url: string;
  mails: CaughtMail[];
  /** The first mail to `to` after the `seen` first ones (default: all mails so far) arrive. */
  next(to: string, seen?: number): Promise<CaughtMail>;
  countTo(to: string): number;
  close(): Promise<void>;
}

/**
 * The text of a body (or of one MIME part) after its headers: base64 decoded when its
 * Content-Transfer-Encoding says so (a mail mostly in Japanese or Korean is sent that way), else
 * quoted-printable soft breaks joined and escapes undone.
 */
function decodedPart(headers: string, body: string): string {
  if (/^Content-Transfer-Encoding:\s*base64/im.test(headers))
    return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return body.replace(/=\r?\n/g, '').replace(/(?:=[0-9A-F]{2})+/g, (run) => unQuote(run));
}

/** Drops headers, MIME boundaries and part headers; decodes each part (base64 or quoted-printable). */
function bodyText(raw: string): string {
  const start = raw.search(/\r?\n\r?\n/);
  if (start < 0) return '';
  const headers = raw.slice(0, start).replace(/\r?\n[ \t]+/g, ' ');
  const body = raw.slice(start).replace(/^\r?\n\r?\n/, '');
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(headers)?.[1];
  const text =
    !/^Content-Type:\s*multipart\//im.test(headers) || !boundary
      ? decodedPart(headers, body)
      : body
          .split(`--${boundary}`)
          .slice(1)
          .filter((part) => !part.startsWith('--'))
          .map((part) => {
            const end = part.search(/\r?\n\r?\n/);
            return end < 0 ? '' : decodedPart(part.slice(0, end), part.slice(end).replace(/^\r?\n\r?\n/, ''));
          })
          .join('\n');
  // lines end with \n, as the text was written (SMTP sends \r\n)
  return text.split(/\r?\n/).join('\n');
}

export async function startMailCatcher(): Promise<MailCatcher> {
  const mails: CaughtMail[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          raw,
          subject: subjectOf(raw),
          text: bodyText(raw),
        });
        for (const wake of waiters.splice(0)) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  const to = (address: string) => mails.filter((m) => m.to.includes(address.toLowerCase()));
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    countTo: (address) => to(address).length,
    async next(address, seen = to(address).length) {
      for (;;) {
        const hit = to(address)[seen];
        if (hit) return hit;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The one-time code of a signing mail: the first group of exactly six digits in its text. */
export function codeIn(mail: CaughtMail): string {
  const match = /(?:^|\D)(\d{6})(?:\D|$)/.exec(mail.text);
  if (!match) throw new Error(`no 6-digit code in the mail:\n${mail.text}`);
  return match[1];
}
