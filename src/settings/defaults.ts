import { isDeepStrictEqual } from 'node:util';

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

/**
 * What is stored of resolved settings: only the values that differ from DEFAULT_SETTINGS, so that a
 * client sending back what GET answered stores nothing more (and a default changed in a later
 * version reaches every workspace that never chose otherwise). Only keys DEFAULT_SETTINGS has are
 * compared: a check type's default under `checks.<type>` has no entry there (its API default lives
 * with the check type, src/checks/types/<type>) and is kept as given, even when it equals the API
 * default, an empty block included, so GET keeps showing it and no check resolves otherwise.
 */
export function withoutDefaults(settings: unknown, defaults: unknown = DEFAULT_SETTINGS): unknown {
  if (!isPlainObject(settings) || !isPlainObject(defaults)) return settings;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(settings)) {
    if (!(k in defaults)) {
      out[k] = v;
      continue;
    }
    const d = defaults[k];
    if (isPlainObject(d) && isPlainObject(v)) {
      const rest = withoutDefaults(v, d) as Record<string, unknown>;
      if (Object.keys(rest).length) out[k] = rest;
    } else if (!isDeepStrictEqual(v, d)) out[k] = v;
  }
  return out;
}
