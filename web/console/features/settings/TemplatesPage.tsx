/**
 * Case templates (/v1/templates): the list, and for admins create, edit and delete. A template names
 * the checks a case gets: per check its type, the entities it is created on and its create settings
 * (JSON, the check type's own fields).
 */
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client.ts';
import { useCheckTypeLabel } from '../act-i18n.ts';
import { ConfirmButton, Dialog, type Json, LoadState, ok, Pager, useAction, useLoad } from './common.tsx';
import { FormActions } from './FormActions.tsx';
import { type SettingsKey, type SettingsT, useIsAdmin, useSettingsT } from './i18n.ts';
import { SettingsHead } from './SettingsHead.tsx';
import { SettingsTable } from './SettingsTable.tsx';

type Template = Json<'/v1/templates'>['data'][number];
type Target = Template['checks'][number]['targets'][number];

const TARGETS: Target[] = [
  'main_company',
  'companies',
  'individuals',
  'beneficial_owners',
  'legal_representatives',
  'business_contacts',
  'signatories',
];
/** The check types a template may run (company_monitoring is started by the registry link, not by a template). */
export const TEMPLATE_CHECK_TYPES = [
  'aml',
  'ekyc',
  'id_document',
  'id_verification',
  'document',
  'online_reputation',
  'fraud_database',
  'electronic_signature',
] as const;

interface CheckRow {
  type: string;
  targets: Target[];
  settings: string;
}

export function TemplatesPage() {
  const t = useSettingsT();
  const typeLabel = useCheckTypeLabel();
  const isAdmin = useIsAdmin();
  const [page, setPage] = useState(1);
  const list = useLoad(
    async () => ok(await api.GET('/v1/templates', { params: { query: { page } } })),
    [page],
  );
  const [editing, setEditing] = useState<Template | 'new' | null>(null);

  return (
    <>
      <SettingsHead
        title={t('settings.section.templates')}
        hint={t('templates.intro')}
        newLabel={t('templates.new')}
        onNew={isAdmin ? () => setEditing('new') : undefined}
      />
      <LoadState load={list} t={t} />
      <SettingsTable
        rows={list.data?.data}
        none={t('templates.none')}
        columns={[
          t('templates.name'),
          t('templates.key'),
          t('templates.checks'),
          t('templates.autoApproval'),
          isAdmin && t('settings.actions'),
        ]}
        row={(tpl) => (
          <tr key={tpl.id}>
            <td>
              <strong>{tpl.name}</strong>
              {tpl.description ? <div className="settings-muted">{tpl.description}</div> : null}
            </td>
            <td>
              <code>{tpl.key}</code>
            </td>
            <td>
              <ul className="settings-plain">
                {tpl.checks.map((c, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a template's checks have no id
                  <li key={i}>
                    {typeLabel(c.type)} →{' '}
                    {c.targets.map((x) => t(`templates.target.${x}` as SettingsKey)).join(', ')}
                  </li>
                ))}
              </ul>
            </td>
            <td>{tpl.case_auto_approval ? t('settings.yes') : t('settings.no')}</td>
            {isAdmin ? (
              <td className="settings-row-actions">
                <button type="button" onClick={() => setEditing(tpl)}>
                  {t('settings.edit')}
                </button>
                <ConfirmButton
                  danger
                  label={t('settings.delete')}
                  title={t('templates.deleteTitle')}
                  question={t('templates.deleteQuestion', { name: tpl.name })}
                  confirm={t('settings.delete')}
                  action={async () =>
                    ok(await api.DELETE('/v1/templates/{id}', { params: { path: { id: tpl.id } } }))
                  }
                  onDone={list.reload}
                />
              </td>
            ) : null}
          </tr>
        )}
      />
      <Pager pagination={list.data?.pagination} onPage={setPage} />
      <Dialog
        title={editing === 'new' ? t('templates.new') : t('templates.edit')}
        open={editing !== null}
        onClose={() => setEditing(null)}
      >
        {editing !== null ? (
          <TemplateForm
            template={editing === 'new' ? null : editing}
            t={t}
            onCancel={() => setEditing(null)}
            onSaved={() => {
              setEditing(null);
              list.reload();
            }}
          />
        ) : null}
      </Dialog>
    </>
  );
}

function TemplateForm(props: {
  template: Template | null;
  t: SettingsT;
  onCancel: () => void;
  onSaved: () => void;
}) {
  const { t, template } = props;
  const typeLabel = useCheckTypeLabel();
  const [key, setKey] = useState(template?.key ?? '');
  const [name, setName] = useState(template?.name ?? '');
  const [description, setDescription] = useState(template?.description ?? '');
  const [autoApproval, setAutoApproval] = useState(template?.case_auto_approval ?? false);
  const [checks, setChecks] = useState<CheckRow[]>(
    template?.checks.map((c) => ({
      type: c.type,
      targets: [...c.targets],
      settings: Object.keys(c.settings).length ? JSON.stringify(c.settings, null, 2) : '',
    })) ?? [],
  );
  const act = useAction();
  const setCheck = (i: number, patch: Partial<CheckRow>) =>
    setChecks(checks.map((c, j) => (j === i ? { ...c, ...patch } : c)));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const done = await act.run(async () => {
      const body = {
        key,
        name,
        description: description.trim() === '' ? null : description,
        case_auto_approval: autoApproval,
        checks: checks.map((c, i) => {
          let settings: Record<string, unknown> | undefined;
          if (c.settings.trim() !== '') {
            try {
              settings = JSON.parse(c.settings);
            } catch {
              throw new Error(t('templates.badSettings', { n: i + 1 }));
            }
          }
          return { type: c.type, targets: c.targets, ...(settings ? { settings } : {}) };
        }),
      };
      if (template)
        ok(await api.PATCH('/v1/templates/{id}', { params: { path: { id: template.id } }, body }));
      else ok(await api.POST('/v1/templates', { body }));
    });
    if (done) props.onSaved();
  };

  return (
    <form className="settings-form" onSubmit={submit}>
      <div className="settings-grid">
        <label>
          {t('templates.name')}
          <input required maxLength={180} value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label>
          {t('templates.key')}
          {/* the browser said only "Please match the requested format.": the characters allowed are
              written under the fields, and a key that breaks them is told so in the console's words */}
          <input
            required
            maxLength={100}
            pattern="[A-Za-z0-9][A-Za-z0-9_.:\-]*"
            value={key}
            title={t('templates.keyHint')}
            aria-describedby="template-key-hint"
            onInvalid={(e) => {
              const el = e.currentTarget;
              el.setCustomValidity('');
              if (el.validity.patternMismatch) el.setCustomValidity(t('templates.keyHint'));
            }}
            onInput={(e) => e.currentTarget.setCustomValidity('')}
            onChange={(e) => setKey(e.target.value)}
          />
        </label>
      </div>
      <p id="template-key-hint" className="settings-hint">
        {t('templates.keyHint')}
      </p>
      <label>
        {t('templates.description')}
        <textarea
          rows={2}
          maxLength={5000}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
        />
      </label>
      <label className="check">
        <input type="checkbox" checked={autoApproval} onChange={(e) => setAutoApproval(e.target.checked)} />
        {t('templates.autoApprovalLong')}
      </label>
      <fieldset>
        <legend>{t('templates.checks')}</legend>
        {checks.length === 0 ? <p className="settings-muted">{t('templates.noChecks')}</p> : null}
        {checks.map((c, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place, by position
          <fieldset key={i} className="settings-check-row">
            <legend>{t('templates.checkN', { n: i + 1 })}</legend>
            <label>
              {t('templates.checkType')}
              <select value={c.type} onChange={(e) => setCheck(i, { type: e.target.value })}>
                {TEMPLATE_CHECK_TYPES.map((ty) => (
                  <option key={ty} value={ty}>
                    {typeLabel(ty)}
                  </option>
                ))}
              </select>
            </label>
            <fieldset className="inline">
              <legend>{t('templates.targets')}</legend>
              {TARGETS.map((x) => (
                <label key={x} className="check">
                  <input
                    type="checkbox"
                    checked={c.targets.includes(x)}
                    onChange={(e) =>
                      setCheck(i, {
                        targets: e.target.checked
                          ? TARGETS.filter((y) => y === x || c.targets.includes(y))
                          : c.targets.filter((y) => y !== x),
                      })
                    }
                  />
                  {t(`templates.target.${x}` as SettingsKey)}
                </label>
              ))}
            </fieldset>
            <label>
              {t('templates.checkSettings')}
              <textarea
                rows={2}
                className="mono"
                placeholder='{"document_type_key": "registration_certificate"}'
                value={c.settings}
                onChange={(e) => setCheck(i, { settings: e.target.value })}
              />
            </label>
            <button type="button" onClick={() => setChecks(checks.filter((_, j) => j !== i))}>
              {t('templates.removeCheck')}
            </button>
          </fieldset>
        ))}
        <button
          type="button"
          onClick={() => setChecks([...checks, { type: 'aml', targets: ['individuals'], settings: '' }])}
        >
          {t('templates.addCheck')}
        </button>
      </fieldset>
      <FormActions
        error={act.error}
        busy={act.busy}
        submitLabel={t('settings.save')}
        onCancel={props.onCancel}
      />
    </form>
  );
}
