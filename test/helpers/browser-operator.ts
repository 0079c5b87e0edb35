import assert from 'node:assert/strict';
import { newWorkspace } from './harness.ts';

/**
 * The operator's side of a browser test: an API client over real HTTP to the service under test,
 * with a fresh workspace. `call` answers JSON bodies parsed and anything else (a PDF) as bytes.
 */
export async function operatorClient(base: string, label: string) {
  const ws = await newWorkspace(label);
  const call = async (method: string, url: string, body?: unknown) => {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: {
        'x-service-api-key': ws.key,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    const json = String(res.headers.get('content-type')).includes('json');
    const parsed: any =
      json && bytes.length ? JSON.parse(bytes.toString('utf8')) : bytes.length ? bytes : null;
    return { status: res.status, body: parsed };
  };
  const ok = async (method: string, url: string, body?: unknown) => {
    const res = await call(method, url, body);
    const shown = Buffer.isBuffer(res.body) ? res.body.toString('utf8', 0, 300) : JSON.stringify(res.body);
    assert.ok(res.status >= 200 && res.status < 300, `${method} ${url}: ${res.status} ${shown}`);
    return res.body;
  };
  /** Uploads a file through `POST /v1/files/upload`; returns its upload_ref. */
  const upload = async (bytes: Buffer, name: string): Promise<string> => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), name);
    const res = await fetch(`${base}/v1/files/upload`, {
      method: 'POST',
      headers: { 'x-service-api-key': ws.key },
      body: form,
    });
    const answer = (await res.json()) as any;
    assert.equal(res.status, 200, JSON.stringify(answer));
    return answer.upload_ref as string;
  };
  return { call, ok, upload };
}
export type Operator = Awaited<ReturnType<typeof operatorClient>>;

/** A case whose main company is Acme SAS and whose contact, Ada Lovelace, is its business contact. */
export async function contactCase(op: Operator) {
  const created = await op.ok('POST', '/v1/cases', {
    name: 'Acme onboarding',
    companies: [{ type: 'main', name: 'Acme SAS', country: 'FR', registration_number: '552100554' }],
    individuals: [
      {
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: 'ada@example.com',
        birth_date: '1985-12-10',
        is_business_contact: true,
        address: { country: 'FR' },
        relations: [{ roles: ['legal_representative'], position: 'CEO' }],
      },
    ],
  });
  return {
    caseId: created.id as string,
    companyId: created.companies[0].id as string,
    contactId: created.individuals[0].id as string,
  };
}
