/**
 * The selected entity: its data, its relations both ways (each a link to the other entity), and its
 * checks; a check opens F3's CheckPanel (result detail and review actions) in place.
 */
import { useEffect, useState } from 'react';
import { useLang } from '../../shell/i18n.tsx';
import { CheckPanel } from '../checks/CheckPanel.tsx';
import { useSubtypeLabel } from '../checks/subtype-labels.ts';
import { countryName } from '../display-names.ts';
import { EditEntityButton } from '../entities/EntityEditor.tsx';
import { formatPercent } from './graph-layout.ts';
import { checkStatusKey, formatDate, formatDateTime, useCaseT } from './i18n.ts';
import { type CaseEntity, type CheckEnvelope, individualName } from './types.ts';

/**
 * The check types a client may be asked for in the portal (those with a portal step:
 * src/checks/types/{document,id_document,id_verification,electronic_signature}/portal.ts). Only one
 * of these marked internal (an internal document type's) is "not asked of the client": an eKYC,
 * an online reputation or a fraud list check never is, and saying so of each was noise.
 */
const ASKED_OF_CLIENTS = new Set(['document', 'id_document', 'id_verification', 'electronic_signature']);

type Field = [label: string, value: string | null | undefined];

function address(
  a: {
    street_address: string | null;
    street_address_2: string | null;
    postal_code: string | null;
    city: string | null;
    state: string | null;
    region: string | null;
    country: string | null;
  },
  lang: string,
): string | null {
  const line = [
    a.street_address,
    a.street_address_2,
    [a.postal_code, a.city].filter(Boolean).join(' '),
    a.state ?? a.region,
    a.country && countryName(a.country, lang),
  ]
    .filter(Boolean)
    .join(', ');
  return line || null;
}

/**
 * A share capital as the registry writes it (`35000 EUR`), as an amount in the page's language
 * (`35 000,00 €` in French); any other text as written.
 */
function shareCapital(value: string | null | undefined, lang: string): string | null | undefined {
  const m = value ? /^\s*(\d+(?:\.\d+)?)\s*([A-Z]{3})\s*$/.exec(value) : null;
  if (!m) return value;
  try {
    return new Intl.NumberFormat(lang, { style: 'currency', currency: m[2] }).format(Number(m[1]));
  } catch {
    return value;
  }
}

export function EntityPanel(props: {
  caseId: string;
  entity: CaseEntity;
  entities: CaseEntity[];
  canWrite: boolean;
  onSelect: (id: string) => void;
  onChanged: () => void;
  /** A check to show opened (a link with ?check=<id>). */
  openCheck?: string | null;
  /** Opens the Documents tab on a check's files. */
  onShowDocuments?: (checkId: string) => void;
}) {
  const t = useCaseT();
  const { entity } = props;
  const linked = entity.data.checks.some((c) => c.id === props.openCheck) ? (props.openCheck ?? null) : null;
  const [openCheck, setOpenCheck] = useState<string | null>(linked);
  // a link to a check (the review queue's) shows it: the page opened at its top, the check with its
  // Approve and Reject below the fold (console walk); its row gets the focus, for the keyboard too
  useEffect(() => {
    if (!linked) return;
    const row = document.querySelector<HTMLElement>(`[data-check-id="${CSS.escape(linked)}"]`);
    row?.scrollIntoView({ block: 'start' });
    row?.focus({ preventScroll: true });
  }, [linked]);
  const nameOf = (id: string) => props.entities.find((e) => e.id === id)?.name ?? id;
  const { lang } = useLang();
  const yes = (b: boolean) => (b ? t('case.yes') : null);

  const fields: Field[] =
    entity.kind === 'company'
      ? [
          [
            t('case.field.type'),
            entity.data.type === 'main' ? t('case.company.main') : t('case.company.affiliated'),
          ],
          [t('case.field.commercialName'), entity.data.commercial_name],
          [t('case.field.registrationNumber'), entity.data.registration_number],
          [
            t('case.field.registrationDate'),
            entity.data.registration_date ? formatDate(entity.data.registration_date) : null,
          ],
          [t('case.field.country'), entity.data.country ? countryName(entity.data.country, lang) : null],
          [t('case.field.legalForm'), entity.data.entity_legal_form_label ?? entity.data.legal_form],
          [t('case.field.status'), t(`case.companyStatus.${entity.data.status}`)],
          [t('case.field.address'), address(entity.data.address, lang)],
          [t('case.field.shareCapital'), shareCapital(entity.data.share_capital, lang)],
          [t('case.field.taxId'), entity.data.tax_identification_number],
          [t('case.field.website'), entity.data.website_url],
          [
            t('case.field.classifications'),
            entity.data.classifications
              ?.map((c) => `${c.type} ${c.code}${c.description ? ` (${c.description})` : ''}`)
              .join('; '),
          ],
          [t('case.field.iban'), entity.data.banking_information?.iban],
        ]
      : [
          [t('case.field.name'), individualName(entity.data)],
          [t('case.field.maidenName'), entity.data.maiden_name],
          [t('case.field.birthDate'), entity.data.birth_date ? formatDate(entity.data.birth_date) : null],
          [
            t('case.field.birthPlace'),
            [
              entity.data.birth_place,
              entity.data.birth_country && countryName(entity.data.birth_country, lang),
            ]
              .filter(Boolean)
              .join(', '),
          ],
          [
            t('case.field.nationalities'),
            entity.data.nationalities?.map((c) => countryName(c, lang)).join(', '),
          ],
          [t('case.field.gender'), entity.data.gender ? t(`case.gender.${entity.data.gender}`) : null],
          [t('case.field.email'), entity.data.email],
          [t('case.field.phone'), entity.data.phone_number],
          [t('case.field.address'), address(entity.data.address, lang)],
          [t('case.field.position'), entity.data.position],
          [t('case.field.roles'), entity.data.roles.map((r) => t(`case.role.${r}`)).join(', ')],
          [
            t('case.field.ownership'),
            entity.data.ownership_percentage !== null
              ? formatPercent(entity.data.ownership_percentage, lang)
              : null,
          ],
          [
            t('case.field.voting'),
            entity.data.voting_rights_percentage !== null
              ? formatPercent(entity.data.voting_rights_percentage, lang)
              : null,
          ],
          [t('case.field.beneficialOwner'), yes(entity.data.is_beneficial_owner)],
          [t('case.field.controllingPerson'), yes(entity.data.is_controlling_person)],
          [t('case.field.businessContact'), yes(entity.data.is_business_contact)],
          [t('case.field.signatory'), yes(entity.data.is_signatory)],
          [t('case.field.taxId'), entity.data.tax_identification_number],
          [t('case.field.iban'), entity.data.banking_information?.iban],
        ];

  const outgoing = entity.data.relations;
  const incoming = props.entities.flatMap((e) =>
    e.data.relations.filter((r) => r.to_company_id === entity.id).map((r) => ({ from: e, r })),
  );
  const relText = (r: (typeof outgoing)[number]) =>
    [
      r.ownership_percentage !== null
        ? t('case.rel.owns', { pct: formatPercent(r.ownership_percentage, lang) })
        : null,
      r.voting_rights_percentage !== null
        ? t('case.rel.votes', { pct: formatPercent(r.voting_rights_percentage, lang) })
        : null,
      ...r.roles
        .filter((x) => x !== 'shareholder' || r.ownership_percentage === null)
        .map((x) => t(`case.role.${x}`)),
      r.position,
    ]
      .filter(Boolean)
      .join(' · ');

  const checks = [...entity.data.checks].sort((a, b) => b.created_at.localeCompare(a.created_at));
  // a company's declared owners holding more than all of it: nothing forbids it (each share is
  // 0-100 on its own), but it is a data error a reviewer should see before relying on the graph
  const sum = (pick: (r: (typeof outgoing)[number]) => number | null) =>
    incoming.reduce((total, { r }) => total + (pick(r) ?? 0), 0);
  const owned = sum((r) => r.ownership_percentage);
  const voted = sum((r) => r.voting_rights_percentage);
  const overHeld = [
    owned > 100 ? t('case.entity.overOwned', { pct: formatPercent(owned, lang) }) : null,
    voted > 100 ? t('case.entity.overVoted', { pct: formatPercent(voted, lang) }) : null,
  ].filter((x): x is string => x !== null);

  return (
    <section className="case-entity" aria-labelledby="case-entity-title" data-testid="entity-panel">
      <header className="case-entity-head">
        <div>
          <p className="case-muted">
            {entity.kind === 'company' ? t('case.kind.company') : t('case.kind.individual')}
          </p>
          <h2 id="case-entity-title">{entity.name}</h2>
          {!entity.data.is_relevant ? <span className="case-chip">{t('case.notRelevant')}</span> : null}
        </div>
        {props.canWrite ? (
          <EditEntityButton
            caseId={props.caseId}
            entity={{ id: entity.id, kind: entity.kind }}
            onChanged={props.onChanged}
          />
        ) : null}
      </header>
      <div className="case-entity-body">
        <div>
          <h3>{t('case.entity.data')}</h3>
          <dl className="case-fields">
            {fields
              .filter(([, v]) => v !== null && v !== undefined && v !== '')
              .map(([label, value]) => (
                <div key={label}>
                  <dt>{label}</dt>
                  <dd>{value}</dd>
                </div>
              ))}
          </dl>
          <h3>{t('case.entity.relations')}</h3>
          {outgoing.length === 0 && incoming.length === 0 ? (
            <p className="case-muted">{t('case.entity.noRelations')}</p>
          ) : null}
          <ul className="case-relations">
            {outgoing.map((r) => (
              <li key={r.id}>
                {relText(r) || t('case.rel.related')} {t('case.rel.of')}{' '}
                <button type="button" className="case-link" onClick={() => props.onSelect(r.to_company_id)}>
                  {nameOf(r.to_company_id)}
                </button>
              </li>
            ))}
            {incoming.map(({ from, r }) => (
              <li key={r.id}>
                <button type="button" className="case-link" onClick={() => props.onSelect(from.id)}>
                  {from.name}
                </button>
                {lang === 'fr' ? '\u202f: ' : ': '}
                {relText(r) || t('case.rel.related')}
              </li>
            ))}
          </ul>
          {overHeld.map((text) => (
            <p key={text} className="case-warning" data-testid="entity-over-held">
              {text}
            </p>
          ))}
        </div>
        <div>
          <h3>
            {t('case.entity.checks')} <span className="case-count">{checks.length}</span>
          </h3>
          {checks.length === 0 ? <p className="case-muted">{t('case.entity.noChecks')}</p> : null}
          <ul className="case-checks" data-testid="entity-checks">
            {checks.map((c) => (
              <CheckRow
                key={c.id}
                check={c}
                open={openCheck === c.id}
                onToggle={() => setOpenCheck(openCheck === c.id ? null : c.id)}
                caseId={props.caseId}
                entityName={entity.name}
                onChanged={props.onChanged}
                onShowDocuments={props.onShowDocuments}
              />
            ))}
          </ul>
        </div>
      </div>
    </section>
  );
}

function CheckRow(props: {
  check: CheckEnvelope;
  open: boolean;
  onToggle: () => void;
  caseId: string;
  entityName: string;
  onChanged: () => void;
  onShowDocuments?: (checkId: string) => void;
}) {
  const t = useCaseT();
  const c = props.check;
  const subtypeLabel = useSubtypeLabel();
  const detail = subtypeLabel(
    c.subtype ?? (c.document_type_key ? `document_type:${c.document_type_key}` : null),
  );
  return (
    <li className={props.open ? 'is-open' : undefined}>
      <button
        type="button"
        className="case-check-row"
        aria-expanded={props.open}
        aria-controls={`check-${c.id}`}
        onClick={props.onToggle}
        data-check-id={c.id}
      >
        <span className="case-check-type">
          {t(`case.checkType.${c.type}`)}
          {detail ? <span className="case-muted"> · {detail}</span> : null}
          {c.is_internal && ASKED_OF_CLIENTS.has(c.type) ? (
            // the word alone said nothing to a new reviewer: its meaning on hover and to screen readers
            <span className="case-muted" title={t('case.check.internalHint')}>
              {' · '}
              {t('case.check.internal')}
              <span className="visually-hidden"> ({t('case.check.internalHint')})</span>
            </span>
          ) : null}
        </span>
        <span className={`case-status is-${c.status}`}>{t(checkStatusKey(c))}</span>
        <span className="case-muted case-check-date">{formatDateTime(c.updated_at)}</span>
      </button>
      {props.open ? (
        <div id={`check-${c.id}`} className="case-check-detail">
          <CheckPanel
            // a check that changed (a poll of the case, another person's review) is read again
            key={`${c.id}:${c.updated_at}`}
            caseId={props.caseId}
            check={c}
            entityName={props.entityName}
            onChanged={props.onChanged}
            onShowDocuments={props.onShowDocuments}
          />
        </div>
      ) : null}
    </li>
  );
}
