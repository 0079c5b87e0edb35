/**
 * `/console/cases/:id`: one case. The header (name, status, flags, the actions on the case), its
 * risk, tags and last review, then four tabs: the entities (the ownership graph and the selected
 * entity's data, relations and checks), the documents (a viewer beside the extracted data), the
 * notes and the activity timeline. Everything is read from and written to `/v1` with the session.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link } from 'wouter';
import { api, onNotFound } from '../../api/client.ts';
import { LaunchChecksButton } from '../checks/LaunchChecks.tsx';
import { AddEntityButton, RelationEditor } from '../entities/EntityEditor.tsx';
import { SharePortalLinkButton } from '../portal/SharePortalLink.tsx';
import { CaseReportButton } from '../reports/CaseReportButton.tsx';
import { ActivityTimeline } from './ActivityTimeline.tsx';
import { AssigneeSelect } from './AssigneeSelect.tsx';
import { CaseGraph } from './CaseGraph.tsx';
import { CaseReviewButton } from './CaseReview.tsx';
import { DocumentsTab } from './DocumentsTab.tsx';
import { EntityPanel } from './EntityPanel.tsx';
import { formatDate, formatDateTime, useCanWrite, useCaseT } from './i18n.ts';
import { NotesTab } from './NotesTab.tsx';
import { RiskBox } from './RiskBox.tsx';
import { TagsBox } from './TagsBox.tsx';
import { type CaseDetailed, caseEntities, individualName, userName } from './types.ts';
import './case.css';

type Tab = 'entities' | 'documents' | 'notes' | 'activity';
/** While a check is processing, the case is read again this often, this many times at most (3 min). */
const POLL_MS = 3000;
const MAX_POLLS = 60;
const TABS: Tab[] = ['entities', 'documents', 'notes', 'activity'];

export function CasePage({ id }: { id: string }) {
  const t = useCaseT();
  const canWrite = useCanWrite();
  const [kase, setKase] = useState<CaseDetailed | null>(null);
  // the version of the case shown (its ETag): the case review is sent on it
  const [caseTag, setCaseTag] = useState<string | null>(null);
  const [error, setError] = useState<{ status: number; message: string } | null>(null);
  // a link may open a tab, an entity or a check: ?tab=documents, ?entity=<id>, ?check=<id>
  const initial = useMemo(() => new URLSearchParams(window.location.search), []);
  const [tab, setTab] = useState<Tab>(() => {
    const asked = initial.get('tab') as Tab | null;
    return asked && TABS.includes(asked) ? asked : 'entities';
  });
  const [selected, setSelected] = useState<string | null>(initial.get('entity'));
  // a check whose files the Documents tab opens on (a check panel's "See its documents")
  const [docCheck, setDocCheck] = useState<string | null>(null);
  const showDocuments = useCallback((checkId: string) => {
    setDocCheck(checkId);
    setTab('documents');
  }, []);
  const askedCheck = initial.get('check');
  // the address follows the tab: a reload or a copied link opens the same tab again (console walk)
  useEffect(() => {
    const q = new URLSearchParams(window.location.search);
    if ((q.get('tab') ?? 'entities') === tab) return;
    if (tab === 'entities') q.delete('tab');
    else q.set('tab', tab);
    const qs = q.toString();
    window.history.replaceState(window.history.state, '', `${window.location.pathname}${qs ? `?${qs}` : ''}`);
  }, [tab]);
  // bumped on every change, so the tabs that load their own data reload
  const [version, setVersion] = useState(0);

  // entities marked not relevant are left out unless asked for (as the API does)
  const [notRelevant, setNotRelevant] = useState(false);
  const load = useCallback(async () => {
    const res = await api.GET('/v1/cases/{id}', {
      params: { path: { id }, query: notRelevant ? { include_not_relevant: true } : {} },
    });
    if (res.error || !res.data) {
      setError({ status: res.response.status, message: (res.error as { message?: string })?.message ?? '' });
      return;
    }
    setError(null);
    setKase(res.data);
    setCaseTag(res.response.headers.get('etag'));
  }, [id, notRelevant]);

  // another case: nothing of the previous one stays on the page while it loads
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the case's id changes
  useEffect(() => {
    setKase(null);
  }, [id]);
  useEffect(() => {
    void load();
  }, [load]);
  // an action refused as not found (a tag, a review, an entity: "Case not found") may mean the case
  // was deleted under the page (through the API, by someone else): read it again, and a case gone
  // shows the page's "does not exist" state, without the actions that can no longer work (reads are
  // left out: the case's own read answering 404 would call for itself again)
  useEffect(
    () =>
      onNotFound((method) => {
        if (method !== 'GET') void load();
      }),
    [load],
  );

  // ?check=<id>: select the entity that has it (once the case is here)
  useEffect(() => {
    if (!kase || !askedCheck) return;
    const owner = [...kase.companies, ...kase.individuals].find((e) =>
      e.checks.some((c) => c.id === askedCheck),
    );
    if (owner) setSelected(owner.id);
  }, [kase, askedCheck]);

  const changed = useCallback(() => {
    setVersion((v) => v + 1);
    void load();
  }, [load]);

  // a check being verified settles within seconds (a provider, an OCR) or when someone acts on it:
  // the page reads the case again every few seconds while one is, for a few minutes at most,
  // rather than showing it in progress until a reload (console walk)
  const processing = useMemo(
    () =>
      kase
        ? [...kase.companies, ...kase.individuals].some((e) =>
            e.checks.some((c) => c.status === 'processing'),
          )
        : false,
    [kase],
  );
  const [polls, setPolls] = useState(0);
  useEffect(() => {
    if (!processing) {
      setPolls(0);
      return;
    }
    if (polls >= MAX_POLLS) return;
    // the case only (its checks' envelopes): the tabs with their own data are not read again, and a
    // check panel open on a check that changed reads it again (keyed by its updated_at)
    const timer = setTimeout(() => {
      setPolls((p) => p + 1);
      void load();
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [processing, polls, load]);

  const entities = useMemo(() => (kase ? caseEntities(kase) : []), [kase]);
  // the main company is selected first
  const current =
    entities.find((e) => e.id === selected) ?? entities.find((e) => e.main) ?? entities[0] ?? null;

  useEffect(() => {
    if (kase) document.title = `${kase.name} · vericase`;
  }, [kase]);

  if (error) {
    return (
      <div className="case-page">
        <p role="alert" className="case-error">
          {error.status === 404 ? t('case.notFound') : t('case.loadFailed', { message: error.message })}
        </p>
        <Link href="/">{t('case.backToCases')}</Link>
      </div>
    );
  }
  if (!kase) {
    return (
      <div className="case-page" aria-busy="true">
        <p>{t('case.loading')}</p>
      </div>
    );
  }

  const lightEntities = entities.map((e) => ({
    id: e.id,
    kind: e.kind,
    name: e.name,
    checks: e.data.checks.map((c) => ({ type: c.type, status: c.status, created_at: c.created_at })),
    // what tells apart two entities of the same name in the list of those to check
    ...(e.kind === 'individual'
      ? {
          birthDate: e.data.birth_date,
          email: e.data.email,
          roles: e.data.roles,
          country: e.data.address?.country,
        }
      : { registrationNumber: e.data.registration_number, country: e.data.country }),
  }));
  const contacts = kase.individuals
    .filter((i) => i.is_business_contact)
    .map((i) => ({ id: i.id, name: individualName(i), email: i.email }));
  // of entities that count (those marked not relevant are left out of the case's decision too)
  const rejectedChecks = [...kase.companies, ...kase.individuals]
    .filter((e) => e.is_relevant !== false)
    .flatMap((e) => e.checks)
    .filter((c) => c.status === 'rejected').length;
  // checks with no decision yet: approving leaves them (and the case's "For review") as they are
  const undecidedChecks = [...kase.companies, ...kase.individuals]
    .filter((e) => e.is_relevant !== false)
    .flatMap((e) => e.checks)
    .filter((c) => ['need_review', 'in_progress', 'processing'].includes(c.status)).length;

  return (
    <div className="case-page" data-testid="case-page" data-ready="true">
      <header className="case-header">
        <div className="case-title">
          <Link href="/" className="case-back">
            {t('case.backToCases')}
          </Link>
          <h1>{kase.name}</h1>
          <div className="case-meta">
            <span className={`case-status is-${kase.status}`} data-testid="case-status">
              {t(`case.status.${kase.status}`)}
            </span>
            {kase.reviewer_has_actions ? (
              <span className="case-chip is-review">{t('case.reviewerHasActions')}</span>
            ) : null}
            {kase.contact_has_actions ? (
              <span className="case-chip">{t('case.contactHasActions')}</span>
            ) : null}
            {kase.flags.map((f) => (
              <span key={f} className="case-chip">
                {t(`case.flag.${f}`)}
              </span>
            ))}
          </div>
          <dl className="case-facts">
            {kase.external_id ? (
              <div>
                <dt>{t('case.externalId')}</dt>
                <dd>{kase.external_id}</dd>
              </div>
            ) : null}
            {kase.template ? (
              <div>
                <dt>{t('case.template')}</dt>
                <dd>{kase.template.name}</dd>
              </div>
            ) : null}
            <div>
              <dt>{t('case.assignee')}</dt>
              <dd>
                <AssigneeSelect
                  caseId={kase.id}
                  assignee={kase.assignee}
                  assigneeId={kase.assignee_id}
                  canWrite={canWrite}
                  onChanged={changed}
                />
              </dd>
            </div>
            <div>
              <dt>{t('case.created')}</dt>
              <dd>{formatDateTime(kase.created_at)}</dd>
            </div>
            <div>
              <dt>{t('case.lastActivity')}</dt>
              <dd>{formatDateTime(kase.last_activity_at)}</dd>
            </div>
            {kase.client_portal ? (
              <div>
                <dt>{t('case.clientPortal')}</dt>
                <dd>{kase.client_portal.name}</dd>
              </div>
            ) : null}
          </dl>
        </div>
        <div className="case-actions">
          {canWrite ? (
            <>
              <CaseReviewButton
                caseId={kase.id}
                status={kase.status}
                rejectedChecks={rejectedChecks}
                undecidedChecks={undecidedChecks}
                etag={caseTag}
                onReviewed={changed}
                onChangedMeanwhile={changed}
              />
              <LaunchChecksButton caseId={kase.id} entities={lightEntities} onLaunched={changed} />
              <AddEntityButton caseId={kase.id} onChanged={changed} />
              <RelationEditor caseId={kase.id} onChanged={changed} />
              <SharePortalLinkButton caseId={kase.id} contacts={contacts} onShared={changed} />
              {/* generating a report is a write; reports already made are in the documents tab */}
              <CaseReportButton
                caseId={kase.id}
                onReady={() => setVersion((v) => v + 1)}
                onOpen={() => {
                  setDocCheck(null);
                  setTab('documents');
                }}
              />
            </>
          ) : null}
        </div>
      </header>

      <section className="case-summary" aria-label={t('case.summary')}>
        <RiskBox caseId={kase.id} risk={kase.risk} canWrite={canWrite} onChanged={changed} />
        <TagsBox caseId={kase.id} tags={kase.tags} canWrite={canWrite} onChanged={changed} />
        <div className="case-box" data-testid="case-last-review">
          <h2>{t('case.review.last')}</h2>
          {kase.review ? (
            <>
              <p>
                <span className={`case-status is-${kase.review.status}`}>
                  {t(`case.status.${kase.review.status}`)}
                </span>{' '}
                {t('case.review.by', {
                  who: userName(kase.review.user) ?? t(`case.reviewer.${kase.review.reviewer_type}`),
                  when: formatDateTime(kase.review.reviewed_at),
                })}
              </p>
              {kase.review.comment ? <blockquote>{kase.review.comment}</blockquote> : null}
              {kase.review.next_review_at ? (
                <p className="case-muted">
                  {t('case.review.next', { date: formatDate(kase.review.next_review_at) })}
                </p>
              ) : null}
            </>
          ) : (
            <p className="case-muted">{t('case.review.none')}</p>
          )}
        </div>
      </section>

      <div className="case-tabs" role="tablist" aria-label={t('case.sections')}>
        {TABS.map((name, i) => (
          <button
            key={name}
            type="button"
            role="tab"
            id={`case-tab-${name}`}
            aria-selected={tab === name}
            aria-controls={`case-panel-${name}`}
            tabIndex={tab === name ? 0 : -1}
            onClick={() => setTab(name)}
            onKeyDown={(ev) => {
              const step = ev.key === 'ArrowRight' ? 1 : ev.key === 'ArrowLeft' ? -1 : 0;
              if (!step) return;
              const next = TABS[(i + step + TABS.length) % TABS.length];
              setTab(next);
              document.getElementById(`case-tab-${next}`)?.focus();
            }}
          >
            {t(`case.tab.${name}`)}
            {name === 'entities' ? <span className="case-count">{entities.length}</span> : null}
          </button>
        ))}
      </div>

      <section
        role="tabpanel"
        id={`case-panel-${tab}`}
        aria-labelledby={`case-tab-${tab}`}
        className="case-panel"
      >
        {tab === 'entities' ? (
          <>
            <label className="case-check-label case-graph-options">
              <input
                type="checkbox"
                checked={notRelevant}
                onChange={(e) => setNotRelevant(e.target.checked)}
              />
              {t('case.graph.notRelevant')}
            </label>
            <CaseGraph entities={entities} selectedId={current?.id ?? null} onSelect={setSelected} />
            {current ? (
              <EntityPanel
                key={current.id}
                openCheck={askedCheck}
                caseId={kase.id}
                entity={current}
                entities={entities}
                canWrite={canWrite}
                onSelect={setSelected}
                onChanged={changed}
                onShowDocuments={showDocuments}
              />
            ) : null}
          </>
        ) : null}
        {tab === 'documents' ? (
          <DocumentsTab
            caseId={kase.id}
            caseName={kase.name}
            entities={entities}
            version={version}
            checkId={docCheck}
          />
        ) : null}
        {tab === 'notes' ? (
          <NotesTab caseId={kase.id} canWrite={canWrite} version={version} onChanged={changed} />
        ) : null}
        {tab === 'activity' ? (
          <ActivityTimeline caseId={kase.id} entities={entities} version={version} />
        ) : null}
      </section>
    </div>
  );
}
