import { Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { navigate, useLocation } from '../router/router';
import { useSession } from '../session/session';
import { ErrorBoundary } from '../ui/error-boundary';
import { Loading } from '../ui/states';
import { ThemeToggle } from '../ui/theme';
import { Navigation } from './navigation';
import { WorkspaceSwitcher } from './switcher';

/** The signed-in frame: skip link, banner with the switcher, navigation, and the page in <main>. */
export function Shell({ title, children }: { title: string; children: ReactNode }) {
  const { session, signOut } = useSession();
  const [menuOpen, setMenuOpen] = useState(false);
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <button
          type="button"
          className="ghost menu-button"
          aria-expanded={menuOpen}
          aria-controls="navigation"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          Menu
        </button>
        <a className="brand" href="/">
          Social
        </a>
        <WorkspaceSwitcher />
        <div className="topbar-end">
          <ThemeToggle />
          <span className="user-name">{session?.user.display_name || session?.user.email}</span>
          <button
            type="button"
            className="ghost"
            onClick={async () => {
              await signOut();
              navigate('/sign-in', { replace: true });
            }}
          >
            Sign out
          </button>
        </div>
      </header>
      <nav id="navigation" aria-label="Main" className={menuOpen ? 'sidebar open' : 'sidebar'}>
        <Navigation isAdmin={!!session?.user.is_admin} onNavigate={() => setMenuOpen(false)} />
      </nav>
      <PageFrame title={title}>{children}</PageFrame>
    </div>
  );
}

/** Frame of the signed-out pages: the same landmarks, no navigation. */
export function PublicFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="shell public">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <a className="brand" href="/">
          Social
        </a>
        <div className="topbar-end">
          <ThemeToggle />
        </div>
      </header>
      <PageFrame title={title}>{children}</PageFrame>
    </div>
  );
}

/**
 * <main> with the page: names the document after it, moves focus to it after a navigation (so keyboard and screen
 * reader users start at the new content), catches render failures, and shows loading while its code arrives.
 */
function PageFrame({ title, children }: { title: string; children: ReactNode }) {
  const { path } = useLocation();
  const main = useRef<HTMLElement>(null);
  const firstPath = useRef(path);
  useEffect(() => {
    document.title = `${title} · Social`;
  }, [title]);
  useEffect(() => {
    if (path !== firstPath.current) main.current?.focus();
    firstPath.current = '';
  }, [path]);
  return (
    <main id="main" tabIndex={-1} ref={main}>
      <ErrorBoundary resetKey={path}>
        <Suspense fallback={<Loading />}>{children}</Suspense>
      </ErrorBoundary>
    </main>
  );
}
