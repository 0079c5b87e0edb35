import type { Db } from '../db/connect.ts';
import { badRequest } from '../http/errors.ts';
import { UUID_RE } from '../shared/pg-errors.ts';
import { trimLabel } from './labels.ts';
import { ensureTags, resolveTagRefs } from './repository.ts';

/**
 * The labels a case body's `tags` (POST and PATCH /v1/cases) put on the case. Each entry is a tag
 * id or a label, as the reference's CaseCreate says ("Either tag `id`, or tag `label`") and as
 * POST /v1/cases/{id}/tags takes them: a uuid names a tag of the workspace (a tag whose label is
 * that uuid also counts), else it is a 400 naming the entry, never a new tag labelled with the id.
 * Labels matching no tag (case-insensitively) create one. The tags stay locked (shared) until the
 * transaction ends: call it before locking the case (lock order: src/tags/repository.ts).
 */
export async function caseTagLabels(trx: Db, workspaceId: string, given: string[]): Promise<string[]> {
  const refs = given.map(trimLabel);
  const idRefs = refs.flatMap((ref, i) => (UUID_RE.test(ref) ? [{ ref, i }] : []));
  const labels = [...refs];
  if (idRefs.length) {
    const found = await resolveTagRefs(
      trx,
      workspaceId,
      idRefs.map((x) => x.ref),
      true,
    );
    idRefs.forEach(({ ref, i }, k) => {
      const tag = found[k];
      if (!tag) throw badRequest(`tags[${i}]: no tag with id ${ref} in this workspace`, `tags[${i}]`);
      labels[i] = tag.label;
    });
  }
  return (await ensureTags(trx, workspaceId, labels)).map((t) => t.label);
}
