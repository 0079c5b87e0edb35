/**
 * Entities listed by name (the entities a check is launched on) are told apart when names repeat:
 * two "Ada Martin" of a case (a mother and her daughter, born years apart) each get a detail, the
 * first of birth date, registration number, e-mail, roles and country that differs between them.
 * A name that appears once gets none.
 */

/** What an entity can be told apart by, as the caller words it (dates and roles in its language). */
export interface Distinguishable {
  id: string;
  name: string;
  /** In order of preference: a birth date ("born 10 Dec 1985"), a registration number, ... */
  details: (string | null | undefined)[];
}

const key = (name: string) => name.trim().toLocaleLowerCase();

/** The detail shown beside each entity whose name another one has too (by id). */
export function distinguishingDetails(entities: readonly Distinguishable[]): Map<string, string> {
  const byName = new Map<string, Distinguishable[]>();
  for (const e of entities) byName.set(key(e.name), [...(byName.get(key(e.name)) ?? []), e]);
  const out = new Map<string, string>();
  for (const same of byName.values()) {
    if (same.length < 2) continue;
    const slots = Math.max(...same.map((e) => e.details.length));
    // the first kind of detail every one of them has, each a different value
    let chosen = -1;
    for (let i = 0; i < slots && chosen < 0; i++) {
      const values = same.map((e) => e.details[i]);
      if (values.every(Boolean) && new Set(values).size === values.length) chosen = i;
    }
    for (const e of same) {
      const detail = chosen >= 0 ? e.details[chosen] : e.details.filter(Boolean).join(', ') || null;
      if (detail) out.set(e.id, detail);
    }
  }
  return out;
}
