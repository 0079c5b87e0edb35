/**
 * `/console/settings/*`: the workspace pages. A side menu of the sections and the chosen one:
 * general settings, case templates, document types, document templates, webhooks (with their
 * deliveries), API keys, users, the audit log and the client portal. Every page reads and writes
 * `/v1` with the session; write controls are shown to admins only (the server refuses the others).
 */
import { Link, useRoute } from 'wouter';
import { ApiKeysPage } from './ApiKeysPage.tsx';
import { AuditLogPage } from './AuditLogPage.tsx';
import { ClientPortalPage } from './ClientPortalPage.tsx';
import { DocumentTemplatesPage } from './DocumentTemplatesPage.tsx';
import { DocumentTypesPage } from './DocumentTypesPage.tsx';
import { GeneralSettingsPage } from './GeneralSettingsPage.tsx';
import { type SettingsKey, useIsAdmin, useSettingsT } from './i18n.ts';
import { TemplatesPage } from './TemplatesPage.tsx';
import { UsersPage } from './UsersPage.tsx';
import { WebhooksPage } from './WebhooksPage.tsx';
import './settings.css';

export const SETTINGS_SECTIONS = [
  'general',
  'templates',
  'document-types',
  'document-templates',
  'webhooks',
  'api-keys',
  'users',
  'audit-log',
  'client-portal',
] as const;
export type SettingsSection = (typeof SETTINGS_SECTIONS)[number];

/** Sections whose very reading is for admins (webhooks carry secrets; keys are credentials). */
const ADMIN_ONLY: ReadonlySet<SettingsSection> = new Set(['webhooks', 'api-keys']);

const PAGES: Record<SettingsSection, () => React.JSX.Element> = {
  general: GeneralSettingsPage,
  templates: TemplatesPage,
  'document-types': DocumentTypesPage,
  'document-templates': DocumentTemplatesPage,
  webhooks: WebhooksPage,
  'api-keys': ApiKeysPage,
  users: UsersPage,
  'audit-log': AuditLogPage,
  'client-portal': ClientPortalPage,
};

export function SettingsPage() {
  const t = useSettingsT();
  const isAdmin = useIsAdmin();
  const [, params] = useRoute<{ section?: string; rest?: string }>('/settings/:section/*?');
  const asked = params?.section ?? 'general';
  const section = (SETTINGS_SECTIONS as readonly string[]).includes(asked)
    ? (asked as SettingsSection)
    : null;
  const Page = section ? PAGES[section] : null;
  const visible = SETTINGS_SECTIONS.filter((s) => isAdmin || !ADMIN_ONLY.has(s));
  return (
    <div className="settings">
      <nav className="settings-nav" aria-label={t('settings.menu')}>
        <h1 className="settings-title">{t('settings.title')}</h1>
        <ul>
          {visible.map((s) => (
            <li key={s}>
              <Link
                href={`/settings/${s}`}
                aria-current={s === section ? 'page' : undefined}
                className={s === section ? 'active' : undefined}
              >
                {t(`settings.section.${s}` as SettingsKey)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <section className="settings-main" data-section={section ?? 'unknown'}>
        {!section || !Page ? (
          <p className="settings-error" role="alert">
            {t('settings.unknownSection')}
          </p>
        ) : ADMIN_ONLY.has(section) && !isAdmin ? (
          <>
            <h2>{t(`settings.section.${section}` as SettingsKey)}</h2>
            <p className="settings-muted">{t('settings.adminsOnly')}</p>
          </>
        ) : (
          <Page />
        )}
      </section>
    </div>
  );
}
