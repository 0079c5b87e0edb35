/**
 * Recorded-style answers of the four real registries, written from their documentation (GLEIF API v1,
 * API Recherche d'entreprises OpenAPI, Companies House public data and Document APIs, Enhetsregisteret
 * open data API). Small on purpose: a live company and a closed one per registry, with officers and
 * owners where the registry publishes them. Fields the adapters do not read are kept where they make the
 * shape recognisable.
 */

// ---------------------------------------------------------------- GLEIF (JSON:API)
const gleifAddress = (
  lines: string[],
  city: string,
  region: string,
  country: string,
  postalCode: string,
) => ({
  language: country === 'FR' ? 'fr' : 'en',
  addressLines: lines,
  addressNumber: null,
  addressNumberWithinBuilding: null,
  mailRouting: null,
  city,
  region,
  country,
  postalCode,
});

export const GLEIF_RECORDS = [
  {
    type: 'lei-records',
    id: '969500ACMEFR00000012',
    attributes: {
      lei: '969500ACMEFR00000012',
      entity: {
        legalName: { name: 'ACME SAS', language: 'fr' },
        otherNames: [{ name: 'Acme', language: 'fr', type: 'TRADING_OR_OPERATING_NAME' }],
        transliteratedOtherNames: [],
        legalAddress: gleifAddress(['12 RUE DE LA PAIX'], 'PARIS', 'FR-75', 'FR', '75002'),
        headquartersAddress: gleifAddress(['12 RUE DE LA PAIX'], 'PARIS', 'FR-75', 'FR', '75002'),
        registeredAt: { id: 'RA000189', other: null },
        registeredAs: '552100554',
        jurisdiction: 'FR',
        category: 'GENERAL',
        legalForm: { id: '6CHY', other: null },
        associatedEntity: { lei: null, name: null },
        status: 'ACTIVE',
        expiration: { date: null, reason: null },
        successorEntity: { lei: null, name: null },
        successorEntities: [],
        creationDate: '1955-03-01T00:00:00Z',
        subCategory: null,
        otherAddresses: [],
        eventGroups: [],
      },
      registration: {
        initialRegistrationDate: '2013-02-11T10:22:00Z',
        lastUpdateDate: '2025-02-12T08:01:13Z',
        status: 'ISSUED',
        nextRenewalDate: '2026-02-11T10:22:00Z',
        managingLou: '969500N3F3S5FT5F3E74',
        corroborationLevel: 'FULLY_CORROBORATED',
        validatedAt: { id: 'RA000189', other: null },
        validatedAs: '552100554',
        otherValidationAuthorities: [],
      },
      bic: null,
      mic: null,
      ocid: null,
      spglobal: [],
      conformityFlag: 'CONFORMING',
    },
    relationships: {
      'managing-lou': {
        links: { related: 'https://api.gleif.org/api/v1/lei-records/969500ACMEFR00000012/managing-lou' },
      },
      'direct-parent': {
        links: {
          'reporting-exception':
            'https://api.gleif.org/api/v1/lei-records/969500ACMEFR00000012/direct-parent-reporting-exception',
        },
      },
    },
    links: { self: 'https://api.gleif.org/api/v1/lei-records/969500ACMEFR00000012' },
  },
  {
    type: 'lei-records',
    id: '969500ACMEFUND000077',
    attributes: {
      lei: '969500ACMEFUND000077',
      entity: {
        legalName: { name: 'ACME PATRIMOINE FCP', language: 'fr' },
        otherNames: [],
        legalAddress: gleifAddress(['8 AVENUE HOCHE', 'BATIMENT B'], 'PARIS', 'FR-75', 'FR', '75008'),
        headquartersAddress: gleifAddress(['8 AVENUE HOCHE'], 'PARIS', 'FR-75', 'FR', '75008'),
        registeredAt: { id: 'RA999999', other: null },
        registeredAs: null,
        jurisdiction: 'FR',
        category: 'FUND',
        legalForm: { id: '8888', other: 'Fonds commun de placement' },
        status: 'INACTIVE',
        expiration: { date: '2021-12-31T00:00:00Z', reason: 'DISSOLVED' },
        creationDate: null,
      },
      registration: { status: 'RETIRED', initialRegistrationDate: '2014-05-02T00:00:00Z' },
    },
    links: { self: 'https://api.gleif.org/api/v1/lei-records/969500ACMEFUND000077' },
  },
];

export function gleifList(records: unknown[]) {
  return {
    meta: {
      goldenCopy: { publishDate: '2026-11-23T08:00:00Z' },
      pagination: {
        currentPage: 1,
        perPage: 20,
        from: records.length ? 1 : null,
        to: records.length || null,
        total: records.length,
        lastPage: 1,
      },
    },
    links: {
      first: 'https://api.gleif.org/api/v1/lei-records?page%5Bnumber%5D=1',
      last: 'https://api.gleif.org/api/v1/lei-records?page%5Bnumber%5D=1',
    },
    data: records,
  };
}

// ---------------------------------------------------------------- API Recherche d'entreprises
export const RECHERCHE_RESULTS = [
  {
    siren: '552100554',
    nom_complet: 'ACME',
    nom_raison_sociale: 'ACME',
    sigle: null,
    nombre_etablissements: 3,
    nombre_etablissements_ouverts: 2,
    siege: {
      activite_principale: '62.01Z',
      adresse: '12 RUE DE LA PAIX 75002 PARIS',
      caractere_employeur: 'O',
      cedex: null,
      code_pays_etranger: null,
      code_postal: '75002',
      commune: '75102',
      complement_adresse: 'ESCALIER B',
      date_creation: '1955-03-01',
      departement: '75',
      est_siege: true,
      etat_administratif: 'A',
      indice_repetition: null,
      libelle_commune: 'PARIS',
      libelle_commune_etranger: null,
      libelle_pays_etranger: null,
      libelle_voie: 'DE LA PAIX',
      liste_enseignes: ['ACME PARIS'],
      nom_commercial: null,
      numero_voie: '12',
      region: '11',
      siret: '55210055400013',
      statut_diffusion_etablissement: 'O',
      type_voie: 'RUE',
    },
    activite_principale: '62.01Z',
    categorie_entreprise: 'PME',
    date_creation: '1955-03-01',
    date_fermeture: null,
    dirigeants: [
      {
        nom: 'DUPONT',
        prenoms: 'Marie Claire',
        annee_de_naissance: '1971',
        date_de_naissance: '1971-04',
        qualite: 'Président de SAS',
        nationalite: 'Française',
        type_dirigeant: 'personne physique',
      },
      {
        nom: 'MARTIN',
        prenoms: 'Jean',
        annee_de_naissance: '1965',
        qualite: 'Directeur général',
        type_dirigeant: 'personne physique',
      },
      {
        siren: '784824153',
        denomination: 'AUDIT CONSEIL SA',
        qualite: 'Commissaire aux comptes titulaire',
        type_dirigeant: 'personne morale',
      },
    ],
    etat_administratif: 'A',
    nature_juridique: '5710',
    section_activite_principale: 'J',
    tranche_effectif_salarie: '12',
    statut_diffusion: 'O',
    matching_etablissements: [],
    finances: { '2023': { ca: 1250000, resultat_net: 80000 } },
    complements: { est_entrepreneur_individuel: false, est_ess: false },
    tva: ['FR44552100554'],
  },
  {
    siren: '812345678',
    nom_complet: 'ACME CONSEIL',
    nom_raison_sociale: 'ACME CONSEIL',
    siege: {
      adresse: '3 PLACE BELLECOUR 69002 LYON',
      code_postal: '69002',
      libelle_commune: 'LYON',
      numero_voie: '3',
      type_voie: 'PL',
      libelle_voie: 'BELLECOUR',
      est_siege: true,
      etat_administratif: 'F',
      siret: '81234567800011',
    },
    activite_principale: '70.22Z',
    date_creation: '2015-06-01',
    date_fermeture: '2020-06-30',
    dirigeants: [],
    etat_administratif: 'C',
    nature_juridique: '5499',
    statut_diffusion: 'O',
    matching_etablissements: [],
  },
  {
    // An individual entrepreneur who opposed publication: the API words every withheld value so.
    siren: '901234567',
    nom_complet: '[NON-DIFFUSIBLE]',
    nom_raison_sociale: null,
    siege: {
      adresse: '[NON-DIFFUSIBLE]',
      code_postal: '[NON-DIFFUSIBLE]',
      libelle_commune: 'NANTES',
      numero_voie: '[NON-DIFFUSIBLE]',
      type_voie: null,
      libelle_voie: '[NON-DIFFUSIBLE]',
      nom_commercial: '[NON-DIFFUSIBLE]',
      est_siege: true,
      etat_administratif: 'A',
      siret: '90123456700018',
    },
    activite_principale: '43.32A',
    date_creation: '2021-09-01',
    dirigeants: [
      {
        nom: '[NON-DIFFUSIBLE]',
        prenoms: '[NON-DIFFUSIBLE]',
        qualite: 'Entrepreneur individuel',
        type_dirigeant: 'personne physique',
      },
    ],
    etat_administratif: 'A',
    nature_juridique: '1000',
    statut_diffusion: 'P',
    matching_etablissements: [],
  },
];

export const rechercheList = (results: unknown[]) => ({
  results,
  total_results: results.length,
  page: 1,
  per_page: 10,
  total_pages: results.length ? 1 : 0,
});

// ---------------------------------------------------------------- Companies House
const CH_OFFICE = {
  premises: '1',
  address_line_1: 'High Street',
  locality: 'London',
  postal_code: 'EC1A 1BB',
  country: 'United Kingdom',
};

export const CH_COMPANIES: Record<string, Record<string, unknown>> = {
  '01234567': {
    company_name: 'ACME WIDGETS LIMITED',
    company_number: '01234567',
    company_status: 'active',
    type: 'ltd',
    jurisdiction: 'england-wales',
    date_of_creation: '2010-05-04',
    registered_office_address: { ...CH_OFFICE, address_line_2: 'Clerkenwell', region: 'Greater London' },
    sic_codes: ['62012', '62020'],
    has_charges: false,
    has_insolvency_history: false,
    can_file: true,
    accounts: { accounting_reference_date: { day: '31', month: '12' }, next_due: '2025-09-30' },
    confirmation_statement: { next_due: '2025-05-18', last_made_up_to: '2024-05-04' },
    links: {
      self: '/company/01234567',
      filing_history: '/company/01234567/filing-history',
      officers: '/company/01234567/officers',
      persons_with_significant_control: '/company/01234567/persons-with-significant-control',
    },
    etag: '9f0b1d2c3a4e5f60718293a4b5c6d7e8f9012345',
  },
  '07654321': {
    company_name: 'ACME TRADING LTD',
    company_number: '07654321',
    company_status: 'dissolved',
    type: 'ltd',
    jurisdiction: 'england-wales',
    date_of_creation: '2011-06-01',
    date_of_cessation: '2019-01-15',
    registered_office_address: {
      address_line_1: '2 Station Road',
      locality: 'Leeds',
      postal_code: 'LS1 4DY',
    },
    sic_codes: ['46900'],
    links: { self: '/company/07654321' },
  },
};

/**
 * A company with a long history: 231 officer appointments (the first 180, in the API's order,
 * resigned directors; then 50 current ones and a nameless one) and 131 PSC statements (120 ceased,
 * then 10 current corporate owners and a nameless person), more than one page of the API (100 at
 * most) each.
 */
export const CH_BIG_NUMBER = '03333333';
CH_COMPANIES[CH_BIG_NUMBER] = {
  company_name: 'BIGBOARD PLC',
  company_number: CH_BIG_NUMBER,
  company_status: 'active',
  type: 'plc',
  date_of_creation: '1950-01-01',
  registered_office_address: { ...CH_OFFICE },
  sic_codes: ['64191'],
  links: { self: `/company/${CH_BIG_NUMBER}` },
};
const pad = (i: number) => String(i).padStart(3, '0');
export const CH_BIG_OFFICERS: Record<string, unknown>[] = Array.from({ length: 230 }, (_, i) => ({
  name: `DIRECTOR${pad(i)}, Person`,
  officer_role: 'director',
  appointed_on: '1990-01-01',
  ...(i < 180 ? { resigned_on: '2000-01-01' } : {}),
  date_of_birth: { month: 1 + (i % 12), year: 1940 + (i % 50) },
  address: { ...CH_OFFICE },
}));
// an answer missing fields: a current director and a current PSC without any name
CH_BIG_OFFICERS.push({ officer_role: 'director', appointed_on: '2020-01-01', name: ' , ' });
export const CH_BIG_PSCS: Record<string, unknown>[] = Array.from({ length: 130 }, (_, i) => ({
  kind: 'corporate-entity-person-with-significant-control',
  name: `OWNER ${pad(i)} LIMITED`,
  natures_of_control: ['ownership-of-shares-25-to-50-percent'],
  ...(i < 120 ? { ceased_on: '2010-01-01', ceased: true } : {}),
  identification: { registration_number: `05${pad(i)}000`, legal_form: 'Limited Company' },
  address: { ...CH_OFFICE },
}));
CH_BIG_PSCS.push({
  kind: 'individual-person-with-significant-control',
  natures_of_control: ['ownership-of-shares-75-to-100-percent'],
  date_of_birth: { month: 3, year: 1970 },
});

/** One page of a Companies House list, as the API pages it (`start_index`, at most 100 a page). */
export function chPage(all: unknown[], q: URLSearchParams) {
  const size = Math.min(Number(q.get('items_per_page') ?? 35), 100);
  const start = Number(q.get('start_index') ?? 0);
  return {
    total_results: all.length,
    items_per_page: size,
    start_index: start,
    items: all.slice(start, start + size),
  };
}

export const CH_SEARCH_ITEMS = Object.values(CH_COMPANIES).map((c) => ({
  kind: 'searchresults#company',
  company_number: c.company_number,
  title: c.company_name,
  company_status: c.company_status,
  company_type: c.type,
  date_of_creation: c.date_of_creation,
  address: c.registered_office_address,
  address_snippet: '1 High Street, London, EC1A 1BB',
  description: `${c.company_number} - Incorporated on ${c.date_of_creation}`,
  links: { self: `/company/${c.company_number}` },
}));

export const CH_OFFICERS = {
  kind: 'officer-list',
  active_count: 3,
  resigned_count: 1,
  inactive_count: 0,
  total_results: 5,
  items_per_page: 100,
  start_index: 0,
  items: [
    {
      name: 'SMITH, John David',
      officer_role: 'director',
      appointed_on: '2010-05-04',
      date_of_birth: { month: 6, year: 1975 },
      nationality: 'British',
      occupation: 'Company Director',
      country_of_residence: 'England',
      address: { ...CH_OFFICE },
      links: {
        self: '/company/01234567/appointments/abc',
        officer: { appointments: '/officers/Xa1/appointments' },
      },
    },
    {
      name: "O'BRIEN, Siobhan",
      officer_role: 'director',
      appointed_on: '2018-01-10',
      date_of_birth: { month: 11, year: 1982 },
      nationality: 'Irish',
      address: { premises: '5', address_line_1: 'Quay Street', locality: 'Dublin', country: 'Ireland' },
      links: { officer: { appointments: '/officers/Xa2/appointments' } },
    },
    {
      name: 'JONES, Sarah',
      officer_role: 'secretary',
      appointed_on: '2010-05-04',
      address: { ...CH_OFFICE },
      links: { officer: { appointments: '/officers/Xa3/appointments' } },
    },
    {
      name: 'BROWN, Peter',
      officer_role: 'director',
      appointed_on: '2010-05-04',
      resigned_on: '2015-01-01',
      date_of_birth: { month: 2, year: 1960 },
      address: { ...CH_OFFICE },
      links: { officer: { appointments: '/officers/Xa4/appointments' } },
    },
    {
      name: 'ACME NOMINEES LIMITED',
      officer_role: 'corporate-director',
      appointed_on: '2020-03-01',
      identification: {
        identification_type: 'uk-limited-company',
        registration_number: '09876543',
        place_registered: 'Companies House',
        country_registered: 'England',
      },
      address: { ...CH_OFFICE },
      links: { officer: { appointments: '/officers/Xa5/appointments' } },
    },
  ],
  links: { self: '/company/01234567/officers' },
};

export const CH_PSCS = {
  active_count: 2,
  ceased_count: 1,
  total_results: 3,
  items_per_page: 100,
  start_index: 0,
  items: [
    {
      kind: 'individual-person-with-significant-control',
      name: 'Mr John David Smith',
      name_elements: { title: 'Mr', forename: 'John', middle_name: 'David', surname: 'Smith' },
      natures_of_control: [
        'ownership-of-shares-50-to-75-percent',
        'voting-rights-50-to-75-percent',
        'right-to-appoint-and-remove-directors',
      ],
      notified_on: '2016-04-06',
      date_of_birth: { month: 6, year: 1975 },
      nationality: 'British',
      country_of_residence: 'England',
      address: { ...CH_OFFICE },
      links: { self: '/company/01234567/persons-with-significant-control/individual/psc1' },
      etag: 'a1',
    },
    {
      kind: 'corporate-entity-person-with-significant-control',
      name: 'ACME HOLDINGS LIMITED',
      natures_of_control: ['ownership-of-shares-25-to-50-percent', 'voting-rights-25-to-50-percent'],
      notified_on: '2016-04-06',
      identification: {
        legal_authority: 'Companies Act 2006',
        legal_form: 'Private Limited Company',
        place_registered: 'Companies House',
        registration_number: '05555555',
        country_registered: 'England',
      },
      address: {
        premises: '10',
        address_line_1: 'Market Square',
        locality: 'Bristol',
        postal_code: 'BS1 1AA',
        country: 'England',
      },
      links: { self: '/company/01234567/persons-with-significant-control/corporate-entity/psc2' },
      etag: 'a2',
    },
    {
      kind: 'individual-person-with-significant-control',
      name: 'Mrs Ann Old',
      name_elements: { title: 'Mrs', forename: 'Ann', surname: 'Old' },
      natures_of_control: ['ownership-of-shares-75-to-100-percent'],
      notified_on: '2016-04-06',
      ceased_on: '2017-12-31',
      date_of_birth: { month: 1, year: 1950 },
      address: { ...CH_OFFICE },
      links: { self: '/company/01234567/persons-with-significant-control/individual/psc3' },
      etag: 'a3',
    },
  ],
  links: { self: '/company/01234567/persons-with-significant-control' },
};

export const CH_FILINGS = {
  filing_history_status: 'filing-history-available',
  total_count: 3,
  items_per_page: 25,
  start_index: 0,
  items: [
    {
      transaction_id: 'MzQyMDAwMDAwMQ',
      category: 'confirmation-statement',
      type: 'CS01',
      date: '2024-05-10',
      description: 'confirmation-statement-with-no-updates',
      description_values: { made_up_date: '2024-05-04' },
      pages: 3,
      barcode: 'XD4ABCDE',
      links: {
        self: '/company/01234567/filing-history/MzQyMDAwMDAwMQ',
        document_metadata:
          'https://frontend-doc-api.company-information.service.gov.uk/document/cs01DocId123',
      },
    },
    {
      transaction_id: 'MzQxOTk5OTk5OQ',
      category: 'accounts',
      type: 'AA',
      date: '2024-01-20',
      description: 'accounts-with-accounts-type-micro-entity',
      pages: 6,
      links: {
        self: '/company/01234567/filing-history/MzQxOTk5OTk5OQ',
        document_metadata: 'https://frontend-doc-api.company-information.service.gov.uk/document/aaDocId456',
      },
    },
    {
      // A filing whose image is not available: not orderable.
      transaction_id: 'MzAwMDAwMDAwMA',
      category: 'mortgage',
      type: 'MR01',
      date: '2012-02-02',
      links: { self: '/company/01234567/filing-history/MzAwMDAwMDAwMA' },
    },
  ],
};

export const FAKE_PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

// ---------------------------------------------------------------- Brønnøysund Enhetsregisteret (HAL)
const brregLink = (path: string) => ({ self: { href: `https://data.brreg.no/enhetsregisteret/api${path}` } });

export const BRREG_UNITS: Record<string, Record<string, unknown>> = {
  '912345678': {
    organisasjonsnummer: '912345678',
    navn: 'ACME NORGE AS',
    organisasjonsform: {
      kode: 'AS',
      beskrivelse: 'Aksjeselskap',
      _links: brregLink('/organisasjonsformer/AS'),
    },
    hjemmeside: 'www.acme.no',
    postadresse: {
      land: 'Norge',
      landkode: 'NO',
      postnummer: '0101',
      poststed: 'OSLO',
      adresse: ['Postboks 1'],
      kommune: 'OSLO',
      kommunenummer: '0301',
    },
    registreringsdatoEnhetsregisteret: '2015-03-12',
    registrertIMvaregisteret: true,
    naeringskode1: { kode: '62.010', beskrivelse: 'Programmeringstjenester' },
    antallAnsatte: 12,
    harRegistrertAntallAnsatte: true,
    forretningsadresse: {
      land: 'Norge',
      landkode: 'NO',
      postnummer: '0154',
      poststed: 'OSLO',
      adresse: ['Karl Johans gate 1', '3. etasje'],
      kommune: 'OSLO',
      kommunenummer: '0301',
    },
    stiftelsesdato: '2015-02-20',
    institusjonellSektorkode: { kode: '2100', beskrivelse: 'Private aksjeselskaper mv.' },
    registrertIForetaksregisteret: true,
    registrertIStiftelsesregisteret: false,
    registrertIFrivillighetsregisteret: false,
    sisteInnsendteAarsregnskap: '2024',
    konkurs: false,
    underAvvikling: false,
    underTvangsavviklingEllerTvangsopplosning: false,
    maalform: 'Bokmål',
    kapital: { belop: 30000, valuta: 'NOK', type: 'Aksjekapital' },
    _links: brregLink('/enheter/912345678'),
  },
  '998877665': {
    organisasjonsnummer: '998877665',
    navn: 'ACME KONKURS AS',
    organisasjonsform: { kode: 'AS', beskrivelse: 'Aksjeselskap' },
    registreringsdatoEnhetsregisteret: '2012-01-05',
    forretningsadresse: {
      land: 'Norge',
      landkode: 'NO',
      postnummer: '5003',
      poststed: 'BERGEN',
      adresse: ['Bryggen 2'],
    },
    konkurs: true,
    konkursdato: '2023-10-02',
    underAvvikling: false,
    underTvangsavviklingEllerTvangsopplosning: false,
    _links: brregLink('/enheter/998877665'),
  },
  '987654321': {
    organisasjonsnummer: '987654321',
    navn: 'OLA NORDMANN ACME',
    organisasjonsform: { kode: 'ENK', beskrivelse: 'Enkeltpersonforetak' },
    registreringsdatoEnhetsregisteret: '2004-08-01',
    forretningsadresse: {
      land: 'Norge',
      landkode: 'NO',
      postnummer: '7010',
      poststed: 'TRONDHEIM',
      adresse: ['Munkegata 3'],
    },
    konkurs: false,
    underAvvikling: false,
    underTvangsavviklingEllerTvangsopplosning: false,
    _links: brregLink('/enheter/987654321'),
  },
};

/** A deleted unit: the register answers 410 Gone with what it still knows. */
export const BRREG_DELETED = {
  organisasjonsnummer: '911111111',
  navn: 'ACME GAMMEL AS',
  organisasjonsform: { kode: 'AS', beskrivelse: 'Aksjeselskap' },
  slettedato: '2022-06-30',
  _links: brregLink('/enheter/911111111'),
};

const person = (fornavn: string, etternavn: string, fodselsdato: string, mellomnavn?: string) => ({
  fodselsdato,
  navn: { fornavn, ...(mellomnavn ? { mellomnavn } : {}), etternavn },
  erDoed: false,
});
const roleType = (kode: string, beskrivelse: string) => ({
  kode,
  beskrivelse,
  _links: brregLink(`/roller/rolletyper/${kode}`),
});

export const BRREG_ROLES: Record<string, unknown> = {
  '912345678': {
    rollegrupper: [
      {
        type: roleType('DAGL', 'Daglig leder/ adm.direktør'),
        sistEndret: '2020-01-15',
        roller: [
          {
            type: roleType('DAGL', 'Daglig leder/ adm.direktør'),
            person: person('Kari', 'Nordmann', '1980-02-14'),
            fratraadt: false,
            rekkefolge: 0,
          },
        ],
      },
      {
        type: roleType('STYR', 'Styre'),
        sistEndret: '2023-06-01',
        roller: [
          {
            type: roleType('LEDE', 'Styrets leder'),
            person: person('Per', 'Hansen', '1968-09-30', 'Olav'),
            fratraadt: false,
            rekkefolge: 0,
          },
          {
            type: roleType('MEDL', 'Styremedlem'),
            person: person('Kari', 'Nordmann', '1980-02-14'),
            fratraadt: false,
            rekkefolge: 1,
          },
          {
            type: roleType('MEDL', 'Styremedlem'),
            person: person('Gammel', 'Styremedlem', '1950-01-01'),
            fratraadt: true,
            rekkefolge: 2,
          },
          {
            type: roleType('VARA', 'Varamedlem'),
            person: person('Vara', 'Person', '1990-05-05'),
            fratraadt: false,
            rekkefolge: 3,
          },
        ],
      },
      {
        type: roleType('REVI', 'Revisor'),
        sistEndret: '2019-03-03',
        roller: [
          {
            type: roleType('REVI', 'Revisor'),
            enhet: {
              organisasjonsnummer: '976389387',
              organisasjonsform: { kode: 'AS', beskrivelse: 'Aksjeselskap' },
              navn: ['REVISJON NORD AS'],
              erSlettet: false,
            },
            fratraadt: false,
            rekkefolge: 0,
          },
        ],
      },
    ],
  },
  '987654321': {
    rollegrupper: [
      {
        type: roleType('INNH', 'Innehaver'),
        sistEndret: '2004-08-01',
        roller: [
          {
            type: roleType('INNH', 'Innehaver'),
            person: person('Ola', 'Nordmann', '1970-12-24'),
            fratraadt: false,
            rekkefolge: 0,
          },
        ],
      },
    ],
  },
};

export function brregSearch(units: unknown[]) {
  const page = { size: 20, totalElements: units.length, totalPages: units.length ? 1 : 0, number: 0 };
  // HAL: without hits the register leaves `_embedded` out.
  return units.length
    ? { _embedded: { enheter: units }, _links: brregLink('/enheter'), page }
    : { _links: brregLink('/enheter'), page };
}
