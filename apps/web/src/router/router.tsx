import {
  createContext,
  useContext,
  useMemo,
  useSyncExternalStore,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactNode,
} from 'react';

/** The browser's address as the console reads it: the path and its query. */
export interface Location {
  path: string;
  query: URLSearchParams;
}

const LocationContext = createContext<Location>(readLocation());

function readLocation(address = window.location.pathname + window.location.search): Location {
  const url = new URL(address, window.location.origin);
  return { path: url.pathname, query: url.searchParams };
}

/** Moves to `to` (a path with an optional query) without reloading; `replace` keeps the history entry count. */
export function navigate(to: string, { replace = false } = {}) {
  if (replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

/**
 * Re-renders its children whenever the address changes (links, back and forward). An external store, so a
 * navigation made before the listener is attached (a child's effect runs before its parent's) is still seen.
 */
export function RouterProvider({ children }: { children: ReactNode }) {
  const address = useSyncExternalStore(subscribe, () => window.location.pathname + window.location.search);
  const location = useMemo(() => readLocation(address), [address]);
  return <LocationContext.Provider value={location}>{children}</LocationContext.Provider>;
}

function subscribe(listener: () => void): () => void {
  window.addEventListener('popstate', listener);
  return () => window.removeEventListener('popstate', listener);
}

export function useLocation(): Location {
  return useContext(LocationContext);
}

/** An ordinary link that navigates in place; modified clicks (new tab, download) keep the browser's behaviour. */
export function Link({ href, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (rest.target && rest.target !== '_self') return;
    event.preventDefault();
    navigate(href);
  };
  return <a href={href} onClick={follow} {...rest} />;
}

/** `pattern` like `/publications/:id` against `path`: the named segments, or null when it does not match. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/').filter(Boolean);
  const have = path.split('/').filter(Boolean);
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i].startsWith(':')) params[want[i].slice(1)] = decodeURIComponent(have[i]);
    else if (want[i] !== have[i]) return null;
  }
  return params;
}

const ParamsContext = createContext<Record<string, string>>({});

/** Provides the named segments of the matched route (`:id` in `/publications/:id`) to its page. */
export const ParamsProvider = ParamsContext.Provider;

/** The current route's named segments: `useParams().id` on `/publications/:id`. */
export function useParams(): Record<string, string> {
  return useContext(ParamsContext);
}
