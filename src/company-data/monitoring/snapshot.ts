import type { CompanyProfile } from '../schemas.ts';

/**
 * What company monitoring watches in a registry profile: status, name, address, officers (legal
 * representatives, with their position) and owners (beneficial owners and shareholders, merged per
 * party, with their ownership and voting rights). Stored per
 * linked company (`company_monitoring_state.snapshot`) and compared with each new fetch.
 */
export interface MonitoredParty {
  /** Identity of the party across fetches: kind, normalised name, birth date or registration number. */
  key: string;
  entity_type: 'individual' | 'company';
  name: string;
  birth_date?: string | null;
  registration_number?: string | null;
}
export interface MonitoredOfficer extends MonitoredParty {
  position: string | null;
}
export interface MonitoredOwner extends MonitoredParty {
  roles: ('beneficial_owner' | 'shareholder')[];
  ownership_percentage: number | null;
  /** An individual owner's voting rights (absent from snapshots stored before it was watched). */
  voting_rights_percentage?: number | null;
}
export interface MonitoringSnapshot {
  status: string;
  name: string;
  address: Record<string, string | null>;
  officers: MonitoredOfficer[];
  owners: MonitoredOwner[];
}

const norm = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

type Party = CompanyProfile['legal_representatives'][number];

function identity(p: Party): MonitoredParty {
  if (p.entity_type === 'individual') {
    return {
      key: `individual|${norm(p.name)}|${p.birth_date ?? ''}`,
      entity_type: 'individual',
      name: p.name,
      birth_date: p.birth_date,
    };
  }
  return {
    key: `company|${p.registration_number ? `#${norm(p.registration_number)}` : norm(p.name)}`,
    entity_type: 'company',
    name: p.name,
    registration_number: p.registration_number,
  };
}

const byKey = <T extends { key: string }>(a: T, b: T) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

export function baselineSnapshot(p: CompanyProfile): MonitoringSnapshot {
  const officers = new Map<string, MonitoredOfficer>();
  for (const r of p.legal_representatives) {
    const id = identity(r);
    if (!officers.has(id.key)) officers.set(id.key, { ...id, position: r.position });
  }
  const owners = new Map<string, MonitoredOwner>();
  const addOwner = (o: CompanyProfile['shareholders'][number], role: MonitoredOwner['roles'][number]) => {
    const id = identity(o);
    const found = owners.get(id.key);
    const pct = o.ownership_percentage;
    const votes = o.entity_type === 'individual' ? o.voting_rights_percentage : null;
    if (!found) {
      owners.set(id.key, {
        ...id,
        roles: [role],
        ownership_percentage: pct,
        voting_rights_percentage: votes,
      });
      return;
    }
    if (!found.roles.includes(role)) found.roles.push(role);
    if (pct !== null && (found.ownership_percentage === null || pct > found.ownership_percentage))
      found.ownership_percentage = pct;
    const had = found.voting_rights_percentage ?? null;
    if (votes !== null && (had === null || votes > had)) found.voting_rights_percentage = votes;
  };
  for (const o of p.beneficial_owners) addOwner(o, 'beneficial_owner');
  for (const o of p.shareholders) addOwner(o, 'shareholder');
  return {
    status: p.status,
    name: p.name,
    address: { ...p.address },
    officers: [...officers.values()].sort(byKey),
    owners: [...owners.values()].map((o) => ({ ...o, roles: [...o.roles].sort() })).sort(byKey),
  };
}
