import { AML_LIST_TYPES } from './schemas.ts';

/** Every list type but adverse media: what a screening reads when no list type is left out. */
const WATCHLIST_TYPES = AML_LIST_TYPES.filter((t) => t !== 'adverse_media');

/**
 * The review comment of an aml check approved by the system. aml has no `automatic_approval`
 * setting (a create body naming one is refused), so the comment says what decided: no listed
 * entity matched, on these lists. The generic "by the aml check's automatic_approval rule" named
 * a rule the client cannot set.
 */
export function noHitApprovalComment(
  listVersions: readonly { source: string }[] | null | undefined,
  what = 'the screening',
  /** The check's `settings.list_types`: a screening limited to them says so (it read as all lists). */
  listTypes: readonly string[] | null | undefined = null,
): string {
  const sources = [...new Set((listVersions ?? []).map((l) => l.source))];
  // said only when some watchlist type was left out (the default asks for all of them)
  const limited = listTypes?.length && WATCHLIST_TYPES.some((t) => !listTypes.includes(t));
  const only = limited ? `; only their ${listTypes.join(', ')} entries` : '';
  const lists = sources.length ? ` (lists: ${sources.join(', ')}${only})` : '';
  return `Approved automatically: ${what} found no match on the sanctions and watch lists${lists}`;
}
