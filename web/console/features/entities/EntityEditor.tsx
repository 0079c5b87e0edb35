/**
 * Adding and editing the case's companies and individuals, and relations between them, through the
 * same API an integration uses (the server validates and names any refused field).
 */
import { useEffect, useState } from 'react';
import { api, unwrap } from '../../api/client.ts';
import { useActT } from '../act-i18n.ts';
import { ActFormDialog, useActFormDialog } from './ActFormDialog.tsx';
import {
  CompanyFields,
  CountryField,
  ENTITY_FIELDS,
  EntitySelect,
  IndividualFields,
  OwnershipField,
  type Role,
  RoleSelect,
} from './EntityFields.tsx';

type Kind = 'company' | 'individual';

/** The case's companies (for "related to"), read when a dialog opens. */
function useCaseCompanies(caseId: string, open: boolean) {
  const [companies, setCompanies] = useState<{ id: string; name: string }[]>([]);
  const [people, setPeople] = useState<{ id: string; name: string }[]>([]);
  // null until read: whether the case has its main company (what anything else is added around)
  const [hasMain, setHasMain] = useState<boolean | null>(null);
  useEffect(() => {
    if (!open) return;
    setHasMain(null);
    api.GET('/v1/cases/{id}', { params: { path: { id: caseId } } }).then((r) => {
      if (r.data) setHasMain(r.data.companies.some((c) => c.type === 'main'));
      // the main company first: it is what a new person or company is most often related to, and
      // the first company is the one "Related to" starts on (the API lists them by creation)
      const companies = [...(r.data?.companies ?? [])].sort(
        (a, b) => Number(b.type === 'main') - Number(a.type === 'main'),
      );
      setCompanies(companies.map((c) => ({ id: c.id, name: c.name })));
      setPeople(
        (r.data?.individuals ?? []).map((i) => ({
          id: i.id,
          name: [i.first_name, i.last_name].filter(Boolean).join(' '),
        })),
      );
    });
  }, [caseId, open]);
  return { companies, people, hasMain };
}

const blankToNull = (v: string) => (v.trim() ? v.trim() : undefined);

export function AddEntityButton(props: { caseId: string; onChanged: () => void }) {
  const t = useActT();
  const dialog = useActFormDialog();
  const { companies, hasMain } = useCaseCompanies(props.caseId, dialog.open);
  const [chosenKind, setKind] = useState<Kind>('individual');
  // a case without its main company gets that first: the API refuses a person or an affiliate
  // around no main company (docs/case-graph.md), so the dialog adds the main company, unrelated
  const mainFirst = hasMain === false;
  const kind: Kind = mainFirst ? 'company' : chosenKind;
  const [f, setF] = useState<Record<string, string>>({});
  const [role, setRole] = useState<Role>('legal_representative');
  const set = (k: string) => (e: { target: { value: string } }) => setF({ ...f, [k]: e.target.value });

  const submit = dialog.submit(
    async () => {
      const relation = {
        to_company_id: f.to_company_id || companies[0]?.id,
        roles: [role],
        ...(role === 'shareholder' && f.ownership ? { ownership_percentage: Number(f.ownership) } : {}),
      };
      if (kind === 'individual') {
        unwrap(
          await api.POST('/v1/individuals', {
            body: {
              case_id: props.caseId,
              first_name: f.first_name ?? '',
              last_name: f.last_name ?? '',
              email: blankToNull(f.email ?? ''),
              birth_date: blankToNull(f.birth_date ?? ''),
              is_business_contact: f.contact === 'yes',
              ...(f.country ? { address: { country: f.country.toUpperCase() } } : {}),
              relations: [relation],
            },
          }),
        );
      } else {
        unwrap(
          await api.POST('/v1/companies', {
            body: {
              case_id: props.caseId,
              type: mainFirst ? 'main' : 'affiliated',
              name: f.name ?? '',
              country: blankToNull((f.country ?? '').toUpperCase()),
              registration_number: blankToNull(f.registration_number ?? ''),
              ...(mainFirst ? {} : { relations: [{ ...relation, to_company_id: relation.to_company_id }] }),
            },
          }),
        );
      }
    },
    () => {
      setF({});
      props.onChanged();
    },
  );

  return (
    <ActFormDialog
      openLabel={t('entity.add')}
      title={t('entity.add')}
      dialog={dialog}
      onSubmit={submit}
      fields={ENTITY_FIELDS}
    >
      {mainFirst ? (
        <p className="muted">{t('entity.mainFirst')}</p>
      ) : (
        <fieldset>
          <legend>{t('entity.kind')}</legend>
          {(['individual', 'company'] as const).map((k) => (
            <label key={k} className="inline">
              <input type="radio" name="kind" checked={kind === k} onChange={() => setKind(k)} />{' '}
              {t(`entity.${k}`)}
            </label>
          ))}
        </fieldset>
      )}
      {kind === 'individual' ? (
        <>
          <IndividualFields f={f} set={set} required />
          <label className="inline">
            <input
              type="checkbox"
              checked={f.contact === 'yes'}
              onChange={(e) => setF({ ...f, contact: e.target.checked ? 'yes' : '' })}
            />{' '}
            {t('entity.contact')}
          </label>
        </>
      ) : (
        <CompanyFields f={f} set={set} required />
      )}
      <CountryField f={f} set={set} />
      {mainFirst ? null : (
        <>
          <EntitySelect
            label={t('entity.relatedTo')}
            value={f.to_company_id ?? companies[0]?.id ?? ''}
            options={companies}
            onChange={(id) => setF({ ...f, to_company_id: id })}
          />
          <RoleSelect value={role} onChange={setRole} />
          <OwnershipField
            role={role}
            value={f.ownership ?? ''}
            onChange={(v) => setF({ ...f, ownership: v })}
          />
        </>
      )}
    </ActFormDialog>
  );
}

export function EditEntityButton(props: {
  caseId: string;
  entity: { id: string; kind: Kind };
  onChanged: () => void;
}) {
  const t = useActT();
  const dialog = useActFormDialog();
  const [f, setF] = useState<Record<string, string>>({});
  const { id, kind } = props.entity;
  useEffect(() => {
    if (!dialog.open) return;
    if (kind === 'individual') {
      api.GET('/v1/individuals/{id}', { params: { path: { id } } }).then((r) => {
        const i = r.data;
        if (i)
          setF({
            first_name: i.first_name ?? '',
            last_name: i.last_name ?? '',
            email: i.email ?? '',
            birth_date: i.birth_date ?? '',
            country: i.address?.country ?? '',
          });
      });
    } else {
      api.GET('/v1/companies/{id}', { params: { path: { id } } }).then((r) => {
        const c = r.data;
        if (c)
          setF({ name: c.name, registration_number: c.registration_number ?? '', country: c.country ?? '' });
      });
    }
  }, [dialog.open, id, kind]);
  const set = (k: string) => (e: { target: { value: string } }) => setF({ ...f, [k]: e.target.value });
  const submit = dialog.submit(async () => {
    if (kind === 'individual') {
      unwrap(
        await api.PATCH('/v1/individuals/{id}', {
          params: { path: { id } },
          body: {
            first_name: f.first_name,
            last_name: f.last_name,
            email: f.email?.trim() || null,
            birth_date: f.birth_date || null,
            ...(f.country ? { address: { country: f.country.toUpperCase() } } : {}),
          },
        }),
      );
    } else {
      unwrap(
        await api.PATCH('/v1/companies/{id}', {
          params: { path: { id } },
          body: {
            name: f.name,
            registration_number: f.registration_number?.trim() || null,
            country: f.country ? f.country.toUpperCase() : null,
          },
        }),
      );
    }
  }, props.onChanged);
  return (
    <ActFormDialog
      openLabel={t('entity.edit')}
      title={t('entity.edit')}
      dialog={dialog}
      onSubmit={submit}
      fields={ENTITY_FIELDS}
    >
      {kind === 'individual' ? (
        <IndividualFields f={f} set={set} required={false} />
      ) : (
        <CompanyFields f={f} set={set} required={false} />
      )}
      <CountryField f={f} set={set} />
    </ActFormDialog>
  );
}

export function RelationEditor(props: { caseId: string; onChanged: () => void }) {
  const t = useActT();
  const dialog = useActFormDialog();
  const { companies, people } = useCaseCompanies(props.caseId, dialog.open);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [role, setRole] = useState<Role>('shareholder');
  const [ownership, setOwnership] = useState('');
  const fromOptions = [
    ...people.map((p) => ({ id: `individual:${p.id}`, name: p.name })),
    ...companies.map((c) => ({ id: `company:${c.id}`, name: c.name })),
  ];
  const submit = dialog.submit(async () => {
    const [kind, id] = (from || fromOptions[0]?.id || ':').split(':');
    unwrap(
      await api.POST('/v1/cases/{caseId}/relations', {
        params: { path: { caseId: props.caseId } },
        body: {
          ...(kind === 'company' ? { from_company_id: id } : { from_individual_id: id }),
          to_company_id: to || companies[0]?.id,
          roles: [role],
          ...(role === 'shareholder' && ownership ? { ownership_percentage: Number(ownership) } : {}),
        },
      }),
    );
  }, props.onChanged);
  return (
    <ActFormDialog
      openLabel={t('relation.button')}
      title={t('relation.title')}
      dialog={dialog}
      onSubmit={submit}
    >
      <EntitySelect
        label={t('relation.from')}
        value={from || fromOptions[0]?.id || ''}
        options={fromOptions}
        onChange={setFrom}
      />
      <RoleSelect value={role} onChange={setRole} />
      <EntitySelect
        label={t('relation.to')}
        value={to || companies[0]?.id || ''}
        options={companies}
        onChange={setTo}
      />
      <OwnershipField role={role} value={ownership} onChange={setOwnership} />
    </ActFormDialog>
  );
}
