import { LANGUAGES, type Lang, useLang, useT } from './i18n.tsx';

const NAMES: Record<Lang, string> = { en: 'English', fr: 'Français' };

/** English / French, as a labelled select (keyboard and screen readers need nothing more). */
export function LanguageSwitch() {
  const t = useT();
  const { lang, setLang } = useLang();
  return (
    <label className="lang-switch">
      <span>{t('user.language')}</span>
      <select value={lang} onChange={(e) => setLang(e.target.value as Lang)}>
        {LANGUAGES.map((l) => (
          <option key={l} value={l} lang={l}>
            {NAMES[l]}
          </option>
        ))}
      </select>
    </label>
  );
}
