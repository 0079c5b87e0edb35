/**
 * What the console says of a refused call: the server's message, with its first detail when that
 * adds something (a generic "does not match the schema" gets the field's own message).
 */
export function problemMessage(body: unknown, fallback: string): string {
  const b = body as { message?: unknown; details?: { path?: string; message?: string }[] } | undefined;
  if (typeof b?.message !== 'string') return fallback;
  const first = b.details?.find((d) => d.message);
  const detail = first?.message;
  if (!detail) return b.message;
  // a message that already names its field says it (eKYC's "no birth_date, address.country" was
  // followed by the same words again)
  const said = b.message.includes(detail) || (!!first?.path && b.message.includes(first.path));
  return said ? b.message : `${b.message}: ${detail}`;
}
