/**
 * A new case: typed by hand (the company and, optionally, its contact), or from the registry — search
 * a country's registry by name or number, pick a candidate, and the case is created with its profile
 * and, when asked, its officers and owners (the API's `search_ref` + `import_related`).
 */
import { type FormEvent, useState } from 'react';
import { useLocation } from 'wouter';
import { api, unwrap } from '../../api/client.ts';
import type { paths } from '../../api/schema';
import { useCanWrite } from '../../shell/session.tsx';
import { ActFailed } from '../ActFailed.tsx';
import { useAction, useActT } from '../act-i18n.ts';
import { DialogActions } from '../case/Dialog.tsx';
import { useCaseT } from '../case/i18n.ts';

type Candidate =
  paths['/v1/company-data/search']['get']['responses'][200]['content']['application/json']['data'][number];

/** The form's field a refusal names first (`companies[0].country must be…` → country), if any. */
const FIELD_OF_PATH: Record<string, string> = {
  name: 'case_name',
  external_id: 'external_id',
  'companies[0].name': 'company_name',
  'companies[0].country': 'country',
  'companies[0].registration_number': 'registration_number',
  'individuals[0].first_name': 'contact_first',
  'individuals[0].last_name': 'contact_last',
  'individuals[0].email': 'contact_email',
};
function refusedField(error: string | null): string | null {
  const path = error?.match(/^(\S+?):? /)?.[1];
  return path ? (FIELD_OF_PATH[path] ?? null) : null;
}

function ByHand() {
  const t = useActT();
  const [, navigate] = useLocation();
  const [f, setF] = useState<Record<string, string>>({ country: 'FR' });
  const { busy, error, run } = useAction();
  const set = (k: string) => (e: { target: { value: string } }) => setF({ ...f, [k]: e.target.value });
  // a refusal naming a field is said under that field (a refused country was said in the grid's next
  // free cell, beside "Contact e-mail", pushing the contact row down); any other after the fields
  const refused = refusedField(error);
  const under = (k: string) => (refused === k ? <ActFailed error={error} /> : null);
  const invalid = (k: string) => (refused === k ? true : undefined);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const contact = f.contact_last?.trim();
      const created = unwrap(
        await api.POST('/v1/cases', {
          body: {
            name: f.case_name?.trim() || f.company_name?.trim() || '',
            ...(f.external_id?.trim() ? { external_id: f.external_id.trim() } : {}),
            companies: [
              {
                type: 'main',
                name: f.company_name?.trim() ?? '',
                ...(f.country?.trim() ? { country: f.country.trim().toUpperCase() } : {}),
                ...(f.registration_number?.trim()
                  ? { registration_number: f.registration_number.trim() }
                  : {}),
              },
            ],
            ...(contact
              ? {
                  individuals: [
                    {
                      first_name: f.contact_first?.trim() || '',
                      last_name: contact,
                      ...(f.contact_email?.trim() ? { email: f.contact_email.trim() } : {}),
                      is_business_contact: true,
                      relations: [{ roles: ['legal_representative' as const] }],
                    },
                  ],
                }
              : {}),
          },
        }),
      );
      navigate(`/cases/${created.id}`);
    });
  };
  return (
    <form className="act-form wide" onSubmit={submit} aria-label={t('new.byHand')}>
      <label>
        {t('new.caseName')}
        <input
          aria-invalid={invalid('case_name')}
          value={f.case_name ?? ''}
          onChange={set('case_name')}
          placeholder={f.company_name}
        />
        {under('case_name')}
      </label>
      <label>
        {t('new.externalId')}
        <input
          aria-invalid={invalid('external_id')}
          value={f.external_id ?? ''}
          onChange={set('external_id')}
        />
        {under('external_id')}
      </label>
      <label>
        {t('new.companyName')}
        <input
          aria-invalid={invalid('company_name')}
          required
          value={f.company_name ?? ''}
          onChange={set('company_name')}
        />
        {under('company_name')}
      </label>
      <label>
        {t('new.country')}
        <input aria-invalid={invalid('country')} value={f.country ?? ''} onChange={set('country')} />
        {under('country')}
      </label>
      <label>
        {t('new.registrationNumber')}
        <input
          aria-invalid={invalid('registration_number')}
          value={f.registration_number ?? ''}
          onChange={set('registration_number')}
        />
        {under('registration_number')}
      </label>
      {/* the contact is optional, but a person has both names (the API refuses a blank one): once
          either is typed, the other is required. Said once above the three fields (in the first
          field's label it wrapped on three lines and pushed the row down) */}
      <p className="act-form-note muted small">{t('new.contactNote')}</p>
      <label>
        {t('new.contactFirst')}
        <input
          aria-invalid={invalid('contact_first')}
          required={Boolean(f.contact_last?.trim())}
          value={f.contact_first ?? ''}
          onChange={set('contact_first')}
        />
        {under('contact_first')}
      </label>
      <label>
        {t('new.contactLast')}
        <input
          aria-invalid={invalid('contact_last')}
          required={Boolean(f.contact_first?.trim())}
          value={f.contact_last ?? ''}
          onChange={set('contact_last')}
        />
        {under('contact_last')}
      </label>
      <label>
        {t('new.contactEmail')}
        <input
          aria-invalid={invalid('contact_email')}
          type="email"
          value={f.contact_email ?? ''}
          onChange={set('contact_email')}
        />
        {under('contact_email')}
      </label>
      {refused ? null : <ActFailed error={error} />}
      {/* the dialogs' row of actions (DialogActions), its button at the right; nothing to cancel */}
      <DialogActions error={null} busy={busy} submitLabel={busy ? t('act.busy') : t('new.create')} />
    </form>
  );
}

function FromRegistry() {
  const t = useActT();
  const caseT = useCaseT();
  const [, navigate] = useLocation();
  const [country, setCountry] = useState('FR');
  const [name, setName] = useState('');
  const [number, setNumber] = useState('');
  const [related, setRelated] = useState(true);
  const [candidates, setCandidates] = useState<Candidate[] | null>(null);
  const search = useAction();
  const create = useAction();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setCandidates(null);
    void search.run(async () => {
      const res = unwrap(
        await api.GET('/v1/company-data/search', {
          params: {
            query: {
              country: country.trim().toUpperCase(),
              ...(name.trim() ? { name: name.trim() } : {}),
              ...(number.trim() ? { registration_number: number.trim() } : {}),
            },
          },
        }),
      );
      setCandidates(res.data);
    });
  };
  const pick = (c: Candidate) =>
    void create.run(async () => {
      const created = unwrap(
        await api.POST('/v1/cases', {
          body: {
            name: c.name,
            companies: [{ type: 'main', search_ref: c.search_ref, import_related: related }],
          },
        }),
      );
      navigate(`/cases/${created.id}`);
    });
  return (
    <div>
      <form className="act-form wide" onSubmit={submit} aria-label={t('new.fromRegistry')}>
        <label>
          {t('new.country')}
          <input required value={country} onChange={(e) => setCountry(e.target.value)} />
        </label>
        <label>
          {t('new.searchName')}
          <input value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label>
          {t('new.registrationNumber')}
          <input value={number} onChange={(e) => setNumber(e.target.value)} />
        </label>
        {/* a search row: its button stays beside the fields it searches by, not at the far right */}
        <div className="act-buttons">
          <button type="submit" className="primary" disabled={search.busy}>
            {search.busy ? t('new.searching') : t('new.search')}
          </button>
        </div>
      </form>
      <ActFailed error={search.error} />
      {candidates ? (
        candidates.length === 0 ? (
          <p className="muted">{t('new.noResult')}</p>
        ) : (
          <section aria-label={t('new.candidates', { count: candidates.length })}>
            <p role="status">{t('new.candidates', { count: candidates.length })}</p>
            <label className="inline">
              <input type="checkbox" checked={related} onChange={(e) => setRelated(e.target.checked)} />{' '}
              {t('new.importRelated')}
            </label>
            <ul className="candidates">
              {candidates.map((c) => (
                <li key={c.search_ref}>
                  <div>
                    <strong>{c.name}</strong> · {c.registration_number} ·{' '}
                    {caseT(`case.companyStatus.${c.status}` as const)}
                    <div className="muted small">
                      {[c.address?.street_address, c.address?.postal_code, c.address?.city, c.country]
                        .filter(Boolean)
                        .join(', ')}
                    </div>
                  </div>
                  <button type="button" className="primary" disabled={create.busy} onClick={() => pick(c)}>
                    {t(related ? 'new.import' : 'new.importCompany')}
                  </button>
                </li>
              ))}
            </ul>
            <ActFailed error={create.error} />
          </section>
        )
      ) : null}
    </div>
  );
}

export function NewCasePage() {
  const t = useActT();
  const canWrite = useCanWrite();
  const [mode, setMode] = useState<'registry' | 'hand'>('registry');
  // a viewer who types the address gets what restricted settings pages give: the title and why not
  // (the navigation has no New case for them; the server refuses their POST /v1/cases anyway)
  if (!canWrite)
    return (
      <section className="page new-case" aria-labelledby="new-case-title">
        <h1 id="new-case-title">{t('new.title')}</h1>
        <p className="muted">{t('new.notAllowed')}</p>
      </section>
    );
  return (
    <section className="page new-case" aria-labelledby="new-case-title">
      <h1 id="new-case-title">{t('new.title')}</h1>
      <nav className="status-tabs" aria-label={t('new.title')}>
        <button type="button" aria-pressed={mode === 'registry'} onClick={() => setMode('registry')}>
          {t('new.fromRegistry')}
        </button>
        <button type="button" aria-pressed={mode === 'hand'} onClick={() => setMode('hand')}>
          {t('new.byHand')}
        </button>
      </nav>
      {mode === 'registry' ? <FromRegistry /> : <ByHand />}
    </section>
  );
}
