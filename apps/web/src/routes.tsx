import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * Every page of the console, in one list. A page lives in `pages/<area>/<name>.page.tsx` and default-exports its
 * component; it is loaded when first visited, so each area adds nothing to the first load.
 *
 * `access`: `public` (signed out too), `signed-in`, `workspace` (also needs a chosen workspace: the shell shows the
 * onboarding until there is one, and `useWorkspace()` works), `admin` (instance admins).
 * `nav`: where the navigation lists it (`main` or the `settings` group); absent for pages reached by links.
 */
export interface PageRoute {
  path: string;
  title: string;
  access: 'public' | 'signed-in' | 'workspace' | 'admin';
  nav?: 'main' | 'settings';
  page: LazyExoticComponent<ComponentType>;
}

export const routes: PageRoute[] = [
  { path: '/sign-in', title: 'Sign in', access: 'public', page: lazy(() => import('./pages/sign-in/sign-in.page')) },
  { path: '/sign-up', title: 'Create an account', access: 'public', page: lazy(() => import('./pages/sign-in/sign-up.page')) },
  { path: '/invite', title: 'Invitation', access: 'signed-in', page: lazy(() => import('./pages/invite/invite.page')) },

  { path: '/calendar', title: 'Calendar', access: 'workspace', nav: 'main', page: lazy(() => import('./pages/calendar/calendar.page')) },
  { path: '/compose', title: 'Compose', access: 'workspace', nav: 'main', page: lazy(() => import('./pages/compose/compose.page')) },
  {
    path: '/publications',
    title: 'Publications',
    access: 'workspace',
    nav: 'main',
    page: lazy(() => import('./pages/publications/publications.page')),
  },
  {
    path: '/publications/:id',
    title: 'Publication',
    access: 'workspace',
    page: lazy(() => import('./pages/publications/publication.page')),
  },
  { path: '/accounts', title: 'Accounts', access: 'workspace', nav: 'main', page: lazy(() => import('./pages/accounts/accounts.page')) },
  {
    // The OAuth networks send the person back here (`{public_app_url}/social-accounts/callback/{provider}`).
    path: '/social-accounts/callback/:provider',
    title: 'Connecting an account',
    access: 'signed-in',
    page: lazy(() => import('./pages/accounts/callback.page')),
  },
  { path: '/media', title: 'Media', access: 'workspace', nav: 'main', page: lazy(() => import('./pages/media/media.page')) },
  {
    path: '/analytics',
    title: 'Analytics',
    access: 'workspace',
    nav: 'main',
    page: lazy(() => import('./pages/analytics/analytics.page')),
  },
  { path: '/inbox', title: 'Inbox', access: 'signed-in', nav: 'main', page: lazy(() => import('./pages/inbox/inbox.page')) },

  {
    path: '/settings/members',
    title: 'Members',
    access: 'workspace',
    nav: 'settings',
    page: lazy(() => import('./pages/settings/members.page')),
  },
  {
    path: '/settings/invitations',
    title: 'Invitations',
    access: 'workspace',
    nav: 'settings',
    page: lazy(() => import('./pages/settings/invitations.page')),
  },
  {
    path: '/settings/api-tokens',
    title: 'API tokens',
    access: 'signed-in',
    nav: 'settings',
    page: lazy(() => import('./pages/settings/api-tokens.page')),
  },
  {
    path: '/settings/webhooks',
    title: 'Webhooks',
    access: 'workspace',
    nav: 'settings',
    page: lazy(() => import('./pages/settings/webhooks.page')),
  },
  {
    path: '/settings/notifications',
    title: 'Notification preferences',
    access: 'signed-in',
    nav: 'settings',
    page: lazy(() => import('./pages/settings/notifications.page')),
  },
  {
    path: '/settings/security',
    title: 'Security',
    access: 'signed-in',
    nav: 'settings',
    page: lazy(() => import('./pages/settings/security.page')),
  },

  { path: '/admin', title: 'Administration', access: 'admin', nav: 'main', page: lazy(() => import('./pages/admin/admin.page')) },
];

/** Where `/` and a fresh sign-in lead. */
export const HOME_PATH = '/calendar';

/** Paths that lead elsewhere (older or shorter addresses). */
export const redirects: Record<string, string> = { '/': HOME_PATH, '/settings': '/settings/members' };
