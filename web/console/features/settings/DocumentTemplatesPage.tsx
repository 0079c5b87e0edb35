/**
 * Document templates (/v1/document-templates): the HTML documents an electronic signature check has
 * signed, or a case report. The list; a template's versions (drafts and published) with a version's
 * content; for admins creating a template, adding a version (starting from the latest one) and
 * publishing a draft.
 */
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client.ts';
import {
  Dialog,
  ErrorNote,
  formatDateTime,
  type Json,
  LoadFailed,
  Loading,
  LoadState,
  ok,
  Pager,
  useAction,
  useLoad,
} from './common.tsx';
import { FormActions } from './FormActions.tsx';
import { type SettingsT, useIsAdmin, useSettingsLang, useSettingsT } from './i18n.ts';
import { SettingsHead } from './SettingsHead.tsx';
import { SettingsTable } from './SettingsTable.tsx';

type Kind = Json<'/v1/document-templates'>['data'][number]['kind'];

export function DocumentTemplatesPage() {
  const t = useSettingsT();
  const lang = useSettingsLang();
  const isAdmin = useIsAdmin();
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const [selected, setSelected] = useState<string | null>(null);
  const list = useLoad(
    async () => ok(await api.GET('/v1/document-templates', { params: { query: { page } } })),
    [page],
  );
  return (
    <>
      <SettingsHead
        title={t('settings.section.document-templates')}
        hint={t('docTemplates.intro')}
        newLabel={t('docTemplates.new')}
        onNew={isAdmin ? () => setCreating(true) : undefined}
      />
      <LoadState load={list} t={t} />
      <SettingsTable
        rows={list.data?.data}
        none={t('docTemplates.none')}
        columns={[
          t('docTemplates.name'),
          t('docTemplates.key'),
          t('docTemplates.kind'),
          t('docTemplates.published'),
          t('docTemplates.latest'),
          t('docTemplates.updated'),
        ]}
        row={(d) => (
          <tr key={d.id} className={selected === d.key ? 'selected' : undefined}>
            <td>
              <button
                type="button"
                className="link"
                aria-expanded={selected === d.key}
                onClick={() => setSelected(selected === d.key ? null : d.key)}
              >
                {d.name}
              </button>
            </td>
            <td>
              <code>{d.key}</code>
            </td>
            <td>
              {t(d.kind === 'report' ? 'docTemplates.kind.report' : 'docTemplates.kind.electronic_signature')}
            </td>
            <td>{d.published_version ?? '—'}</td>
            <td>{d.latest_version ?? '—'}</td>
            <td>{formatDateTime(d.updated_at, lang)}</td>
          </tr>
        )}
      />
      <Pager pagination={list.data?.pagination} onPage={setPage} />
      {selected ? <TemplateDetail key={selected} templateKey={selected} onChanged={list.reload} /> : null}
      <Dialog title={t('docTemplates.new')} open={creating} onClose={() => setCreating(false)}>
        {creating ? (
          <CreateTemplateForm
            t={t}
            onCancel={() => setCreating(false)}
            onSaved={(key) => {
              setCreating(false);
              list.reload();
              setSelected(key);
            }}
          />
        ) : null}
      </Dialog>
    </>
  );
}

function CreateTemplateForm(props: { t: SettingsT; onCancel: () => void; onSaved: (key: string) => void }) {
  const { t } = props;
  const [key, setKey] = useState('');
  const [name, setName] = useState('');
  const [kind, setKind] = useState<Kind>('report');
  const act = useAction();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (
      await act.run(async () => ok(await api.POST('/v1/document-templates', { body: { key, name, kind } })))
    )
      props.onSaved(key);
  };
  return (
    <form className="settings-form" onSubmit={submit}>
      <label>
        {t('docTemplates.name')}
        <input required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <label>
        {t('docTemplates.key')}
        <input
          required
          pattern="[a-z0-9_]{1,64}"
          value={key}
          aria-describedby="doc-template-key-hint"
          onChange={(e) => setKey(e.target.value)}
        />
      </label>
      <p id="doc-template-key-hint" className="settings-hint">
        {t('docTemplates.keyHint')}
      </p>
      <label>
        {t('docTemplates.kind')}
        <select value={kind} onChange={(e) => setKind(e.target.value as Kind)}>
          <option value="report">{t('docTemplates.kind.report')}</option>
          <option value="electronic_signature">{t('docTemplates.kind.electronic_signature')}</option>
        </select>
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

function TemplateDetail({ templateKey, onChanged }: { templateKey: string; onChanged: () => void }) {
  const t = useSettingsT();
  const lang = useSettingsLang();
  const isAdmin = useIsAdmin();
  const tpl = useLoad(
    async () => ok(await api.GET('/v1/document-templates/{key}', { params: { path: { key: templateKey } } })),
    [templateKey],
  );
  const [viewing, setViewing] = useState<number | null>(null);
  const [adding, setAdding] = useState(false);
  const act = useAction();
  const version = useLoad(
    async () =>
      viewing === null
        ? null
        : ok(
            await api.GET('/v1/document-templates/{key}/versions/{number}', {
              params: { path: { key: templateKey, number: viewing } },
            }),
          ),
    [templateKey, viewing],
  );
  const changed = () => {
    tpl.reload();
    onChanged();
  };
  if (tpl.error) return <LoadFailed error={tpl.error} t={t} />;
  if (!tpl.data) return <Loading />;
  const d = tpl.data;
  return (
    <section className="settings-panel" aria-labelledby="doc-template-detail">
      <div className="settings-head">
        <h3 id="doc-template-detail">{t('docTemplates.versionsOf', { name: d.name })}</h3>
        {isAdmin ? (
          <button type="button" onClick={() => setAdding(true)}>
            {t('docTemplates.addVersion')}
          </button>
        ) : null}
      </div>
      <ErrorNote message={act.error} />
      {d.versions.length === 0 ? (
        <p className="settings-muted">{t('docTemplates.noVersions')}</p>
      ) : (
        <table className="settings-table">
          <thead>
            <tr>
              <th scope="col">{t('docTemplates.version')}</th>
              <th scope="col">{t('docTemplates.status')}</th>
              <th scope="col">{t('docTemplates.created')}</th>
              <th scope="col">{t('docTemplates.publishedAt')}</th>
              <th scope="col">{t('settings.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {[...d.versions].reverse().map((v) => (
              <tr key={v.number}>
                <td>{v.number}</td>
                <td>
                  <span className={`settings-badge ${v.status}`}>
                    {t(
                      v.status === 'published'
                        ? 'docTemplates.status.published'
                        : 'docTemplates.status.draft',
                    )}
                  </span>
                  {d.published_version === v.number ? ` ${t('docTemplates.inUse')}` : ''}
                </td>
                <td>{formatDateTime(v.created_at, lang)}</td>
                <td>{formatDateTime(v.published_at, lang)}</td>
                <td className="settings-row-actions">
                  <button type="button" onClick={() => setViewing(viewing === v.number ? null : v.number)}>
                    {viewing === v.number ? t('docTemplates.hide') : t('docTemplates.view')}
                  </button>
                  {isAdmin && v.status === 'draft' ? (
                    <button
                      type="button"
                      className="primary"
                      disabled={act.busy}
                      onClick={async () => {
                        if (
                          await act.run(async () =>
                            ok(
                              await api.POST('/v1/document-templates/{key}/versions/{number}/publish', {
                                params: { path: { key: templateKey, number: v.number } },
                              }),
                            ),
                          )
                        )
                          changed();
                      }}
                    >
                      {t('docTemplates.publish')}
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {viewing !== null ? (
        version.error ? (
          <LoadFailed error={version.error} t={t} />
        ) : version.data ? (
          <label>
            {t('docTemplates.contentOf', { n: viewing })}
            <textarea className="mono" readOnly rows={14} value={version.data.content} />
          </label>
        ) : (
          <Loading />
        )
      ) : null}
      <Dialog title={t('docTemplates.addVersion')} open={adding} onClose={() => setAdding(false)}>
        {adding ? (
          <AddVersionForm
            templateKey={templateKey}
            latest={d.latest_version}
            onCancel={() => setAdding(false)}
            onSaved={(n) => {
              setAdding(false);
              setViewing(n);
              changed();
            }}
          />
        ) : null}
      </Dialog>
    </section>
  );
}

function AddVersionForm(props: {
  templateKey: string;
  latest: number | null;
  onCancel: () => void;
  onSaved: (n: number) => void;
}) {
  const t = useSettingsT();
  const latest = useLoad(
    async () =>
      props.latest === null
        ? { content: '' }
        : ok(
            await api.GET('/v1/document-templates/{key}/versions/{number}', {
              params: { path: { key: props.templateKey, number: props.latest } },
            }),
          ),
    [props.templateKey, props.latest],
  );
  const [content, setContent] = useState<string | null>(null);
  const act = useAction();
  const text = content ?? latest.data?.content ?? '';
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    let created = 0;
    const done = await act.run(async () => {
      const v = ok(
        await api.POST('/v1/document-templates/{key}/versions', {
          params: { path: { key: props.templateKey } },
          body: { content: text },
        }),
      );
      created = v.number;
    });
    if (done) props.onSaved(created);
  };
  return (
    <form className="settings-form" onSubmit={submit}>
      <label>
        {t('docTemplates.content')}
        <textarea
          className="mono"
          required
          rows={16}
          value={text}
          aria-describedby="doc-template-content-hint"
          onChange={(e) => setContent(e.target.value)}
        />
      </label>
      <p id="doc-template-content-hint" className="settings-hint">
        {t('docTemplates.contentHint')}
      </p>
      <FormActions
        error={act.error}
        busy={act.busy}
        submitLabel={t('docTemplates.saveDraft')}
        onCancel={props.onCancel}
      />
    </form>
  );
}
