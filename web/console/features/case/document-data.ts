/**
 * What the documents tab reads from bytes and check data, without React: a file's type from its
 * first bytes, a check's extracted information as label/value pairs, and its criteria.
 */

/** The file's type from its first bytes (what the server accepts: src/files). */
export function sniffType(head: Uint8Array): string {
  const at = (i: number, ...bytes: number[]) => bytes.every((b, k) => head[i + k] === b);
  if (at(0, 0x25, 0x50, 0x44, 0x46)) return 'application/pdf';
  if (at(0, 0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (at(0, 0x89, 0x50, 0x4e, 0x47)) return 'image/png';
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return 'image/webp';
  if (at(0, 0x49, 0x49, 0x2a, 0x00) || at(0, 0x4d, 0x4d, 0x00, 0x2a) || at(0, 0x49, 0x49, 0x2b, 0x00))
    return 'image/tiff';
  if (at(4, 0x66, 0x74, 0x79, 0x70)) return 'image/heic';
  return 'application/octet-stream';
}

export type Json = Record<string, unknown>;
export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Leaf values of `information` as [path, text] (file ids and empty values left out). */
export function flattenInformation(value: unknown, prefix = ''): [string, string][] {
  if (!isObject(value)) return [];
  const out: [string, string][] = [];
  for (const [k, v] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (
      /(^|_)file_id$|_file_ids$|^audit_trail_id$|^model$/.test(k) ||
      v === null ||
      v === undefined ||
      v === ''
    )
      continue;
    if (isObject(v)) out.push(...flattenInformation(v, path));
    else if (Array.isArray(v)) {
      const items = v.filter((x) => !isObject(x)).map(String);
      if (items.length) out.push([path, items.join(', ')]);
    } else out.push([path, String(v)]);
  }
  return out;
}

/** The criteria in `detailed_results`: every object with a `result` (and maybe expected/received). */
export function criteria(
  value: unknown,
  prefix = '',
): { path: string; result: string | null; expected?: string; received?: string }[] {
  if (!isObject(value)) return [];
  const out: { path: string; result: string | null; expected?: string; received?: string }[] = [];
  for (const [k, v] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${k}` : k;
    // a verdict given as a bare value (id_document's detailed_results.document)
    if (v === null || v === 'approved' || v === 'rejected' || v === 'error') {
      if (k !== 'model') out.push({ path, result: v });
      continue;
    }
    if (!isObject(v)) continue;
    if ('result' in v && (typeof v.result === 'string' || v.result === null)) {
      out.push({
        path,
        result: v.result as string | null,
        ...(typeof v.expected === 'string' ? { expected: v.expected } : {}),
        ...(typeof v.received === 'string' ? { received: v.received } : {}),
      });
      continue;
    }
    out.push(...criteria(v, path));
  }
  return out;
}
