/**
 * Document types (/v1/document_types): what a `document` check asks for. The built-in types and the
 * workspace's own, archived ones on demand; admins create custom types and archive them (the server
 * refuses to archive a built-in type: none is offered for one).
 */

import { type FormEvent, useState } from 'react';
import { api } from '../../api/client.ts';
import { documentTypeLabel } from '../document-type-label.ts';
import { BUILT_IN_DOCUMENT_TYPE_KEYS } from '../document-type-names.ts';
import {
  ConfirmButton,
  Dialog,
  formatDateTime,
  type Json,
  LoadState,
  ok,
  Pager,
  useAction,
  useLoad,
  usePage,
} from './common.tsx';
import { FormActions } from './FormActions.tsx';
import { type SettingsT, useIsAdmin, useSettingsLang, useSettingsT } from './i18n.ts';
import { SettingsHead } from './SettingsHead.tsx';
import { SettingsTable } from './SettingsTable.tsx';

type DocumentType = Json<'/v1/document_types'>['data'][number];
type TargetEntity = DocumentType['target_entities'][number];

export function DocumentTypesPage() {
  const t = useSettingsT();
  const lang = useSettingsLang();
  const typeLabel = (label: string) => documentTypeLabel(label, lang);
  const isAdmin = useIsAdmin();
  const [archived, setArchived] = useState(false);
  const [page, setPage] = usePage(archived);
  const [creating, setCreating] = useState(false);
  const list = useLoad(
    async () =>
      ok(
        await api.GET('/v1/document_types', {
          params: { query: { page, limit: 50, include_archived: archived } },
        }),
      ),
    [page, archived],
  );

  return (
    <>
      <SettingsHead
        title={t('settings.section.document-types')}
        hint={t('docTypes.intro')}
        newLabel={t('docTypes.new')}
        onNew={isAdmin ? () => setCreating(true) : undefined}
      />
      <label className="check">
        <input type="checkbox" checked={archived} onChange={(e) => setArchived(e.target.checked)} />
        {t('docTypes.includeArchived')}
      </label>
      <LoadState load={list} t={t} />
      <SettingsTable
        rows={list.data?.data}
        columns={[
          t('docTypes.label'),
          t('docTypes.key'),
          t('docTypes.targets'),
          t('docTypes.internal'),
          t('docTypes.archivedAt'),
          isAdmin && t('settings.actions'),
        ]}
        row={(d) => (
          <tr key={d.id} className={d.archived_at ? 'archived' : undefined}>
            <td>{typeLabel(d.label)}</td>
            <td>
              <code>{d.key}</code>
            </td>
            <td>
              {d.target_entities
                .map((x) => t(x === 'company' ? 'docTypes.company' : 'docTypes.individual'))
                .join(', ')}
            </td>
            <td>{d.is_internal ? t('settings.yes') : t('settings.no')}</td>
            <td>{d.archived_at ? formatDateTime(d.archived_at, lang) : '—'}</td>
            {isAdmin ? (
              <td className="settings-row-actions">
                {d.archived_at ? null : BUILT_IN_DOCUMENT_TYPE_KEYS.has(d.key) ? (
                  // built in: never archived (every Archive there ended in the server's refusal)
                  <span className="settings-muted">{t('docTypes.builtIn')}</span>
                ) : (
                  <ConfirmButton
                    danger
                    label={t('docTypes.archive')}
                    title={t('docTypes.archiveTitle')}
                    question={t('docTypes.archiveQuestion', { label: typeLabel(d.label) })}
                    confirm={t('docTypes.archive')}
                    action={async () =>
                      ok(await api.DELETE('/v1/document_types/{id}', { params: { path: { id: d.id } } }))
                    }
                    onDone={list.reload}
                  />
                )}
              </td>
            ) : null}
          </tr>
        )}
      />
      <Pager pagination={list.data?.pagination} onPage={setPage} />
      <Dialog title={t('docTypes.new')} open={creating} onClose={() => setCreating(false)}>
        {creating ? (
          <DocumentTypeForm
            t={t}
            onCancel={() => setCreating(false)}
            onSaved={() => {
              setCreating(false);
              list.reload();
            }}
          />
        ) : null}
      </Dialog>
    </>
  );
}

function DocumentTypeForm(props: { t: SettingsT; onCancel: () => void; onSaved: () => void }) {
  const { t } = props;
  const [label, setLabel] = useState('');
  const [key, setKey] = useState('');
  const [targets, setTargets] = useState<TargetEntity[]>(['company']);
  const [internal, setInternal] = useState(false);
  const act = useAction();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const done = await act.run(async () =>
      ok(
        await api.POST('/v1/document_types', {
          body: { key, label, target_entities: targets, is_internal: internal },
        }),
      ),
    );
    if (done) props.onSaved();
  };
  const toggle = (x: TargetEntity, on: boolean) =>
    setTargets(
      (['company', 'individual'] as TargetEntity[]).filter((y) => (y === x ? on : targets.includes(y))),
    );
  return (
    <form className="settings-form" onSubmit={submit}>
      <label>
        {t('docTypes.label')}
        <input required maxLength={200} value={label} onChange={(e) => setLabel(e.target.value)} />
      </label>
      <label>
        {t('docTypes.key')}
        <input
          required
          maxLength={100}
          pattern="[a-z][a-z_0-9]*"
          value={key}
          aria-describedby="doc-type-key-hint"
          onChange={(e) => setKey(e.target.value)}
        />
      </label>
      <p id="doc-type-key-hint" className="settings-hint">
        {t('docTypes.keyHint')}
      </p>
      <fieldset className="inline">
        <legend>{t('docTypes.targets')}</legend>
        <label className="check">
          <input
            type="checkbox"
            checked={targets.includes('company')}
            onChange={(e) => toggle('company', e.target.checked)}
          />
          {t('docTypes.company')}
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={targets.includes('individual')}
            onChange={(e) => toggle('individual', e.target.checked)}
          />
          {t('docTypes.individual')}
        </label>
      </fieldset>
      <label className="check">
        <input type="checkbox" checked={internal} onChange={(e) => setInternal(e.target.checked)} />
        {t('docTypes.internalLong')}
      </label>
      <FormActions
        error={act.error}
        busy={act.busy}
        submitLabel={t('settings.create')}
        onCancel={props.onCancel}
      />
    </form>
  );
}
