/**
 * Launching checks on the case: a template (its checks on the entities its targets select, as
 * POST /v1/templates/run does), or one check type on the entities chosen here.
 */
import { type FormEvent, useEffect, useState } from 'react';
import { ApiProblem, api, unwrap } from '../../api/client.ts';
import { useLang } from '../../shell/i18n.tsx';
import { ActFailed } from '../ActFailed.tsx';
import { hasActKey, useAction, useActT } from '../act-i18n.ts';
import { Dialog, DialogActions } from '../case/Dialog.tsx';
import { formatDate } from '../case/i18n.ts';
import { countryName } from '../display-names.ts';
import { usePathLabel } from '../field-label.ts';
import { knownRefusal } from '../known-refusals.ts';
import { distinguishingDetails } from './same-names.ts';

type Entity = {
  id: string;
  kind: 'company' | 'individual';
  name: string;
  /** What tells it apart from an entity of the same name (same-names.ts). */
  birthDate?: string | null;
  registrationNumber?: string | null;
  email?: string | null;
  roles?: string[];
  country?: string | null;
  /** Its checks' types and statuses: one of the chosen type already there is said beside it. */
  checks?: { type: string; status: string; created_at: string }[];
};
type Template = { id: string; key: string; name: string };

/** Check types launched from here with no more input than their target, and what they apply to. */
const TYPES = {
  aml: ['individual', 'company'],
  ekyc: ['individual'],
  online_reputation: ['company'],
  fraud_database: ['individual', 'company'],
  id_verification: ['individual'],
} as const;
type LaunchType = keyof typeof TYPES;

async function createCheck(type: LaunchType, e: Entity) {
  const body = e.kind === 'company' ? { company_id: e.id } : { individual_id: e.id };
  // one call per type keeps each body typed by its own schema
  switch (type) {
    case 'aml':
      return unwrap(await api.POST('/v1/checks/aml', { body }));
    case 'ekyc':
      return unwrap(await api.POST('/v1/checks/ekyc', { body: { individual_id: e.id } }));
    case 'online_reputation':
      return unwrap(await api.POST('/v1/checks/online_reputation', { body: { company_id: e.id } }));
    case 'fraud_database':
      return unwrap(await api.POST('/v1/checks/fraud_database', { body }));
    case 'id_verification':
      return unwrap(await api.POST('/v1/checks/id_verification', { body: { individual_id: e.id } }));
  }
}

/**
 * A refusal of one entity's check in the console's words where the server's is about the entity's
 * data: the fields it lacks (named by their labels, not as `address.country`), a country the check
 * does not cover (by its name, without the list of those it does), the refusals the console knows
 * (features/known-refusals.ts). Any other: the server's message.
 */
function useRefusalText() {
  const t = useActT();
  const { lang } = useLang();
  const pathLabel = usePathLabel();
  return (type: LaunchType, err: unknown): string => {
    if (err instanceof ApiProblem && err.status === 400) {
      const body = err.body as { message?: string; details?: { path?: string; message?: string }[] };
      const details = body?.details ?? [];
      const lacking = details.filter((d) => d.path && / has no /.test(d.message ?? ''));
      if (lacking.length && lacking.length === details.length) {
        return t('launch.missingData', {
          fields: lacking.map((d) => pathLabel(d.path as string)).join(', '),
        });
      }
      const uncovered = body?.message?.match(/ does not cover ([A-Z]{2})\b/);
      if (uncovered) {
        return t('launch.notCovered', {
          check: t(`check.type.${type}`),
          country: countryName(uncovered[1], lang),
        });
      }
    }
    const message = (err as Error).message;
    return knownRefusal(message, lang) ?? message;
  };
}

export function LaunchChecksButton(props: { caseId: string; entities: Entity[]; onLaunched: () => void }) {
  const t = useActT();
  const [open, setOpen] = useState(false);
  const [mode, setMode] = useState<'template' | 'single'>('template');
  const [templates, setTemplates] = useState<Template[] | null>(null);
  const [templateKey, setTemplateKey] = useState('');
  const [type, setType] = useState<LaunchType>('aml');
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [done, setDone] = useState<string | null>(null);
  // the entities whose check was refused, each with why (one line each)
  const [refusals, setRefusals] = useState<{ name: string; why: string }[]>([]);
  const refusalText = useRefusalText();
  const { busy, error, run } = useAction();

  useEffect(() => {
    if (!open || templates) return;
    api.GET('/v1/templates', { params: { query: { limit: 100 } as never } }).then((r) => {
      const list = (r.data?.data ?? []) as Template[];
      setTemplates(list);
      if (list[0]) setTemplateKey(list[0].key);
      if (!list.length) setMode('single');
    });
  }, [open, templates]);

  const eligible = props.entities.filter((e) => (TYPES[type] as readonly string[]).includes(e.kind));
  // two people of the same name (a mother and her daughter) each with what tells them apart
  const { lang } = useLang();
  const details = distinguishingDetails(
    eligible.map((e) => ({
      id: e.id,
      name: e.name,
      details: [
        e.birthDate ? t('launch.born', { date: formatDate(e.birthDate) }) : null,
        e.registrationNumber,
        e.email,
        e.roles?.length
          ? e.roles
              .map((r) => {
                const k = `role.${r}`;
                return hasActKey(k) ? t(k) : r;
              })
              .join(', ')
          : null,
        e.country ? countryName(e.country, lang) : null,
      ],
    })),
  );
  const named = (e: Entity) => {
    const detail = details.get(e.id);
    return detail ? `${e.name} (${detail})` : e.name;
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setDone(null);
    setRefusals([]);
    void run(async () => {
      if (mode === 'template') {
        const res = unwrap(
          await api.POST('/v1/templates/run', { body: { case_id: props.caseId, template_key: templateKey } }),
        );
        // the run names the entities it created checks on
        setDone(t('launch.done', { count: res.company_ids.length + res.individual_ids.length }));
      } else {
        const targets = eligible.filter((x) => chosen.has(x.id));
        if (!targets.length) throw new Error(t('launch.noTarget'));
        // One request per entity: a refusal (eKYC on a person without a country) must neither stop
        // the entities after it nor hide that those before it got their check, or the operator
        // launches again and creates duplicates. What was launched is unticked; what was refused
        // stays ticked, named with the server's reason, to fix and launch again.
        const refused: { name: string; why: string }[] = [];
        const left = new Set(chosen);
        for (const target of targets) {
          try {
            await createCheck(type, target);
            left.delete(target.id);
          } catch (err) {
            refused.push({ name: named(target), why: refusalText(type, err) });
          }
        }
        setChosen(left);
        setRefusals(refused);
        const launched = targets.length - refused.length;
        if (launched) {
          setDone(t('launch.done', { count: launched }));
          props.onLaunched();
        }
        return;
      }
      props.onLaunched();
    });
  };

  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        {t('launch.button')}
      </button>
      <Dialog title={t('launch.title')} open={open} onClose={() => setOpen(false)}>
        {/* any change of the choice (mode, template, type, entities) bubbles here: what was said of
            the last launch is not about the next one */}
        <form
          className="act-form"
          onSubmit={submit}
          onChange={() => {
            setDone(null);
            setRefusals([]);
          }}
        >
          <fieldset>
            <legend className="visually-hidden">{t('launch.title')}</legend>
            <label className="inline">
              <input
                type="radio"
                name="mode"
                checked={mode === 'template'}
                onChange={() => setMode('template')}
              />{' '}
              {t('launch.template')}
            </label>
            <label className="inline">
              <input
                type="radio"
                name="mode"
                checked={mode === 'single'}
                onChange={() => setMode('single')}
              />{' '}
              {t('launch.single')}
            </label>
          </fieldset>
          {mode === 'template' ? (
            templates && templates.length === 0 ? (
              <p className="muted">{t('launch.noTemplate')}</p>
            ) : (
              <label>
                {t('launch.pickTemplate')}
                <select value={templateKey} onChange={(e) => setTemplateKey(e.target.value)}>
                  {(templates ?? []).map((tpl) => (
                    <option key={tpl.id} value={tpl.key}>
                      {tpl.name}
                    </option>
                  ))}
                </select>
              </label>
            )
          ) : (
            <>
              <label>
                {t('launch.type')}
                <select value={type} onChange={(e) => setType(e.target.value as LaunchType)}>
                  {(Object.keys(TYPES) as LaunchType[]).map((k) => (
                    <option key={k} value={k}>
                      {t(`check.type.${k}`)}
                    </option>
                  ))}
                </select>
              </label>
              <fieldset>
                <legend>{t('launch.on')}</legend>
                {eligible.map((x) => (
                  <label key={x.id} className="inline block">
                    <input
                      type="checkbox"
                      checked={chosen.has(x.id)}
                      onChange={(e) => {
                        const next = new Set(chosen);
                        if (e.target.checked) next.add(x.id);
                        else next.delete(x.id);
                        setChosen(next);
                      }}
                    />{' '}
                    {x.name}
                    {details.has(x.id) ? <span className="muted small"> ({details.get(x.id)})</span> : null}
                    {(() => {
                      // launching again makes a second check: said before, not found after
                      const same = (x.checks ?? []).filter((c) => c.type === type);
                      if (!same.length) return null;
                      const latest = same.reduce((a, b) => (b.created_at > a.created_at ? b : a));
                      const k = `check.statusValue.${latest.status}`;
                      return (
                        <span className="muted small">
                          {' '}
                          {t('launch.already', {
                            count: same.length,
                            // mid-sentence: the status label's capital goes ("le dernier en cours")
                            status: (hasActKey(k) ? t(k) : latest.status).toLocaleLowerCase(),
                          })}
                        </span>
                      );
                    })()}
                  </label>
                ))}
              </fieldset>
            </>
          )}
          <ActFailed error={error} />
          {refusals.length ? (
            <div className="error" role="alert" data-testid="launch-refusals">
              <p>{t('launch.refused', { count: refusals.length })}</p>
              <ul>
                {refusals.map((r) => (
                  <li key={r.name}>{t('launch.refusedOn', { name: r.name, message: r.why })}</li>
                ))}
              </ul>
            </div>
          ) : null}
          {done ? <p role="status">{done}</p> : null}
          {/* the row every case dialog ends with (Close, then Launch, at the right) */}
          <DialogActions
            error={null}
            busy={busy}
            disabled={mode === 'template' && !templateKey}
            cancelLabel={t('act.close')}
            submitLabel={busy ? t('act.busy') : t('launch.run')}
            onCancel={() => setOpen(false)}
          />
        </form>
      </Dialog>
    </>
  );
}
