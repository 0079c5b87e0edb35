/**
 * General workspace settings (GET/PATCH /v1/workspace/settings): case reviews (comment mandatory,
 * the next review per risk level), risk engines, the monthly check and company-profile limits, AML
 * screening defaults, company monitoring and the shared fraud list. Saving sends only what changed
 * (the server merges it deeply).
 */
import { type FormEvent, useEffect, useState } from 'react';
import { api } from '../../api/client.ts';
import { useCheckTypeLabel } from '../act-i18n.ts';
import { type Body, ErrorNote, type Json, LoadFailed, Loading, ok, useAction, useLoad } from './common.tsx';
import { type SettingsKey, useIsAdmin, useSettingsT } from './i18n.ts';
import { useConsoleValidity } from './validity.ts';

type Settings = Json<'/v1/workspace/settings'>;
type Patch = Body<'/v1/workspace/settings', 'patch'>;

const RISK_LEVELS = ['not_defined', 'low', 'medium', 'high', 'critical', 'prohibited'] as const;
const AML_LISTS = ['sanction', 'warning', 'fitness_probity', 'pep', 'adverse_media'] as const;
/** What the service uses while the workspace sets nothing (src/checks/types/aml: AML_DEFAULTS). */
const AML_DEFAULTS = {
  fuzziness: 0.5,
  exact_match: false,
  list_types: ['sanction', 'warning', 'fitness_probity', 'pep'],
};
/**
 * Check types whose results may be decided automatically, with the service's defaults while the
 * workspace sets nothing (each type's DEFAULTS under src/checks/types).
 */
const AUTO_TYPES = {
  ekyc: { approval: true, rejection: true },
  id_document: { approval: true, rejection: true },
  id_verification: { approval: true, rejection: true },
  document: { approval: true, rejection: false },
  fraud_database: { approval: true, rejection: false },
} as const;
type AutoType = keyof typeof AUTO_TYPES;
const AUTO_TYPE_NAMES = Object.keys(AUTO_TYPES) as AutoType[];

interface Form {
  commentMandatory: boolean;
  frequency: Record<(typeof RISK_LEVELS)[number], string>;
  onlineEngines: boolean;
  checkLimit: string;
  fetchLimit: string;
  amlFuzziness: string;
  amlExact: boolean;
  amlLists: string[];
  amlMonitoring: boolean;
  companyMonitoring: boolean;
  fraudShare: boolean;
  auto: Record<AutoType, { approval: boolean; rejection: boolean }>;
}

function toForm(s: Settings): Form {
  const f = s.case_review.frequency_in_months;
  return {
    commentMandatory: s.case_review.comment_mandatory,
    frequency: Object.fromEntries(
      RISK_LEVELS.map((l) => [l, f[l] == null ? '' : String(f[l])]),
    ) as Form['frequency'],
    onlineEngines: s.risk.online_engines,
    checkLimit: s.checks.limit == null ? '' : String(s.checks.limit),
    fetchLimit: s.company_data.fetch_limit == null ? '' : String(s.company_data.fetch_limit),
    amlFuzziness: String(s.checks.aml?.fuzziness ?? AML_DEFAULTS.fuzziness),
    amlExact: s.checks.aml?.exact_match ?? AML_DEFAULTS.exact_match,
    amlLists: [...(s.checks.aml?.list_types ?? AML_DEFAULTS.list_types)],
    amlMonitoring: s.checks.aml?.monitoring ?? false,
    companyMonitoring: s.checks.company_monitoring?.enabled ?? false,
    fraudShare: s.fraud_database.share,
    auto: Object.fromEntries(
      AUTO_TYPE_NAMES.map((ty) => [
        ty,
        {
          approval: s.checks[ty]?.automatic_approval ?? AUTO_TYPES[ty].approval,
          rejection: s.checks[ty]?.automatic_rejection ?? AUTO_TYPES[ty].rejection,
        },
      ]),
    ) as Form['auto'],
  };
}

const intOrNull = (v: string) => (v.trim() === '' ? null : Number(v));

/** The PATCH body: only the fields that differ from what was loaded. */
function diff(before: Form, after: Form): Patch {
  const body: Patch = {};
  const freq: Record<string, number | null> = {};
  for (const l of RISK_LEVELS)
    if (before.frequency[l] !== after.frequency[l]) freq[l] = intOrNull(after.frequency[l]);
  if (before.commentMandatory !== after.commentMandatory || Object.keys(freq).length)
    body.case_review = {
      ...(before.commentMandatory !== after.commentMandatory
        ? { comment_mandatory: after.commentMandatory }
        : {}),
      ...(Object.keys(freq).length ? { frequency_in_months: freq } : {}),
    };
  if (before.onlineEngines !== after.onlineEngines) body.risk = { online_engines: after.onlineEngines };
  const checks: NonNullable<Patch['checks']> = {};
  if (before.checkLimit !== after.checkLimit) checks.limit = intOrNull(after.checkLimit);
  const aml: NonNullable<typeof checks.aml> = {};
  if (before.amlFuzziness !== after.amlFuzziness && after.amlFuzziness.trim() !== '')
    aml.fuzziness = Number(after.amlFuzziness);
  if (before.amlExact !== after.amlExact) aml.exact_match = after.amlExact;
  if (before.amlLists.join() !== after.amlLists.join())
    aml.list_types = after.amlLists as NonNullable<typeof aml.list_types>;
  if (before.amlMonitoring !== after.amlMonitoring) aml.monitoring = after.amlMonitoring;
  if (Object.keys(aml).length) checks.aml = aml;
  for (const ty of AUTO_TYPE_NAMES) {
    const b = before.auto[ty];
    const a = after.auto[ty];
    if (b.approval !== a.approval || b.rejection !== a.rejection)
      checks[ty] = {
        ...(b.approval !== a.approval ? { automatic_approval: a.approval } : {}),
        ...(b.rejection !== a.rejection ? { automatic_rejection: a.rejection } : {}),
      };
  }
  if (before.companyMonitoring !== after.companyMonitoring)
    checks.company_monitoring = { enabled: after.companyMonitoring };
  if (Object.keys(checks).length) body.checks = checks;
  if (before.fetchLimit !== after.fetchLimit)
    body.company_data = { fetch_limit: intOrNull(after.fetchLimit) };
  if (before.fraudShare !== after.fraudShare) body.fraud_database = { share: after.fraudShare };
  return body;
}

export function GeneralSettingsPage() {
  const t = useSettingsT();
  const validity = useConsoleValidity();
  // the types by their names (eKYC, ID verification...), as everywhere else in the console
  const typeLabel = useCheckTypeLabel();
  const isAdmin = useIsAdmin();
  const loaded = useLoad(async () => ok(await api.GET('/v1/workspace/settings')), []);
  const [form, setForm] = useState<Form | null>(null);
  const [saved, setSaved] = useState(false);
  const act = useAction();
  useEffect(() => {
    if (loaded.data) setForm(toForm(loaded.data));
  }, [loaded.data]);

  if (loaded.error) return <LoadFailed error={loaded.error} t={t} />;
  if (!loaded.data || !form) return <Loading />;
  const base = toForm(loaded.data);
  const body = diff(base, form);
  const changed = Object.keys(body ?? {}).length > 0;
  const set = (patch: Partial<Form>) => {
    setSaved(false);
    setForm({ ...form, ...patch });
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (
      await act.run(async () => {
        ok(await api.PATCH('/v1/workspace/settings', { body }));
      })
    ) {
      setSaved(true);
      loaded.reload();
    }
  };

  return (
    <form className="settings-form" onSubmit={submit} aria-labelledby="settings-general-title">
      <h2 id="settings-general-title">{t('settings.section.general')}</h2>
      <fieldset disabled={!isAdmin}>
        <legend>{t('general.caseReview')}</legend>
        <label className="check">
          <input
            type="checkbox"
            checked={form.commentMandatory}
            onChange={(e) => set({ commentMandatory: e.target.checked })}
          />
          {t('general.commentMandatory')}
        </label>
        <p className="settings-hint">{t('general.frequencyHint')}</p>
        <div className="settings-grid">
          {RISK_LEVELS.map((l) => (
            <label key={l}>
              {t(`general.risk.${l}` as SettingsKey)}
              <input
                type="number"
                min={1}
                max={120}
                inputMode="numeric"
                name={`frequency_in_months.${l}`}
                value={form.frequency[l]}
                placeholder={t('general.never')}
                onChange={(e) => set({ frequency: { ...form.frequency, [l]: e.target.value } })}
              />
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset disabled={!isAdmin}>
        <legend>{t('general.risk')}</legend>
        <label className="check">
          <input
            type="checkbox"
            checked={form.onlineEngines}
            onChange={(e) => set({ onlineEngines: e.target.checked })}
          />
          {t('general.onlineEngines')}
        </label>
      </fieldset>
      <fieldset disabled={!isAdmin}>
        <legend>{t('general.limits')}</legend>
        <div className="settings-grid">
          <label>
            {t('general.checkLimit')}
            <input
              type="number"
              min={0}
              name="checks.limit"
              value={form.checkLimit}
              placeholder={t('general.noLimit')}
              onChange={(e) => set({ checkLimit: e.target.value })}
            />
          </label>
          <label>
            {t('general.fetchLimit')}
            <input
              type="number"
              min={0}
              name="company_data.fetch_limit"
              value={form.fetchLimit}
              placeholder={t('general.noLimit')}
              onChange={(e) => set({ fetchLimit: e.target.value })}
            />
          </label>
        </div>
      </fieldset>
      <fieldset disabled={!isAdmin}>
        <legend>{t('general.aml')}</legend>
        <div className="settings-grid">
          <label>
            {t('general.fuzziness')}
            <input
              type="number"
              min={0}
              max={1}
              step={0.05}
              {...validity}
              name="checks.aml.fuzziness"
              value={form.amlFuzziness}
              onChange={(e) => set({ amlFuzziness: e.target.value })}
            />
          </label>
        </div>
        <label className="check">
          <input
            type="checkbox"
            checked={form.amlExact}
            onChange={(e) => set({ amlExact: e.target.checked })}
          />
          {t('general.exactMatch')}
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={form.amlMonitoring}
            onChange={(e) => set({ amlMonitoring: e.target.checked })}
          />
          {t('general.amlMonitoring')}
        </label>
        <fieldset className="inline">
          <legend>{t('general.listTypes')}</legend>
          {AML_LISTS.map((l) => (
            <label key={l} className="check">
              <input
                type="checkbox"
                checked={form.amlLists.includes(l)}
                onChange={(e) =>
                  set({
                    amlLists: e.target.checked
                      ? AML_LISTS.filter((x) => x === l || form.amlLists.includes(x))
                      : form.amlLists.filter((x) => x !== l),
                  })
                }
              />
              {t(`general.list.${l}` as SettingsKey)}
            </label>
          ))}
        </fieldset>
      </fieldset>
      <fieldset disabled={!isAdmin}>
        <legend>{t('general.automatic')}</legend>
        <p className="settings-hint">{t('general.automaticHint')}</p>
        <table className="settings-table compact">
          <thead>
            <tr>
              <th scope="col">{t('general.checkType')}</th>
              <th scope="col">{t('general.autoApprove')}</th>
              <th scope="col">{t('general.autoReject')}</th>
            </tr>
          </thead>
          <tbody>
            {AUTO_TYPE_NAMES.map((ty) => (
              <tr key={ty}>
                <th scope="row">{typeLabel(ty)}</th>
                {(['approval', 'rejection'] as const).map((k) => (
                  <td key={k}>
                    <input
                      type="checkbox"
                      aria-label={t(k === 'approval' ? 'general.autoApproveOf' : 'general.autoRejectOf', {
                        type: typeLabel(ty),
                      })}
                      checked={form.auto[ty][k]}
                      onChange={(e) =>
                        set({ auto: { ...form.auto, [ty]: { ...form.auto[ty], [k]: e.target.checked } } })
                      }
                    />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </fieldset>
      <fieldset disabled={!isAdmin}>
        <legend>{t('general.companies')}</legend>
        <label className="check">
          <input
            type="checkbox"
            checked={form.companyMonitoring}
            onChange={(e) => set({ companyMonitoring: e.target.checked })}
          />
          {t('general.companyMonitoring')}
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={form.fraudShare}
            onChange={(e) => set({ fraudShare: e.target.checked })}
          />
          {t('general.fraudShare')}
        </label>
      </fieldset>
      <ErrorNote message={act.error} />
      {isAdmin ? (
        <div className="settings-actions">
          <button type="button" disabled={!changed || act.busy} onClick={() => setForm(base)}>
            {t('settings.reset')}
          </button>
          <button type="submit" className="primary" disabled={!changed || act.busy}>
            {t('settings.save')}
          </button>
          {saved && !changed ? (
            <span role="status" className="settings-ok">
              {t('settings.saved')}
            </span>
          ) : null}
        </div>
      ) : (
        <p className="settings-muted">{t('settings.readOnly')}</p>
      )}
    </form>
  );
}
