import type { RegistryCandidate } from '../../provider.ts';
import type { CompanyProfile } from '../../schemas.ts';
import { isRecord } from '../adapter-options.ts';
import {
  type AddressValue,
  address,
  asRepresentative,
  birthDateFromMonth,
  company,
  dateOnly,
  individual,
  mergeParties,
  text as presentText,
} from '../profile-parts.ts';
import { frenchLegalForm } from './legal-forms.ts';

/**
 * "API Recherche d'entreprises" (`https://recherche-entreprises.api.gouv.fr/search`) results → candidates
 * and profiles. One result is one legal unit (SIREN) with its head office (`siege`) and its officers
 * (`dirigeants`, from the RNE). Only the fields read here are typed.
 */
export interface RechercheSiege {
  numero_voie?: string | null;
  indice_repetition?: string | null;
  type_voie?: string | null;
  libelle_voie?: string | null;
  complement_adresse?: string | null;
  code_postal?: string | null;
  libelle_commune?: string | null;
  libelle_commune_etranger?: string | null;
  code_pays_etranger?: string | null;
  adresse?: string | null;
  nom_commercial?: string | null;
  liste_enseignes?: string[] | null;
}

export interface RechercheDirigeant {
  type_dirigeant?: string;
  nom?: string | null;
  prenoms?: string | null;
  annee_de_naissance?: string | null;
  date_de_naissance?: string | null;
  qualite?: string | null;
  siren?: string | null;
  denomination?: string | null;
}

export interface RechercheResult {
  siren?: string;
  nom_complet?: string | null;
  nom_raison_sociale?: string | null;
  siege?: RechercheSiege | null;
  activite_principale?: string | null;
  date_creation?: string | null;
  etat_administratif?: string | null;
  nature_juridique?: string | null;
  statut_diffusion?: string | null;
  dirigeants?: RechercheDirigeant[] | null;
  tva?: string[] | null;
}

/**
 * A value the registry withholds (the owner opposed publication) reads `[NON-DIFFUSIBLE]`: it is
 * no value, so it is kept as none rather than stored as a name, a street or a postal code.
 */
function text(value: unknown): string | null {
  const t = presentText(value);
  return t && /^\[?\s*non[-\s]?diffusible\s*\]?$/i.test(t) ? null : t;
}

/**
 * Statutory auditors (commissaires aux comptes, titulaire or suppléant) are listed among the
 * `dirigeants` but certify the accounts; they do not act for the company, so they are no legal
 * representatives (as the Norwegian adapter leaves its auditors out).
 */
const NOT_A_REPRESENTATIVE = /commissaire\s+aux\s+comptes|auditeur/i;

export function rechercheCandidate(r: RechercheResult): RegistryCandidate | null {
  if (!isRecord(r)) return null;
  const siren = text(r.siren);
  const name = text(r.nom_raison_sociale) ?? text(r.nom_complet);
  if (!siren || !/^\d{9}$/.test(siren)) return null;
  // A withheld name (an individual entrepreneur who opposed publication) still names a company that
  // exists: it is shown as the registry words it rather than dropped from the results.
  const shownName = name ?? (presentText(r.nom_complet) || presentText(r.nom_raison_sociale));
  if (!shownName) return null;
  return {
    vendorRef: siren,
    name: shownName,
    registration_number: siren,
    country: 'FR',
    address: siegeAddress(r.siege),
    // A = active, C = cessée (ceased).
    status: r.etat_administratif === 'C' ? 'closed' : r.etat_administratif === 'A' ? 'live' : 'not_reported',
    // "P" = partial diffusion: the owner opposed publication, so names and addresses are withheld.
    disclosable: r.statut_diffusion !== 'P',
  };
}

export function rechercheProfile(r: RechercheResult): CompanyProfile | null {
  const candidate = rechercheCandidate(r);
  if (!candidate) return null;
  const representatives = (Array.isArray(r.dirigeants) ? r.dirigeants : [])
    .filter(isRecord)
    .filter((d) => !NOT_A_REPRESENTATIVE.test(text(d.qualite) ?? ''))
    .map(dirigeant)
    .filter((d) => d !== null);
  // The public API carries no beneficial owners (the RBE is closed to the public) and no shareholders.
  const parties = { beneficial_owners: [], shareholders: [], legal_representatives: representatives };
  const naf = text(r.activite_principale);
  return {
    name: candidate.name,
    commercial_name: text(r.siege?.nom_commercial) ?? text(r.siege?.liste_enseignes?.[0]),
    registration_number: candidate.registration_number,
    country: 'FR',
    status: candidate.status,
    registration_date: dateOnly(r.date_creation),
    ...frenchLegalForm(text(r.nature_juridique)),
    address: candidate.address,
    // Share capital is in the RNE, not in this API.
    share_capital: null,
    tax_identification_number: vatNumber(r.tva),
    website_url: null,
    classifications: naf ? [{ type: 'NAF', code: naf, description: null }] : [],
    ...parties,
    ...mergeParties(parties),
  };
}

function dirigeant(d: RechercheDirigeant) {
  const position = text(d.qualite);
  if (d.type_dirigeant === 'personne morale') {
    const name = text(d.denomination);
    if (!name) return null;
    const siren = text(d.siren);
    // A legal-person officer with a SIREN is registered in France; without one its country is unknown.
    return asRepresentative(
      company({ name, position, registration_number: siren, country: siren ? 'FR' : null }),
    );
  }
  const lastName = text(d.nom);
  const givenNames = text(d.prenoms)?.split(/\s+/) ?? [];
  if (!lastName && !givenNames.length) return null;
  // `date_de_naissance` is "YYYY-MM" (the RNE publishes no day); `annee_de_naissance` alone is too vague.
  const [year, month] = (text(d.date_de_naissance) ?? '').split('-');
  return asRepresentative(
    individual({
      first_name: givenNames[0] ?? null,
      middle_name: givenNames.slice(1).join(' ') || null,
      last_name: lastName,
      position,
      birth_date: birthDateFromMonth(year, month),
    }),
  );
}

function siegeAddress(s: RechercheSiege | null | undefined): AddressValue {
  if (!s) return address({ country: 'FR' });
  const street = [s.numero_voie, s.indice_repetition, s.type_voie, s.libelle_voie]
    .map(text)
    .filter(Boolean)
    .join(' ');
  // A head office abroad gives an INSEE country code, not an ISO one: the country is then left unknown.
  const abroad = Boolean(text(s.code_pays_etranger));
  return address({
    street_address: street || (abroad ? null : text(s.adresse)),
    street_address_2: text(s.complement_adresse),
    postal_code: text(s.code_postal),
    city: text(s.libelle_commune) ?? text(s.libelle_commune_etranger),
    country: abroad ? null : 'FR',
  });
}

/** The API lists the active intra-EU VAT numbers (DGFiP); the first one is the company's. */
function vatNumber(tva: string[] | null | undefined): string | null {
  const first = text(tva?.[0]);
  return first && /^FR[0-9A-Z]{2}\d{9}$/.test(first) ? first : null;
}
