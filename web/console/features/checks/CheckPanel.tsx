/**
 * One check in full: its status and result per type (AML hits side by side with the screened person,
 * to confirm or ignore; eKYC decision and fraud signals; ID document verdicts), everything else in
 * its data, and the review (approve / reject, or override a decided one) with a comment.
 */
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { ApiProblem, CHANGED_MEANWHILE, type Versioned, versionedCall } from '../../api/client.ts';
import { useFormatDate, useLang } from '../../shell/i18n.tsx';
import { useCanWrite } from '../../shell/session.tsx';
import { ActFailed } from '../ActFailed.tsx';
import { hasActKey, useAction, useActT, useAutomaticComment } from '../act-i18n.ts';
import { formatPercent, withDecimalSeparator } from '../case/graph-layout.ts';
import { formatDate as formatDay } from '../case/i18n.ts';
import { countryName } from '../display-names.ts';
import { useFieldLabel } from '../field-label.ts';
import { ekycReading } from './ekyc-reading.ts';
import { useSubtypeLabel } from './subtype-labels.ts';
import { waitingReason } from './waiting-reason.ts';

type Envelope = { id: string; type: string; status: string };
type Json = Record<string, unknown>;

/** The check's own endpoint (the type's path), read with its data and its version (ETag). */
function readCheck(type: string, id: string): Promise<Versioned<Json>> {
  return versionedCall<Json>('GET', `/v1/checks/${encodeURIComponent(type)}/${encodeURIComponent(id)}`);
}

/**
 * A decision (a hit confirmed or ignored, the check approved or rejected) sent with the version of
 * the check the panel shows (If-Match); false when someone changed the check meanwhile: nothing was
 * written, and the panel shows the check as it now is. Another tab's confirmed hit was silently
 * replaced by a stale tab's "Ignore" before (console walk).
 */
type Decide = (path: string, body: Json) => Promise<boolean>;

/**
 * Checks a decision was refused for because they had changed, with the version read then: the
 * panel says so while it shows that version, however often it is drawn again (a reload of the case
 * draws the panel anew).
 */
const changedMeanwhile = new Map<string, string | null>();

/** A review's author in words: the user by name (their e-mail without one), else vericase or the API. */
function reviewerWord(review: Json | null | undefined, t: ReturnType<typeof useActT>): string {
  const user = review?.user as { email?: string; first_name?: string; last_name?: string } | null | undefined;
  const name = user ? [user.first_name, user.last_name].filter(Boolean).join(' ') || user.email : undefined;
  const key = `check.reviewer.${review?.reviewer_type}`;
  return name ?? (hasActKey(key) ? t(key) : String(review?.reviewer_type));
}

/** Fields whose values are codes with a label of their own: the dictionary's prefix for them. */
const VALUE_LABELS: Record<string, string> = {
  status: 'check.statusValue',
  result: 'check.resultValue',
  match_status: 'check.matchStatus',
  decision: 'check.decisionValue',
  kind: 'check.kind',
  gender: 'check.gender',
  list_types: 'check.listType',
  source: 'check.listSource',
  line_type: 'check.lineType',
};

/** A plain date (a birth date, a listing date) and an instant, as the API writes them. */
const COUNTRY_FIELDS = new Set([
  'countries',
  'nationalities',
  'country',
  'nationality',
  'issuing_country',
  'birth_country',
]);
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

export function Value({ field, v }: { field: string; v: unknown }) {
  const t = useActT();
  // re-rendered on a language switch (the day's formatter reads the page's language)
  const { lang } = useLang();
  const formatDate = useFormatDate();
  const word = (x: unknown): string => {
    if (typeof x === 'boolean') return t(x ? 'check.yes' : 'check.no');
    // a listed identifier: its type and number (Passport 1084010), as the list writes them
    if (field === 'identifiers' && typeof x === 'object' && x !== null)
      return [(x as Json).type, (x as Json).value].filter(Boolean).join(' ');
    if (typeof x === 'object' && x !== null) return JSON.stringify(x);
    // dates as the rest of the console writes them (the entity's birth date beside a hit's read
    // 28 Jul 1963 against 1963-07-28); a partial date (1963, 1963-07) stays as the list gives it
    if (typeof x === 'string' && DAY.test(x) && !Number.isNaN(Date.parse(`${x}T00:00:00Z`)))
      return formatDay(x);
    if (typeof x === 'string' && INSTANT.test(x) && !Number.isNaN(Date.parse(x))) return formatDate(x);
    // a listed person's nationalities and countries come as ISO codes (FR, IR): named
    if (typeof x === 'string' && COUNTRY_FIELDS.has(field)) return countryName(x, lang);
    const prefix = VALUE_LABELS[field];
    const k = `${prefix}.${String(x)}`;
    return prefix && hasActKey(k) ? t(k) : String(x);
  };
  if (v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0))
    return <span className="muted">—</span>;
  if (Array.isArray(v)) return <>{v.map(word).join(', ')}</>;
  return <>{word(v)}</>;
}

/** A flat view of an object's plain fields (or of `keys`, in that order), labelled in the console's language. */
function Facts({ data, keys }: { data: Json | null | undefined; keys?: string[] }) {
  const label = useFieldLabel();
  if (!data) return null;
  const entries: [string, unknown][] = keys
    ? keys.filter((k) => k in data).map((k) => [k, data[k]])
    : Object.entries(data).filter(([, v]) => typeof v !== 'object' || v === null);
  return (
    <dl className="facts">
      {entries.map(([k, v]) => (
        <div key={k}>
          <dt>{label(k)}</dt>
          <dd>
            <Value field={k} v={v} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** What is shown of the screened subject and of a listed entity, in this order. */
const SUBJECT_FIELDS = ['name', 'kind', 'birth_date', 'gender', 'nationalities', 'countries'];

/**
 * A person is screened with their nationalities (their address is not a screening criterion), a
 * company with its country: named so. "Countries —" beside a person living in Belize read as if
 * their country had been left out.
 */
function screenedSubject(subject: Json | null | undefined): Json | null {
  if (!subject) return null;
  // a company has no birth date or gender: not shown as missing
  if (subject.kind !== 'person') {
    const { birth_date: _b, gender: _g, ...company } = subject;
    return company;
  }
  const { countries, ...rest } = subject;
  return { ...rest, nationalities: countries };
}
const LISTED_FIELDS = [
  'source',
  'id',
  'kind',
  'name',
  'aliases',
  'birth_dates',
  'gender',
  'nationalities',
  'countries',
  'programs',
  'identifiers',
  'listed_on',
  'remarks',
];

/** A listed organisation has no birth dates, gender or nationalities: not shown as empty rows. */
function listedFields(entity: Json | undefined): string[] {
  if (entity?.kind === 'person') return LISTED_FIELDS;
  return LISTED_FIELDS.filter((f) => f !== 'birth_dates' && f !== 'gender' && f !== 'nationalities');
}

/**
 * An aml check whose screening never ran (no list loaded: result `error`, no list version), before
 * and after a person decided it: "No hit." said of it read as a clean screening.
 */
function notScreened(check: Json): boolean {
  if (check.type !== 'aml') return false;
  const data = check.data as {
    result?: unknown;
    vendor?: { screened_at?: unknown; list_versions?: unknown[] };
  };
  return (
    data.result === 'error' ||
    (data.vendor?.screened_at != null && (data.vendor.list_versions ?? []).length === 0)
  );
}

/** What monitoring did to a hit (found it, saw its listing change, no longer finds it), or null. */
function monitoringOf(h: Json): { status: 'new' | 'updated' | 'removed'; at: unknown } | null {
  const vendor = h.vendor as Json | undefined;
  const status = vendor?.updated_by_monitoring_status;
  return status === 'new' || status === 'updated' || status === 'removed'
    ? { status, at: vendor?.updated_by_monitoring_at }
    : null;
}

/** Reasons typed for hits and not sent yet, by hit id (kept for the page's life). */
const draftReasons: Record<string, string> = {};

/** A hit no longer on the lists: the API refuses to review it again. */
const removedHit = (h: Json) => monitoringOf(h)?.status === 'removed';

/** A qualifier's effect on the score, signed (−0.10), or the console's word for none. */
function effectWord(effect: unknown, t: ReturnType<typeof useActT>, lang: string): string {
  const n = Number(effect);
  if (!n) return t('check.why.noEffect');
  return withDecimalSeparator(`${n > 0 ? '+' : '−'}${Math.abs(n).toFixed(2)}`, lang);
}

/**
 * Why a hit matched, in the console's words: the name's score and its token pairs, the words left
 * unmatched on either side, and each detail that agreed or lowered the score (it showed the
 * engine's one-line summary, `name 1.00: ayman, alzawahiri; birth_date ok`).
 */
function HitExplanation({ explanation }: { explanation: Json | undefined }) {
  const t = useActT();
  const { lang } = useLang();
  const label = useFieldLabel();
  if (!explanation) return null;
  const pairs = (explanation.matched_tokens as { query: string; listed: string; similarity: number }[]) ?? [];
  const unmatchedQuery = (explanation.unmatched_query_tokens as string[]) ?? [];
  const unmatchedListed = (explanation.unmatched_listed_tokens as string[]) ?? [];
  const qualifiers = (explanation.qualifiers as { field: string; effect: number; detail: string }[]) ?? [];
  const score = (n: unknown) => withDecimalSeparator(Number(n).toFixed(2), lang);
  return (
    <details className="small hit-why" data-testid="hit-why">
      <summary>{t('check.why')}</summary>
      <ul>
        {pairs.length ? (
          <li>
            {t('check.why.name', { score: score(explanation.name_score) })}{' '}
            {pairs
              .map((p) =>
                p.query === p.listed ? p.query : `${p.query} ≈ ${p.listed} (${score(p.similarity)})`,
              )
              .join(', ')}
          </li>
        ) : null}
        {unmatchedQuery.length ? (
          <li>{t('check.why.queryUnmatched', { words: unmatchedQuery.join(' ') })}</li>
        ) : null}
        {unmatchedListed.length ? (
          <li>{t('check.why.listedUnmatched', { words: unmatchedListed.join(' ') })}</li>
        ) : null}
        {qualifiers.map((q) => (
          <li key={`${q.field}:${q.detail}`}>
            {label(q.field === 'country' ? 'countries' : q.field)}: {effectWord(q.effect, t, lang)}{' '}
            <span className="muted">({q.detail})</span>
          </li>
        ))}
      </ul>
    </details>
  );
}

/** What monitoring did to a hit, dated; nothing for a hit of the first screening. */
function HitMonitoring({ hit }: { hit: Json }) {
  const t = useActT();
  const formatDate = useFormatDate();
  const m = monitoringOf(hit);
  if (!m) return null;
  return (
    <p className={`small ${m.status === 'removed' ? 'muted' : 'notice-warn'}`} data-testid="hit-monitoring">
      {t(`check.hitMonitoring.${m.status}`, { when: formatDate(String(m.at ?? '')) })}
    </p>
  );
}

function AmlHits({ check, decide }: { check: Json; decide: Decide }) {
  const t = useActT();
  const { lang } = useLang();
  const formatDate = useFormatDate();
  const canWrite = useCanWrite();
  // a decided check's hits are not reviewed any more (the server refuses it): an override changes it
  const decided = check.status === 'approved' || check.status === 'rejected';
  const data = check.data as { hits?: Json[]; subject?: Json | null };
  const hits = data.hits ?? [];
  const { busy, error, run } = useAction();
  // why a hit is a true match or not them, kept on the hit (`review.comment`; the API takes it)
  // typed reasons outlive the panel: deciding one hit reloads the check, and the panel is drawn
  // again (keyed by its update), which wiped the reason typed for another hit
  const [reasons, setReasonsState] = useState<Record<string, string>>(() => ({ ...draftReasons }));
  const setReasons = (update: (r: Record<string, string>) => Record<string, string>) =>
    setReasonsState((r) => {
      const next = update(r);
      for (const [id, text] of Object.entries(next)) {
        if (text) draftReasons[id] = text;
        else delete draftReasons[id];
      }
      return next;
    });
  const review = (hitId: string, action: 'confirm' | 'ignore') =>
    run(async () => {
      const comment = reasons[hitId]?.trim();
      const recorded = await decide(`/v1/checks/aml/${encodeURIComponent(String(check.id))}/hits/review`, {
        action,
        hit_ids: [hitId],
        ...(comment ? { comment } : {}),
      });
      // refused because the check changed: the reason stays, for a decision on what is shown now
      if (recorded) setReasons((r) => ({ ...r, [hitId]: '' }));
    });
  const hitStatus = (status: unknown) => {
    const k = `check.matchStatus.${String(status)}`;
    return hasActKey(k) ? t(k) : String(status);
  };
  if (!hits.length)
    return <p className="muted">{t(notScreened(check) ? 'check.notScreened' : 'check.noHits')}</p>;
  return (
    <section aria-label={t('check.hits', { count: hits.length })}>
      <h4>{t('check.hits', { count: hits.length })}</h4>
      {canWrite && decided ? (
        <p className="small muted" id={`decided-${check.id}`}>
          {t('check.hitsDecided')}
        </p>
      ) : null}

      <ActFailed error={error} />
      {hits.map((h) => (
        <div key={h.id as string} className="hit">
          <div className="hit-side">
            <h5>{t('check.subject')}</h5>
            <Facts data={screenedSubject(data.subject)} keys={SUBJECT_FIELDS} />
          </div>
          <div className="hit-side">
            <h5>
              {t('check.listed', { name: String(h.name) })}{' '}
              <span className="muted small">
                {t('check.score', { score: withDecimalSeparator(Number(h.score).toFixed(2), lang) })}
              </span>
            </h5>
            {/* the alias or spelling the screening matched, when it is not the listed name */}
            {typeof h.matched_name === 'string' &&
            h.matched_name.toLowerCase() !== String(h.name).toLowerCase() ? (
              <p className="small" data-testid="hit-matched-name">
                {t('check.matchedName', { name: h.matched_name })}
              </p>
            ) : null}
            <Facts
              data={{ ...(h.entity as Json), list_types: h.list_types }}
              keys={[...listedFields(h.entity as Json | undefined), 'list_types']}
            />
            <HitExplanation explanation={h.explanation as Json | undefined} />
          </div>
          {/* the hit's decision spans both sides: its status, then its two actions at the right */}
          <div className="hit-footer">
            <HitMonitoring hit={h} />
            <p className="small">{t('check.hitStatus', { status: hitStatus(h.status) })}</p>
            {/* who decided the hit and when: a hit confirmed in another tab says by whom */}
            {h.status !== 'potential_match' && typeof (h.review as Json | null)?.reviewed_at === 'string' ? (
              <p className="small muted" data-testid="hit-reviewed">
                {t('check.reviewed', {
                  who: reviewerWord(h.review as Json, t),
                  when: formatDate(String((h.review as Json).reviewed_at)),
                })}
              </p>
            ) : null}
            {typeof (h.review as Json | null)?.comment === 'string' && (h.review as Json).comment ? (
              <p className="small">
                <q>{String((h.review as Json).comment)}</q>
              </p>
            ) : null}
            {canWrite && !decided && !removedHit(h) ? (
              <input
                className="hit-reason"
                aria-label={t('check.hitReason', { name: String(h.name) })}
                placeholder={t('check.hitReasonPlaceholder')}
                maxLength={10_000}
                value={reasons[h.id as string] ?? ''}
                onChange={(e) => setReasons((r) => ({ ...r, [h.id as string]: e.target.value }))}
              />
            ) : null}
            {canWrite && !removedHit(h) ? (
              <div className="act-buttons">
                <button
                  type="button"
                  disabled={busy || decided}
                  aria-describedby={decided ? `decided-${check.id}` : undefined}
                  onClick={() => void review(h.id as string, 'confirm')}
                >
                  {t('check.confirm')}
                </button>
                <button
                  type="button"
                  disabled={busy || decided}
                  aria-describedby={decided ? `decided-${check.id}` : undefined}
                  onClick={() => void review(h.id as string, 'ignore')}
                >
                  {t('check.ignore')}
                </button>
              </div>
            ) : null}
          </div>
        </div>
      ))}
    </section>
  );
}

function TypeResult({ check, entityName, decide }: { check: Json; entityName: string; decide: Decide }) {
  const data = (check.data ?? {}) as Json;
  switch (check.type) {
    case 'aml':
      return <AmlHits check={check} decide={decide} />;
    case 'electronic_signature':
      return <SignatureRequest check={check} signer={entityName} />;
    case 'ekyc':
      return <EkycResult data={data} />;
    case 'online_reputation':
      return <ReputationReport data={data} />;
    case 'company_monitoring':
      return (
        <RegistryChanges
          changes={data.changes as Json | null | undefined}
          pending={check.status === 'need_review'}
        />
      );
    default: {
      // the result is already shown beside the status, above
      const { result: _shown, ...rest } = data;
      return <Facts data={rest} />;
    }
  }
}

/**
 * An eKYC check: the provider's decision (match, inconclusive, inconsistent) with its score, the
 * country and profile it was run on, its reading in words, and the fraud signals of the person's
 * e-mail and phone. Only the vendor block was shown: the decision, the one thing a reviewer needs,
 * was not.
 */
function EkycResult({ data }: { data: Json }) {
  const t = useActT();
  const vendor = (data.vendor ?? {}) as Json;
  const interpretation = (data.ai as Json | undefined)?.interpretation;
  // vericase's own sentence (built from these fields) in the console's language; any other as written
  const readingShown = (stored: string) => {
    const known = ekycReading(stored, data.decision, vendor.country, vendor.score);
    return known ? t(known.key, known.vars) : stored;
  };
  const signals = data.fraud_signals as Json | null | undefined;
  const part = (key: string) => (signals?.[key] ?? null) as Json | null;
  // a score out of 100 with its band in words (a trust of 10 is low; its fraud score, 90, very high)
  // The band says what it measures: a high trust is good and a high fraud score bad, and side by
  // side "50/100 (high)" twice read as the same verdict (console walk)
  const scored = (o: Json | null, scoreKey: string, bandKey: string, of: 'trust' | 'risk'): string | null => {
    if (!o || typeof o[scoreKey] !== 'number') return null;
    const k = `check.band.${String(o[bandKey])}`;
    const band = typeof o[bandKey] === 'string' ? (hasActKey(k) ? t(k) : String(o[bandKey])) : '';
    return band ? `${o[scoreKey]}/100 (${t(`check.bandOf.${of}`, { band })})` : `${o[scoreKey]}/100`;
  };
  const email = part('email_validation');
  const mobile = part('mobile_validation');
  const rules = ((part('trust')?.triggered_rules ?? []) as { code: string; description: string }[]).filter(
    (r) => r && typeof r.description === 'string',
  );
  return (
    <div data-testid="ekyc-result">
      <Facts
        data={{
          decision: data.decision,
          score: typeof vendor.score === 'number' ? `${vendor.score}/100` : null,
          country: vendor.country,
          profile_name: vendor.profile_name,
        }}
        keys={['decision', 'score', 'country', 'profile_name']}
      />
      {typeof interpretation === 'string' && interpretation ? (
        <p className="muted" data-testid="ekyc-reading">
          {readingShown(interpretation)}
        </p>
      ) : null}
      <h4>{t('check.fraudSignals')}</h4>
      {signals ? (
        <>
          <Facts
            data={{
              trust: scored(part('trust'), 'score', 'band', 'trust'),
              fraud_score: scored(part('fraud_score'), 'score', 'band', 'risk'),
              email_risk: scored(part('email_verification'), 'risk_score', 'risk_level', 'risk'),
              email_valid: email?.address_valid ?? null,
              phone_valid: mobile?.number_valid ?? null,
              line_type: mobile?.line_type ?? null,
            }}
            keys={['trust', 'fraud_score', 'email_risk', 'email_valid', 'phone_valid', 'line_type']}
          />
          {rules.length ? (
            <ul className="ekyc-rules">
              {rules.map((r) => (
                <li key={r.code}>{r.description}</li>
              ))}
            </ul>
          ) : null}
        </>
      ) : (
        <p className="muted">{t('check.noFraudSignals')}</p>
      )}
    </div>
  );
}

/** The language the online reputation provider writes its report in (src/checks/types/online_reputation/sandbox-provider.ts). */
const PROVIDER_LANG = 'en';

/**
 * An online reputation check: the analysis' summary, its full report and its sources, linked. All
 * of it sits in `data.information`, which the generic view leaves out (objects): a reviewer asked
 * to decide on a high risk saw nothing of why but in the raw data.
 */
function ReputationReport({ data }: { data: Json }) {
  const t = useActT();
  const { lang } = useLang();
  const info = (data.information ?? {}) as Json;
  const summary = typeof info.summary === 'string' ? info.summary : null;
  const report = typeof info.report === 'string' ? info.report : null;
  const sources = (Array.isArray(info.sources) ? info.sources : []).filter(
    (s): s is { title: string; url: string } =>
      !!s && typeof (s as Json).url === 'string' && /^https?:\/\//i.test((s as Json).url as string),
  );
  if (!summary && !report && !sources.length) return <p className="muted">{t('check.reputationPending')}</p>;
  return (
    <div data-testid="reputation-report">
      {/* the provider's prose is kept as it wrote it (English: the one provider is the sandbox's),
          marked so (lang, for screen readers and translation tools) and, in a console in another
          language, said so once */}
      {lang !== PROVIDER_LANG ? (
        <p className="muted small" data-testid="provider-text-note">
          {t('check.providerText')}
        </p>
      ) : null}
      {summary ? <p lang={PROVIDER_LANG}>{summary}</p> : null}
      {report && report !== summary ? (
        <details>
          <summary>{t('check.reputationReport')}</summary>
          <p className="reputation-report" lang={PROVIDER_LANG}>
            {report}
          </p>
        </details>
      ) : null}
      {sources.length ? (
        <>
          <h4>{t('check.reputationSources', { count: sources.length })}</h4>
          <ul>
            {sources.map((s) => (
              <li key={s.url}>
                <a
                  href={s.url}
                  target="_blank"
                  rel="noopener noreferrer nofollow"
                  lang={s.title ? PROVIDER_LANG : undefined}
                >
                  {s.title || s.url}
                </a>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}

/** data.vendor.status of a signature whose signer has not signed or declined yet. */
const UNSIGNED = new Set(['pending', 'ongoing']);

function signatureVendor(check: Json): Json | undefined {
  return check.type === 'electronic_signature'
    ? ((check.data as { vendor?: Json } | undefined)?.vendor ?? undefined)
    : undefined;
}

/**
 * An electronic signature: who is to sign what, and where their request is (not started, started,
 * signed, declined, ended by a review), with when it started, ended and when its link expires.
 * Its data are objects only, which the generic view leaves out: it showed nothing but the status.
 */
function SignatureRequest({ check, signer }: { check: Json; signer: string }) {
  const t = useActT();
  const formatDate = useFormatDate();
  const subtypeLabel = useSubtypeLabel();
  const vendor = signatureVendor(check) ?? {};
  const settings = ((check.data as { settings?: Json } | undefined)?.settings ?? {}) as Json;
  const templateKey =
    typeof settings.document_template_key === 'string' ? settings.document_template_key : '';
  const document =
    subtypeLabel(
      (check.subtype as string | null | undefined) ??
        (templateKey ? `document_template:${templateKey}` : null),
    ) ?? templateKey;
  const when = (v: unknown) => (typeof v === 'string' && v ? formatDate(v) : null);
  const statusKey = `signature.status.${String(vendor.status)}`;
  const rows: [string, string | null][] = [
    [t('signature.signer'), signer],
    [t('signature.document'), document || null],
    [t('signature.request'), hasActKey(statusKey) ? t(statusKey) : String(vendor.status ?? '')],
    [t('signature.startedAt'), when(vendor.started_at)],
    [t('signature.endedAt'), when(vendor.ended_at)],
    [
      t('signature.linkExpires'),
      UNSIGNED.has(String(vendor.status)) ? when(vendor.signature_link_expiration_date) : null,
    ],
  ];
  return (
    <dl className="facts" data-testid="signature-request">
      {rows
        .filter(([, v]) => v)
        .map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
    </dl>
  );
}

type Party = { key: string; name: string };
type Changed = Party & { old: Json; new: Json };

/**
 * What a company_monitoring check found in the registry since the state last reviewed: the fields'
 * old and new values, the officers and owners added, gone or changed. Approving acknowledges them.
 */
function RegistryChanges({ changes, pending }: { changes: Json | null | undefined; pending: boolean }) {
  const t = useActT();
  const { lang } = useLang();
  const label = useFieldLabel();
  const formatDate = useFormatDate();
  if (!changes) return <p className="small muted">{t('monitoring.none')}</p>;
  const show = (v: unknown): string => {
    if (v === null || v === undefined || v === '') return '—';
    if (Array.isArray(v)) return v.join(', ');
    if (typeof v === 'object')
      return Object.values(v as Json)
        .filter((x) => x !== null && x !== '')
        .join(', ');
    return String(v);
  };
  const pct = (v: unknown) => (typeof v === 'number' ? formatPercent(v, lang) : '—');
  const officers = (changes.officers ?? {}) as { added?: Party[]; removed?: Party[]; changed?: Changed[] };
  const owners = (changes.owners ?? {}) as { added?: Party[]; removed?: Party[]; changed?: Changed[] };
  const ownerChange = (c: Changed) => {
    const parts: string[] = [];
    if (show(c.old.roles) !== show(c.new.roles))
      parts.push(t('monitoring.roles', { old: show(c.old.roles), new: show(c.new.roles) }));
    if (c.old.ownership_percentage !== c.new.ownership_percentage)
      parts.push(
        t('monitoring.ownership', {
          old: pct(c.old.ownership_percentage),
          new: pct(c.new.ownership_percentage),
        }),
      );
    if (
      'voting_rights_percentage' in c.old &&
      c.old.voting_rights_percentage !== c.new.voting_rights_percentage
    )
      parts.push(
        t('monitoring.votes', {
          old: pct(c.old.voting_rights_percentage),
          new: pct(c.new.voting_rights_percentage),
        }),
      );
    return t('monitoring.ownerChanged', { name: c.name, what: parts.join(', ') });
  };
  const lines: string[] = [
    ...((changes.fields ?? []) as { field: string; old: unknown; new: unknown }[]).map((f) =>
      t('monitoring.field', { field: label(f.field), old: show(f.old), new: show(f.new) }),
    ),
    ...(officers.added ?? []).map((o) => t('monitoring.officerAdded', { name: o.name })),
    ...(officers.removed ?? []).map((o) => t('monitoring.officerRemoved', { name: o.name })),
    ...(officers.changed ?? []).map((c) =>
      t('monitoring.officerChanged', { name: c.name, old: show(c.old.position), new: show(c.new.position) }),
    ),
    ...(owners.added ?? []).map((o) => t('monitoring.ownerAdded', { name: o.name })),
    ...(owners.removed ?? []).map((o) => t('monitoring.ownerRemoved', { name: o.name })),
    ...(owners.changed ?? []).map(ownerChange),
  ];
  return (
    <div className="registry-changes">
      <p className="small">
        <strong>{t('monitoring.title', { when: formatDate(String(changes.detected_at)) })}</strong>
      </p>
      <ul>
        {lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      {pending ? <p className="small muted">{t('monitoring.ack')}</p> : null}
    </div>
  );
}

/** Review comments typed and not sent yet, by check id: a panel drawn again (its check changed) keeps them. */
const draftComments: Record<string, string> = {};

function ReviewForm({ check, decide }: { check: Json; decide: Decide }) {
  const t = useActT();
  const id = String(check.id);
  const [comment, setCommentState] = useState(() => draftComments[id] ?? '');
  const setComment = (text: string) => {
    if (text) draftComments[id] = text;
    else delete draftComments[id];
    setCommentState(text);
  };
  const [override, setOverride] = useState(false);
  const { busy, error, run } = useAction();
  const decided = check.status === 'approved' || check.status === 'rejected';
  // an AML check is decided once its hits are: the server refuses a review before, in an API
  // developer's words; the buttons wait and say why instead
  const hitsFirst =
    check.type === 'aml' &&
    !decided &&
    ((check.data as { hits?: Json[] } | undefined)?.hits ?? []).some((h) => h.status === 'potential_match');
  // a signature not signed yet may be decided (the API allows it: a contract signed on paper), but
  // deciding it ends the signer's request: said before the buttons, not found out after
  const unsigned = !decided && UNSIGNED.has(String(signatureVendor(check)?.status));
  // an online reputation analysis or an AML screening still running: the server refuses a decision
  // before it ends (it would stand on nothing, and the result would be dropped)
  const running =
    check.status === 'processing' &&
    (check.type === 'online_reputation' ||
      (check.type === 'aml' && !(check.data as { vendor?: Json } | undefined)?.vendor?.screened_at));
  const waitFirst = hitsFirst || running;
  const describedBy = running
    ? `running-${check.id}`
    : hitsFirst
      ? `hits-first-${check.id}`
      : unsigned
        ? `unsigned-${check.id}`
        : undefined;
  // hits confirmed as the listed person or company: approving is allowed (a licence, a false
  // alarm the list keeps), but said before the click, as the case review says it of rejected checks
  const confirmedHits =
    check.type === 'aml'
      ? ((check.data as { hits?: Json[] } | undefined)?.hits ?? []).filter(
          (h) => h.status === 'true_positive',
        ).length
      : 0;
  // nothing was screened (no list loaded): approving is allowed (a person may have screened by
  // hand), but said before the click
  const unscreened = !decided && notScreened(check);
  const approveDescribedBy = confirmedHits
    ? `confirmed-hits-${check.id}`
    : unscreened
      ? `not-screened-${check.id}`
      : describedBy;
  const submitWith = (action: 'approve' | 'reject') => (e?: FormEvent) => {
    e?.preventDefault();
    void run(async () => {
      const done = await decide(`/v1/checks/${check.type}/${check.id}/review`, {
        action,
        comment: comment || null,
        ...(decided ? { override: true } : {}),
      });
      if (done) setComment('');
    });
  };
  if (decided && !override) {
    return (
      <label className="inline">
        <input type="checkbox" checked={override} onChange={(e) => setOverride(e.target.checked)} />{' '}
        {t('check.override')}
      </label>
    );
  }
  return (
    <form className="act-form review" onSubmit={submitWith('approve')} aria-label={t('check.review')}>
      <label>
        {t('check.comment')}
        <textarea value={comment} onChange={(e) => setComment(e.target.value)} rows={2} />
      </label>
      <ActFailed error={error} />
      {running ? (
        <p className="small muted" id={`running-${check.id}`} data-testid="check-running">
          {t('check.analysisFirst')}
        </p>
      ) : null}
      {hitsFirst ? (
        <p className="small muted" id={`hits-first-${check.id}`} data-testid="check-hits-first">
          {t('check.hitsFirst')}
        </p>
      ) : null}
      {unsigned ? (
        <p className="small notice-warn" id={`unsigned-${check.id}`} data-testid="check-unsigned">
          {t('signature.reviewEndsRequest')}
        </p>
      ) : null}
      {unscreened ? (
        <p className="small notice-warn" id={`not-screened-${check.id}`} data-testid="check-not-screened">
          {t('check.approveNotScreened')}
        </p>
      ) : null}
      {confirmedHits ? (
        <p className="small notice-warn" id={`confirmed-hits-${check.id}`} data-testid="check-confirmed-hits">
          {t('check.confirmedHits', { n: confirmedHits })}
        </p>
      ) : null}
      {/* the console's row of actions (DialogActions): at the right, the primary action last */}
      <div className="case-form-actions">
        {decided ? (
          // the override was asked for by a tick that is gone now: a way back without a reload
          <button type="button" className="case-button" onClick={() => setOverride(false)}>
            {t('act.cancel')}
          </button>
        ) : null}
        <button
          type="button"
          className="case-button danger"
          disabled={busy || waitFirst}
          aria-describedby={describedBy}
          onClick={() => submitWith('reject')()}
        >
          {t('check.reject')}
        </button>
        <button
          type="submit"
          className="case-button is-primary"
          disabled={busy || waitFirst}
          aria-describedby={approveDescribedBy}
        >
          {t('check.approve')}
        </button>
      </div>
    </form>
  );
}

/** A signature check the signer declined (its review comment is their reason). */
/**
 * When the signer declined and why: kept in `vendor` (a check declined before 2026-12-07 has them
 * only as its system review, which an operator's override replaced).
 */
function signerDecline(check: Json): { at: string | null; reason: string | null } {
  const data = check.data as {
    vendor?: { ended_at?: string | null; decline_reason?: string | null };
    review?: { reviewed_at?: string | null; comment?: string | null; reviewer_type?: string | null };
  };
  const system = data.review?.reviewer_type === 'system';
  return {
    at: data.vendor?.ended_at ?? (system ? (data.review?.reviewed_at ?? null) : null),
    reason: data.vendor?.decline_reason ?? (system ? (data.review?.comment ?? null) : null),
  };
}

function declinedBySigner(check: Json): boolean {
  const vendor = (check.data as { vendor?: { status?: unknown } } | undefined)?.vendor;
  return check.type === 'electronic_signature' && vendor?.status === 'declined';
}

/** An aml check still to decide whose hits are all confirmed or ignored. */
function hitsAllDecided(check: Json): boolean {
  if (check.type !== 'aml' || check.status !== 'need_review') return false;
  const hits = (check.data as { hits?: Json[] } | undefined)?.hits ?? [];
  return hits.length > 0 && hits.every((h) => h.status !== 'potential_match');
}

/** What the review form's state depends on: the check's status and its hits' decisions. */
function reviewFormKey(check: Json): string {
  const hits = (check.data as { hits?: Json[] } | undefined)?.hits ?? [];
  return [check.status, ...hits.map((h) => `${h.id}:${h.status}`)].join('|');
}

/** The check types whose files the Documents tab shows. */
const WITH_DOCUMENTS = new Set(['document', 'id_document', 'id_verification', 'electronic_signature']);

/**
 * Whether the check has files for the Documents tab to open on: a signature has them once signed
 * (the document, the signed copy, the audit trail); one declined, cancelled or still waiting has none,
 * and its link led to an empty tab (walk 54).
 */
function hasDocuments(check: Json): boolean {
  if (!WITH_DOCUMENTS.has(String(check.type))) return false;
  if (check.type !== 'electronic_signature') return true;
  const info = (check.data as { information?: { signed_file_id?: unknown } } | undefined)?.information;
  return Boolean(info?.signed_file_id);
}

export function CheckPanel(props: {
  caseId: string;
  check: Envelope;
  entityName: string;
  onChanged: () => void;
  /** Opens the case's Documents tab on this check's files. */
  onShowDocuments?: (checkId: string) => void;
}) {
  const t = useActT();
  const shownComment = useAutomaticComment();
  const formatDate = useFormatDate();
  const canWrite = useCanWrite();
  // the check as read, with its version: every decision of the panel is sent on that version
  const [shown, setShown] = useState<Versioned<Json> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    readCheck(props.check.type, props.check.id).then(setShown, (e: Error) => setError(e.message));
  }, [props.check.type, props.check.id]);
  useEffect(load, [load]);
  const decide: Decide = async (path, body) => {
    const checkId = props.check.id;
    try {
      const next = await versionedCall<Json>(
        'PATCH',
        path,
        body,
        shown?.etag ? { 'If-Match': shown.etag } : {},
      );
      changedMeanwhile.delete(checkId);
      setShown(next);
      props.onChanged();
      return true;
    } catch (e) {
      if (!(e instanceof ApiProblem) || e.status !== CHANGED_MEANWHILE) throw e;
      // nothing was written: the check as it is now, drawn again, and said so before anyone decides
      const fresh = await readCheck(props.check.type, checkId);
      changedMeanwhile.set(checkId, fresh.etag);
      setShown(fresh);
      props.onChanged();
      return false;
    }
  };
  if (error) return <p className="error">{error}</p>;
  if (!shown) return <p className="muted">…</p>;
  const full = shown.body;
  const review = ((full.data as Json | undefined)?.review ?? null) as Json | null;
  const typeKey = `check.type.${props.check.type}`;
  const typeLabel = hasActKey(typeKey) ? t(typeKey) : props.check.type;
  // waiting for data: whose, where the type knows (the signer, the person); else the status's code,
  // which the facts below put in words
  const waitingKey = `check.statusValue.${full.status}.${props.check.type}`;
  const statusWord = hasActKey(waitingKey) ? t(waitingKey) : full.status;
  return (
    <section className="check-panel" aria-label={`${typeLabel} · ${props.entityName}`}>
      {changedMeanwhile.has(props.check.id) && changedMeanwhile.get(props.check.id) === shown.etag ? (
        <p className="notice-warn" role="alert" data-testid="check-changed-meanwhile">
          {t('check.changedMeanwhile')}
        </p>
      ) : null}
      <Facts
        data={{ status: statusWord, result: (full.data as Json | undefined)?.result }}
        keys={['status', 'result']}
      />
      {/* why a check waits for a person: the provider's or the rule's words, before any review */}
      {/* (not once every hit is decided: "found 1 hit to confirm or ignore" no longer holds, and
          the line below says what is left) */}
      {!review?.reviewed_at &&
      typeof review?.comment === 'string' &&
      review.comment &&
      !hitsAllDecided(full) ? (
        <p className="small" data-testid="check-waiting-reason">
          {(() => {
            const { reason, ruleOff } = waitingReason(String(review.comment), review.reviewer_type);
            return (
              <>
                {t('check.waitingReason')} <q>{shownComment(reason, review.reviewer_type)}</q>
                {ruleOff ? ` ${t('check.waitingRuleOff', { rule: ruleOff })}` : null}
              </>
            );
          })()}
        </p>
      ) : null}
      {/* the screening's words ("found 3 hits to confirm or ignore") stay as written once every hit
          is decided: what is left to do is said under them */}
      {hitsAllDecided(full) ? (
        <p className="small" data-testid="check-hits-done">
          {t('check.hitsDone')}
        </p>
      ) : null}
      {props.onShowDocuments && hasDocuments(full) ? (
        <p className="small">
          <button
            type="button"
            className="link"
            onClick={() => props.onShowDocuments?.(props.check.id)}
            data-testid="check-show-documents"
          >
            {t('check.showDocuments')}
          </button>
        </p>
      ) : null}
      <TypeResult check={full} entityName={props.entityName} decide={decide} />
      {declinedBySigner(full) ? (
        // the signer's refusal is recorded as a system review (the reference has no signer kind):
        // said as what it is, with their reason and its time, not as vericase's review; an
        // operator's later review of it is shown under it, as every review
        <p className="small" data-testid="check-declined">
          {t('check.declinedBySigner', { when: formatDate(signerDecline(full).at ?? '') })}
          {signerDecline(full).reason ? ` — ${signerDecline(full).reason}` : ''}
        </p>
      ) : null}
      {review?.reviewed_at &&
      declinedBySigner(full) &&
      review.reviewer_type === 'system' ? null : review?.reviewed_at ? (
        <p className="small muted">
          {t('check.reviewed', {
            // a person by name, as the case's review, notes and activity show them; without a user,
            // vericase (an automatic rule) or the API, in words rather than a code
            who: reviewerWord(review, t),
            when: formatDate(review.reviewed_at as string),
          })}
          {review.comment ? ` — ${shownComment(String(review.comment), review.reviewer_type)}` : ''}
        </p>
      ) : null}
      {/* keyed by the check's state: an error shown for an earlier state goes with it */}
      {canWrite ? <ReviewForm key={reviewFormKey(full)} check={full} decide={decide} /> : null}
      <details>
        <summary>{t('check.details')}</summary>
        <pre className="json">{JSON.stringify(full.data, null, 2)}</pre>
      </details>
    </section>
  );
}
