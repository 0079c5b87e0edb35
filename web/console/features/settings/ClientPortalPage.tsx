/**
 * Client portal settings (/v1/client-portals): the workspace's portals and, for the chosen one, its
 * name, whether it is online, its default language, accent colour, logo (uploaded through
 * /v1/files/upload) and the wait steps a contact is told about. Admins edit; others read.
 */
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client.ts';
import { useLang } from '../../shell/i18n.tsx';
import { languageName } from '../display-names.ts';
import { ErrorNote, type Json, LoadFailed, Loading, ok, useAction, useLoad } from './common.tsx';
import { useIsAdmin, useSettingsT } from './i18n.ts';

type Portal = Json<'/v1/client-portals'>['data'][number];
type Language = Portal['default_language'];
const LANGUAGES: Language[] = ['en', 'fr', 'it', 'de', 'es', 'nl', 'pt', 'pl', 'hu', 'ja', 'ko'];

export function ClientPortalPage() {
  const t = useSettingsT();
  const list = useLoad(
    async () => ok(await api.GET('/v1/client-portals', { params: { query: { limit: 100 } } })),
    [],
  );
  const [chosen, setChosen] = useState<string | null>(null);
  // kept here: the form is remade from the saved portal after a save
  const [saved, setSaved] = useState(false);
  if (list.error) return <LoadFailed error={list.error} t={t} />;
  if (!list.data) return <Loading />;
  const portals = list.data.data;
  const portal = portals.find((p) => p.id === chosen) ?? portals.find((p) => p.is_default) ?? portals[0];
  return (
    <>
      <h2>{t('settings.section.client-portal')}</h2>
      <p className="settings-hint">{t('portal.intro')}</p>
      {portals.length > 1 ? (
        <label>
          {t('portal.choose')}
          <select value={portal?.id} onChange={(e) => setChosen(e.target.value)}>
            {portals.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
                {p.is_default ? ` (${t('portal.default')})` : ''}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {portal ? (
        <PortalForm
          key={`${portal.id}-${portal.updated_at}`}
          portal={portal}
          saved={saved}
          onEdit={() => setSaved(false)}
          onSaved={() => {
            setSaved(true);
            list.reload();
          }}
        />
      ) : null}
    </>
  );
}

interface Step {
  key: string;
  title: string;
}

function PortalForm({
  portal,
  saved,
  onEdit,
  onSaved,
}: {
  portal: Portal;
  saved: boolean;
  onEdit: () => void;
  onSaved: () => void;
}) {
  const t = useSettingsT();
  const { lang } = useLang();
  const isAdmin = useIsAdmin();
  const [name, setName] = useState(portal.name);
  const [online, setOnline] = useState(portal.status === 'online');
  const [language, setLanguage] = useState<Language>(portal.default_language);
  const [accent, setAccent] = useState<string | null>(portal.accent_color);
  const [steps, setSteps] = useState<Step[]>(portal.wait_steps.map((s) => ({ ...s })));
  const [logo, setLogo] = useState<File | null>(null);
  const [removeLogo, setRemoveLogo] = useState(false);
  const act = useAction();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const done = await act.run(async () => {
      let logoRef: string | null | undefined;
      if (logo) {
        const form = new FormData();
        form.append('file', logo);
        const up = ok(
          await api.POST('/v1/files/upload', {
            body: form as never,
            bodySerializer: (b: unknown) => b as FormData,
          }),
        );
        logoRef = up.upload_ref;
      } else if (removeLogo) logoRef = null;
      ok(
        await api.PATCH('/v1/client-portals/{id}', {
          params: { path: { id: portal.id } },
          body: {
            name,
            status: online ? 'online' : 'offline',
            default_language: language,
            accent_color: accent,
            wait_steps: steps.map((s) => ({ key: s.key.trim(), title: s.title.trim() })),
            ...(logoRef !== undefined ? { logo_upload_ref: logoRef } : {}),
          },
        }),
      );
    });
    if (done) onSaved();
  };

  return (
    <form className="settings-form" onSubmit={submit} onChange={onEdit} aria-label={portal.name}>
      <p>
        {t('portal.url')}: <code>{portal.url}</code>
      </p>
      <fieldset disabled={!isAdmin}>
        <legend>{t('portal.general')}</legend>
        <label>
          {t('portal.name')}
          <input required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label className="check">
          <input type="checkbox" checked={online} onChange={(e) => setOnline(e.target.checked)} />
          {t('portal.online')}
        </label>
        <p className="settings-hint">{t('portal.onlineHint')}</p>
        <div className="settings-grid">
          <label>
            {t('portal.language')}
            <select value={language} onChange={(e) => setLanguage(e.target.value as Language)}>
              {LANGUAGES.map((l) => (
                <option key={l} value={l}>
                  {languageName(l, lang)}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t('portal.accent')}
            <input type="color" value={accent ?? '#1f4fd1'} onChange={(e) => setAccent(e.target.value)} />
          </label>
        </div>
        {accent ? (
          <button type="button" className="link" onClick={() => setAccent(null)}>
            {t('portal.noAccent')}
          </button>
        ) : (
          <p className="settings-muted">{t('portal.defaultAccent')}</p>
        )}
      </fieldset>
      <fieldset disabled={!isAdmin}>
        <legend>{t('portal.logo')}</legend>
        <p className="settings-muted">{portal.logo_file_id ? t('portal.hasLogo') : t('portal.noLogo')}</p>
        <label>
          {t('portal.uploadLogo')}
          <input
            type="file"
            accept="image/png,image/jpeg,image/webp"
            onChange={(e) => {
              setLogo(e.target.files?.[0] ?? null);
              setRemoveLogo(false);
            }}
          />
        </label>
        {portal.logo_file_id ? (
          <label className="check">
            <input
              type="checkbox"
              checked={removeLogo}
              disabled={logo !== null}
              onChange={(e) => setRemoveLogo(e.target.checked)}
            />
            {t('portal.removeLogo')}
          </label>
        ) : null}
      </fieldset>
      <fieldset disabled={!isAdmin}>
        <legend>{t('portal.waitSteps')}</legend>
        <p className="settings-hint">{t('portal.waitStepsHint')}</p>
        {steps.length === 0 ? <p className="settings-muted">{t('portal.noSteps')}</p> : null}
        {steps.map((s, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place, by position
          <div key={i} className="settings-grid settings-step">
            <label>
              {t('portal.stepKey')}
              <input
                required
                pattern="[A-Za-z0-9_\-]{1,64}"
                value={s.key}
                onChange={(e) => setSteps(steps.map((x, j) => (j === i ? { ...x, key: e.target.value } : x)))}
              />
            </label>
            <label>
              {t('portal.stepTitle')}
              <input
                required
                maxLength={200}
                value={s.title}
                onChange={(e) =>
                  setSteps(steps.map((x, j) => (j === i ? { ...x, title: e.target.value } : x)))
                }
              />
            </label>
            {isAdmin ? (
              <button
                type="button"
                aria-label={t('portal.removeStepN', { n: i + 1 })}
                onClick={() => setSteps(steps.filter((_, j) => j !== i))}
              >
                {t('portal.removeStep')}
              </button>
            ) : null}
          </div>
        ))}
        {isAdmin ? (
          <button type="button" onClick={() => setSteps([...steps, { key: '', title: '' }])}>
            {t('portal.addStep')}
          </button>
        ) : null}
      </fieldset>
      <ErrorNote message={act.error} />
      {isAdmin ? (
        <div className="settings-actions">
          <button type="submit" className="primary" disabled={act.busy}>
            {t('settings.save')}
          </button>
          {saved ? (
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
