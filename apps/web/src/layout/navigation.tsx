import { routes, type PageRoute } from '../routes';
import { Link, useLocation } from '../router/router';

/** The main areas, then the settings group; admin only for instance admins. */
export function Navigation({ isAdmin, onNavigate }: { isAdmin: boolean; onNavigate: () => void }) {
  const { path } = useLocation();
  const visible = (route: PageRoute) => route.access !== 'admin' || isAdmin;
  const item = (route: PageRoute) => (
    <li key={route.path}>
      <Link href={route.path} aria-current={path === route.path ? 'page' : undefined} onClick={onNavigate}>
        {route.title}
      </Link>
    </li>
  );
  return (
    <>
      <ul className="nav-list">{routes.filter((route) => route.nav === 'main' && visible(route)).map(item)}</ul>
      <h2 className="nav-heading" id="nav-settings">
        Settings
      </h2>
      <ul className="nav-list" aria-labelledby="nav-settings">
        {routes.filter((route) => route.nav === 'settings').map(item)}
      </ul>
    </>
  );
}
