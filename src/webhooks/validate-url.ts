import { badRequest } from '../http/errors.ts';
import { checkPublicUrl } from './address-guard.ts';

/**
 * An http(s) URL written out in full (stored as given, so it must be the URL it reads as: `http:/x`,
 * a space or a port 0 would be repaired or refused by the parser, not by the receiver); with
 * allowPrivate false, not one pointing to a non-public address.
 */
export async function validateWebhookUrl(raw: string, allowPrivate: boolean): Promise<string> {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
  if (/[\s\u0000-\u001f\u007f]/.test(raw)) {
    throw badRequest(
      'url must not contain spaces or control characters (percent-encode a space as %20)',
      'url',
    );
  }
  if (!/^https?:\/\/[^/]/i.test(raw)) {
    throw badRequest('url must be an absolute http(s) URL starting with http:// or https://', 'url');
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest('url must be an absolute http(s) URL', 'url');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw badRequest('url must use http or https', 'url');
  }
  if (url.port === '0') throw badRequest('url must not name port 0', 'url');
  // they would be stored and shown in every delivery log, and no delivery sends them
  if (url.username || url.password) {
    throw badRequest(
      'url must not hold a user name or password (user:password@host): deliveries do not send them, and the URL is shown in every delivery log; the receiver authenticates a delivery by its signature',
      'url',
    );
  }
  if (!allowPrivate) {
    const problem = await checkPublicUrl(url);
    if (problem) throw badRequest(problem, 'url');
  }
  return raw;
}
