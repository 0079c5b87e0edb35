import type { Static, TSchema } from 'typebox';
import { Value } from 'typebox/value';
import type { CheckTypeDefinition } from '../checks/check-type.ts';
import { CHECK_TYPE_DEFINITIONS, typesNotEnabled } from '../checks/registry.ts';
import type { Db } from '../db/connect.ts';
import type { TemplateCheckSpec } from '../db/schema.ts';
import { ApiError, type ErrorDetail } from '../http/errors.ts';
import type { TemplateCheckIn, TemplateTarget } from './schemas.ts';

/** The entity kinds each target selects. */
export const TARGET_KINDS: Record<TemplateTarget, readonly ('company' | 'individual')[]> = {
  main_company: ['company'],
  companies: ['company'],
  individuals: ['individual'],
  beneficial_owners: ['individual'],
  legal_representatives: ['individual', 'company'],
  business_contacts: ['individual'],
  signatories: ['individual'],
};

/** An enabled check type by its name or one of its path aliases (`fraud-database`). */
export function enabledCheckType(type: string): CheckTypeDefinition | undefined {
  return CHECK_TYPE_DEFINITIONS.find(
    (d) => !d.readOnly && (d.type === type || d.pathAliases?.includes(type)),
  );
}

/** Types a template may create (read-only ones follow the workspace settings). */
const creatable = () => CHECK_TYPE_DEFINITIONS.filter((d) => !d.readOnly).map((d) => d.type);

function pointerToPath(base: string, pointer: string): string {
  let out = base;
  for (const part of pointer.split('/').filter(Boolean)) out += /^\d+$/.test(part) ? `[${part}]` : `.${part}`;
  return out;
}

/**
 * Validates a template's checks against the check engine: each type must be enabled, each target
 * must select entities the type can verify, and settings must be the type's create settings
 * (unknown keys refused, so a typo never silently changes a decision rule).
 */
export function validateTemplateChecks(checks: Static<typeof TemplateCheckIn>[]): TemplateCheckSpec[] {
  const details: ErrorDetail[] = [];
  const out: TemplateCheckSpec[] = [];
  checks.forEach((c, i) => {
    const at = `checks[${i}]`;
    const def = enabledCheckType(c.type);
    if (!def) {
      const known = typesNotEnabled().includes(c.type);
      const readOnly = CHECK_TYPE_DEFINITIONS.some((d) => d.readOnly && d.type === c.type);
      details.push({
        path: `${at}.type`,
        message: readOnly
          ? `${at}.type: ${c.type} checks are not created by templates: they follow the workspace settings`
          : known
            ? `${at}.type: the ${c.type} check type is not enabled on this service`
            : `${at}.type: unknown check type "${c.type}"; enabled: ${creatable().join(', ')}`,
      });
      return;
    }
    c.targets.forEach((t, j) => {
      if (!TARGET_KINDS[t].some((k) => def.targets.includes(k))) {
        details.push({
          path: `${at}.targets[${j}]`,
          message: `${at}.targets[${j}]: ${def.type} checks target ${def.targets.join(' or ')} entities; ${t} selects ${TARGET_KINDS[t].join(' or ')} entities`,
        });
      }
    });
    const settings = c.settings ?? {};
    const schema = (def.createBody.properties as Record<string, TSchema>).settings as
      | (TSchema & { properties?: Record<string, TSchema>; anyOf?: TSchema[] })
      | undefined;
    if (!schema) {
      if (Object.keys(settings).length)
        details.push({
          path: `${at}.settings`,
          message: `${at}.settings: ${def.type} checks take no settings`,
        });
    } else {
      const allowed = new Set(Object.keys(schema.properties ?? {}));
      for (const k of Object.keys(settings)) {
        if (!allowed.has(k))
          details.push({
            path: `${at}.settings.${k}`,
            message: `${at}.settings.${k} is not a setting of ${def.type} checks; use ${[...allowed].join(', ')}`,
          });
      }
      for (const e of Value.Errors(schema, settings)) {
        const path = pointerToPath(`${at}.settings`, e.instancePath);
        if (e.keyword === 'additionalProperties') continue;
        const allowedValues = (e.params as { allowedValues?: unknown[] } | undefined)?.allowedValues;
        const message =
          e.keyword === 'enum' && allowedValues ? `must be one of: ${allowedValues.join(', ')}` : e.message;
        details.push({ path, message: `${path} ${message}` });
      }
    }
    out.push({ type: def.type, targets: [...c.targets], settings });
  });
  if (details.length) throw new ApiError(400, details[0].message, details);
  return out;
}

/**
 * The checks of `validateTemplateChecks` that need the workspace's data (e.g. a document check's
 * document type must exist, be active and fit the targets), run when the template is written.
 */
export async function validateTemplateCheckData(
  db: Db,
  workspaceId: string,
  checks: readonly TemplateCheckSpec[],
): Promise<void> {
  const details: ErrorDetail[] = [];
  for (const [i, c] of checks.entries()) {
    const def = enabledCheckType(c.type);
    if (!def?.validateTemplateSettings) continue;
    const kinds = [...new Set(c.targets.flatMap((t) => TARGET_KINDS[t as TemplateTarget]))].filter((k) =>
      def.targets.includes(k),
    );
    const problem = await def.validateTemplateSettings(db, workspaceId, c.settings ?? {}, kinds);
    if (problem) {
      // named down to the setting when the type says which, as a bad vendor is
      const path =
        typeof problem === 'string' ? `checks[${i}].settings` : `checks[${i}].settings.${problem.setting}`;
      details.push({ path, message: `${path}: ${typeof problem === 'string' ? problem : problem.message}` });
    }
  }
  if (details.length) throw new ApiError(400, details[0].message, details);
}
