import { badRequest } from '../http/errors.ts';
import { hasVisibleText } from '../shared/visible-text.ts';
import { FORBIDDEN_LABEL_CHARS } from './schemas.ts';

/**
 * A label as stored and looked up: without surrounding blanks, so " vip" is the tag "vip" rather
 * than a second tag that reads the same.
 */
export const trimLabel = (label: string): string => label.trim();

/** Rejects a label holding a separator character; `path` names the offending field. */
export function checkLabel(label: string, path: string): void {
  const bad = FORBIDDEN_LABEL_CHARS.find((c) => label.includes(c));
  if (bad !== undefined) {
    throw badRequest(
      `${path} must not contain any of ${FORBIDDEN_LABEL_CHARS.join(' ')} (found "${bad}")`,
      path,
    );
  }
  // invisible characters alone are blank too (a zero-width space showed as an empty tag)
  if (!hasVisibleText(label)) throw badRequest(`${path} must not be blank`, path);
}
