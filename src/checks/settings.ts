/**
 * Resolves a check's settings field by field: the request's value, else the workspace's setting
 * for this type, else the API default.
 */
export function resolveSettings<T extends Record<string, unknown>>(
  defaults: T,
  workspace: Record<string, unknown> | undefined,
  request: Partial<T> | undefined,
): T {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(defaults)) {
    const fromRequest = request?.[key as keyof T];
    const fromWorkspace = workspace?.[key];
    out[key] =
      fromRequest !== undefined ? fromRequest : fromWorkspace !== undefined ? fromWorkspace : defaults[key];
  }
  return out as T;
}
