import { badRequest } from '../http/errors.ts';
import { checkPublicUrl } from './address-guard.ts';

/** An http(s) URL; with allowPrivate false, not one pointing to a non-public address. */
export async function validateWebhookUrl(raw: string, allowPrivate: boolean): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest('url must be an absolute http(s) URL', 'url');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw badRequest('url must use http or https', 'url');
  }
  if (!allowPrivate) {
    const problem = await checkPublicUrl(url);
    if (problem) throw badRequest(problem, 'url');
  }
  return raw;
}
