import { HOME_PATH } from '../routes';

/** Where to go after signing in: the page that asked for it (same-origin paths only), else home. */
export function nextPath(query: URLSearchParams): string {
  const next = query.get('next') ?? '';
  return next.startsWith('/') && !next.startsWith('//') ? next : HOME_PATH;
}
