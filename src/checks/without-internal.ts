/**
 * `exclude_internal_checks=true` on an entity read (GET /v1/companies/{id}, /v1/individuals/{id}):
 * the entity without the checks marked `is_internal` (those the operator runs on its own material,
 * as ekyc and online_reputation). The case read filters in its query instead (src/checks/module.ts).
 */
export function withoutInternalChecks<T extends { checks: readonly { is_internal: boolean }[] }>(view: T): T {
  return { ...view, checks: view.checks.filter((c) => !c.is_internal) };
}

export const EXCLUDE_INTERNAL_CHECKS_DESCRIPTION =
  'Leave out the checks marked `is_internal` (ekyc, online_reputation, internal document checks); default false.';
