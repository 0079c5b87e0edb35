import { badRequest } from '../http/errors.ts';
import { MAX_CONTENT_TEXT } from './schemas.ts';

/** Text length of HTML content, tags ignored and entities counted as one character. */
export function textLength(html: string): number {
  return html.replace(/<[^>]*>/g, '').replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, '_').length;
}

/** Rejects content that is blank once tags are removed, or longer than the limit. */
export function checkContent(html: string): void {
  const text = html.replace(/<[^>]*>/g, '');
  if (!text.trim()) throw badRequest('content must not be empty', 'content');
  const n = textLength(html);
  if (n > MAX_CONTENT_TEXT)
    throw badRequest(
      `content is ${n} characters long without HTML tags; the maximum is ${MAX_CONTENT_TEXT}`,
      'content',
    );
}
