/** The frame of every signed-in page: a skip link, the navigation, the user and the language. */
import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { useT } from './i18n.tsx';
import { LanguageSwitch } from './LanguageSwitch.tsx';
import { PasswordButton } from './PasswordDialog.tsx';
import { useCanWrite, useSession } from './session.tsx';

function NavLink({ href, children }: { href: string; children: ReactNode }) {
  const [location] = useLocation();
  const current =
    href === '/'
      ? location === '/' || (location.startsWith('/cases/') && location !== '/cases/new')
      : location.startsWith(href);
  return (
    <Link href={href} aria-current={current ? 'page' : undefined} className={current ? 'current' : undefined}>
      {children}
    </Link>
  );
}

export function Layout({ children }: { children: ReactNode }) {
  const t = useT();
  const { session, signOut } = useSession();
  const canWrite = useCanWrite();
  if (!session) return null;
  const { user, workspace } = session;
  return (
    <div className="shell">
      <a className="skip" href="#content">
        {t('app.skip')}
      </a>
      <header className="topbar">
        <span className="brand">{t('app.name')}</span>
        <span className="workspace">{workspace.name}</span>
        <nav aria-label={t('nav.main')} className="mainnav">
          <NavLink href="/">{t('nav.cases')}</NavLink>
          <NavLink href="/queue">{t('nav.queue')}</NavLink>
          {canWrite ? <NavLink href="/cases/new">{t('nav.newCase')}</NavLink> : null}
          <NavLink href="/settings">{t('nav.settings')}</NavLink>
        </nav>
        <div className="user">
          <span>
            {[user.first_name, user.last_name].filter(Boolean).join(' ') || user.email}{' '}
            <span className="role" data-role={user.role}>
              {t(`user.role.${user.role}`)}
            </span>
          </span>
          <LanguageSwitch />
          <PasswordButton />
          <button type="button" onClick={() => void signOut()}>
            {t('user.signOut')}
          </button>
        </div>
      </header>
      <main id="content" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
