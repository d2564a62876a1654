import { useEffect, type ReactNode } from 'react';
import { nextPath } from './next-path';
import { PublicFrame, Shell } from '../layout/shell';
import { routes, redirects, type PageRoute } from '../routes';
import { matchPath, navigate, ParamsProvider, useLocation } from '../router/router';
import { useSession } from '../session/session';
import { ProblemMessage } from '../ui/problem-message';
import { EmptyState, Loading } from '../ui/states';
import { Onboarding } from '../workspace/onboarding';
import { TenancyProvider, useTenancy } from '../workspace/workspace';

/** Picks the page for the address and wraps it in the frame its access calls for. */
export function App() {
  const { path, query } = useLocation();
  const { session } = useSession();
  const route = routes.find((candidate) => matchPath(candidate.path, path));
  const redirect = redirects[path];

  if (redirect) return <Redirect to={redirect} />;
  if (route?.access === 'public') {
    if (session) return <Redirect to={nextPath(query)} />;
    return (
      <PublicFrame title={route.title}>
        <route.page />
      </PublicFrame>
    );
  }
  if (!session) return <Redirect to={`/sign-in?next=${encodeURIComponent(path + window.location.search)}`} />;
  return (
    <TenancyProvider>
      <Shell title={route?.title ?? 'Page not found'}>{route ? <Guarded route={route} /> : <NotFound />}</Shell>
    </TenancyProvider>
  );
}

/** A page that needs a workspace waits for one (onboarding when there is none); admin pages need an instance admin. */
function Guarded({ route }: { route: PageRoute }) {
  const tenancy = useTenancy();
  const { session } = useSession();
  if (route.access === 'admin' && !session?.user.is_admin) {
    return (
      <Section title={route.title}>
        <EmptyState title="Only instance administrators can open this page." />
      </Section>
    );
  }
  if (route.access === 'workspace' && !tenancy.workspace) {
    if (tenancy.loading) return <Loading label="Loading your workspaces…" />;
    if (tenancy.error) {
      return (
        <Section title={route.title}>
          <ProblemMessage error={tenancy.error} title="Your workspaces could not be loaded." />
          <button type="button" onClick={() => tenancy.reload()}>
            Try again
          </button>
        </Section>
      );
    }
    return <Onboarding />;
  }
  return (
    <ParamsProvider value={matchPath(route.path, window.location.pathname) ?? {}}>
      <route.page />
    </ParamsProvider>
  );
}

function NotFound() {
  return (
    <Section title="Page not found">
      <EmptyState title="There is no page at this address.">
        <p>
          <a href="/">Go to the start page</a>
        </p>
      </EmptyState>
    </Section>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">{title}</h1>
      {children}
    </section>
  );
}

function Redirect({ to }: { to: string }) {
  useEffect(() => navigate(to, { replace: true }), [to]);
  return null;
}
