/**
 * Defaults of the workspace settings. Periodic review frequencies follow common KYB practice:
 * the riskier the case, the sooner it is looked at again; prohibited cases are not re-reviewed.
 */
export const DEFAULT_SETTINGS = {
  case_review: {
    comment_mandatory: false,
    frequency_in_months: { not_defined: 12, low: 36, medium: 24, high: 12, critical: 6, prohibited: null },
  },
  risk: { online_engines: false },
  // shown as null (no limit) until set, as the README's table gives it
  checks: { limit: null } as Record<string, unknown>,
  company_data: { fetch_limit: null as number | null },
  fraud_database: { share: false },
};

export type Settings = typeof DEFAULT_SETTINGS;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Deep merge: objects merge key by key, anything else replaces. */
export function deepMerge<T>(base: T, patch: unknown): T {
  if (!isPlainObject(base) || !isPlainObject(patch)) return (patch === undefined ? base : patch) as T;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(patch)) out[k] = v === undefined ? out[k] : deepMerge(out[k], v);
  return out as T;
}

export const resolveSettings = (stored: unknown): Settings => deepMerge(DEFAULT_SETTINGS, stored ?? {});
