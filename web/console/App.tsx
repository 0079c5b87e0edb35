/** The console: the sign-in page until there is a session, then the pages inside the layout. */
import { Route, Router, Switch } from 'wouter';
import { ROUTES } from './routes.tsx';
import { LangProvider, useT } from './shell/i18n.tsx';
import { Layout } from './shell/Layout.tsx';
import { LoginPage } from './shell/LoginPage.tsx';
import { SessionProvider, useSession } from './shell/session.tsx';

function NotFound() {
  const t = useT();
  return <p className="muted">{t('common.notFound')}</p>;
}

function Pages() {
  const { session, loading } = useSession();
  const t = useT();
  if (loading) return <p className="muted boot">{t('common.loading')}</p>;
  if (!session) return <LoginPage />;
  return (
    <Layout>
      <Switch>
        {ROUTES.map((r) => (
          <Route key={r.path} path={r.path} component={r.component} />
        ))}
        <Route component={NotFound} />
      </Switch>
    </Layout>
  );
}

export function App() {
  return (
    <LangProvider>
      <SessionProvider>
        <Router base="/console">
          <Pages />
        </Router>
      </SessionProvider>
    </LangProvider>
  );
}
