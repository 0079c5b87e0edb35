/**
 * Cases for the console's case page, written through the public HTTP API of a listening server
 * (fetch with the caller's headers: an API key or a console session). `seedDemoCase`: a small group
 * with percentages, a representative, a document check on a PDF and an ID document on an image,
 * a note, tags and a risk. `seedLargeCase`: the bench's case, N entities and M checks.
 */
import { makePng } from './files.ts';
import { kbisPdf } from './sample-documents.ts';

type Json = any;

export class SeedClient {
  readonly base: string;
  readonly headers: Record<string, string>;
  constructor(base: string, headers: Record<string, string>) {
    this.base = base;
    this.headers = headers;
  }

  async call(method: string, path: string, body?: object): Promise<Json> {
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers: { ...this.headers, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : null;
  }

  async upload(bytes: Buffer, filename: string): Promise<string> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), filename);
    const res = await fetch(`${this.base}/v1/files/upload`, {
      method: 'POST',
      headers: this.headers,
      body: form,
    });
    const json = (await res.json()) as Json;
    if (res.status !== 200) throw new Error(`upload ${filename}: ${res.status} ${JSON.stringify(json)}`);
    return json.upload_ref;
  }

  /** Polls a check until it left `processing` (the workers run in the test server). */
  async settled(type: string, id: string, timeoutMs = 60_000): Promise<Json> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const check = await this.call('GET', `/v1/checks/${type}/${id}`);
      if (check.status !== 'processing') return check;
      if (Date.now() > deadline) throw new Error(`check ${id} still processing`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

export interface DemoCase {
  caseId: string;
  acmeId: string;
  holdingId: string;
  adaId: string;
  bobId: string;
  documentCheckId: string;
  idDocumentCheckId: string;
  noteId: string;
}

export async function seedDemoCase(client: SeedClient, name = 'Acme onboarding'): Promise<DemoCase> {
  const kase = await client.call('POST', '/v1/cases', {
    name,
    external_id: `acme-${Date.now()}-${Math.floor(Math.random() * 1e6)}`,
    companies: [
      {
        ref: 'acme',
        type: 'main',
        name: 'Acme Industries SAS',
        country: 'FR',
        registration_number: '552100554',
      },
      {
        ref: 'holding',
        type: 'affiliated',
        name: 'Acme Holding GmbH',
        country: 'DE',
        relations: [{ roles: ['shareholder'], ownership_percentage: 70 }],
      },
    ],
    individuals: [
      {
        first_name: 'Ada',
        last_name: 'Lovelace',
        birth_date: '1985-12-10',
        email: 'ada@example.com',
        address: { country: 'FR' },
        is_business_contact: true,
        relations: [
          { roles: ['legal_representative', 'shareholder'], position: 'CEO', ownership_percentage: 30 },
        ],
      },
      {
        first_name: 'Bob',
        last_name: 'Martin',
        birth_date: '1970-02-01',
        relations: [{ roles: ['shareholder'], ownership_percentage: 100, source_company_ref: 'holding' }],
      },
    ],
  });
  const acme = kase.companies.find((c: Json) => c.type === 'main');
  const holding = kase.companies.find((c: Json) => c.type === 'affiliated');
  const ada = kase.individuals.find((i: Json) => i.first_name === 'Ada');
  const bob = kase.individuals.find((i: Json) => i.first_name === 'Bob');

  // an extrait Kbis (a PDF with a text layer the analysis reads), an ID document image the sandbox
  // leaves undecided (to review)
  const pdf = await kbisPdf({
    name: 'Acme Industries SAS',
    siren: '552100554',
    date: new Date().toISOString().slice(0, 10),
  });
  const document = await client.call('POST', '/v1/checks/document', {
    company_id: acme.id,
    settings: { document_type_key: 'registration_certificate' },
    data: { files: [{ upload_ref: await client.upload(pdf, 'kbis.pdf') }] },
  });
  const png = makePng({
    width: 320,
    height: 200,
    color: [120, 160, 220],
    text: { sandbox_outcome: 'undecided' },
  });
  const idDocument = await client.call('POST', '/v1/checks/id_document', {
    individual_id: ada.id,
    data: { front_upload_ref: await client.upload(png, 'passport.png') },
  });
  const note = await client.call('POST', '/v1/notes', {
    case_id: kase.id,
    content: 'Holding structure confirmed by phone.\nWaiting for the UBO register extract.',
  });
  await client.call('POST', `/v1/notes/${note.id}/comments`, {
    content: 'Extract requested on <b>Monday</b>.',
  });
  await client.call('POST', `/v1/cases/${kase.id}/tags`, { tags: ['priority', 'kyb'] });
  await client.call('POST', `/v1/cases/${kase.id}/risks`, { level: 'medium', comment: 'Foreign holding' });
  return {
    caseId: kase.id,
    acmeId: acme.id,
    holdingId: holding.id,
    adaId: ada.id,
    bobId: bob.id,
    documentCheckId: document.id,
    idDocumentCheckId: idDocument.id,
    noteId: note.id,
  };
}

const COMPANY_DOCS = [
  'registration_certificate',
  'articles_of_association',
  'ubo_register_extract',
  'tax_certificate',
];
const PERSON_DOCS = ['proof_of_address', 'bank_account_details', 'id_card_copy', 'tax_certificate'];

/**
 * A case of `entities` entities (a main company, `companies - 1` subsidiaries owned by it, the rest
 * individuals owning or representing them) and `checks` document checks spread over them (waiting
 * for files: no worker needed).
 */
export async function seedLargeCase(
  client: SeedClient,
  { entities = 50, companies = 10, checks = 200 } = {},
): Promise<{ caseId: string; entityIds: string[] }> {
  const subs = Array.from({ length: companies - 1 }, (_, i) => ({
    ref: `sub${i}`,
    type: 'affiliated',
    name: `Subsidiary ${i + 1} SARL`,
    country: ['FR', 'DE', 'BE', 'LU'][i % 4],
    registration_number: `R${100000 + i}`,
    relations: [{ roles: ['shareholder'], ownership_percentage: 100 / (companies - 1) }],
  }));
  const people = Array.from({ length: entities - companies }, (_, i) => ({
    first_name: `Person${i + 1}`,
    last_name: ['Martin', 'Bernard', 'Dubois', 'Thomas', 'Robert'][i % 5],
    birth_date: `19${60 + (i % 30)}-0${1 + (i % 9)}-1${i % 9}`,
    relations: [
      i % 4 === 0
        ? {
            roles: ['legal_representative'],
            position: 'Director',
            source_company_ref: `sub${i % (companies - 1)}`,
          }
        : {
            roles: ['shareholder'],
            ownership_percentage: 25,
            source_company_ref: `sub${i % (companies - 1)}`,
          },
    ],
  }));
  const kase = await client.call('POST', '/v1/cases', {
    name: `Large group (${entities} entities)`,
    companies: [{ ref: 'main', type: 'main', name: 'Group Parent SA', country: 'FR' }, ...subs],
    individuals: people,
  });
  const targets: { id: string; kind: 'company' | 'individual' }[] = [
    ...kase.companies.map((c: Json) => ({ id: c.id, kind: 'company' as const })),
    ...kase.individuals.map((i: Json) => ({ id: i.id, kind: 'individual' as const })),
  ];
  const jobs = Array.from({ length: checks }, (_, n) => {
    const target = targets[n % targets.length];
    const round = Math.floor(n / targets.length) % 4;
    return target.kind === 'company'
      ? { company_id: target.id, settings: { document_type_key: COMPANY_DOCS[round] } }
      : { individual_id: target.id, settings: { document_type_key: PERSON_DOCS[round] } };
  });
  // a few at a time: the embedded database has one connection
  for (let i = 0; i < jobs.length; i += 8) {
    await Promise.all(jobs.slice(i, i + 8).map((body) => client.call('POST', '/v1/checks/document', body)));
  }
  return { caseId: kase.id, entityIds: targets.map((t) => t.id) };
}
