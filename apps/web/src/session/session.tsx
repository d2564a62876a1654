import { createPlatformClient, unwrap, type PlatformClient } from '@social/sdk';
import { createContext, useContext, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { apiOrigin } from '../api/origin';
import { SessionStore, type AuthTokens, type Session, type UserProfile } from './session-store';

export interface SessionApi {
  /** Null when signed out. */
  session: Session | null;
  /** The SDK client: every call carries the session's access token (refreshed as needed). */
  client: PlatformClient;
  signIn(email: string, password: string): Promise<void>;
  signUp(fields: { email: string; password: string; display_name?: string }): Promise<void>;
  /** Starts a session from tokens obtained another way (a passkey sign-in). */
  adopt(tokens: AuthTokens): void;
  updateUser(user: UserProfile): void;
  signOut(): Promise<void>;
}

const SessionContext = createContext<SessionApi | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [store] = useState(() => new SessionStore());
  const session = useSyncExternalStore(
    (listener) => store.subscribe(listener),
    () => store.get(),
  );
  const client = useMemo(() => createPlatformClient({ baseUrl: apiOrigin(), fetch: withSessionToken(store) }), [store]);
  const api = useMemo<SessionApi>(
    () => ({
      session,
      client,
      async signIn(email, password) {
        store.adopt(await unwrap(client.POST('/auth/login', { body: { email, password } })));
      },
      async signUp(fields) {
        store.adopt(await unwrap(client.POST('/auth/register', { body: fields })));
      },
      adopt: (tokens) => store.adopt(tokens),
      updateUser: (user) => store.updateUser(user),
      async signOut() {
        // Signed out of this tab at once; revoking the session on the server is best effort after that.
        const token = await store.accessToken();
        store.clear();
        if (token) await client.POST('/auth/logout', { headers: { authorization: `Bearer ${token}` } }).catch(() => undefined);
      },
    }),
    [session, client, store],
  );
  return <SessionContext.Provider value={api}>{children}</SessionContext.Provider>;
}

/** A fetch that puts the session's current access token on each request that does not carry its own. */
function withSessionToken(store: SessionStore) {
  return async (request: Request): Promise<Response> => {
    const token = await store.accessToken();
    if (token && !request.headers.has('authorization')) request.headers.set('authorization', `Bearer ${token}`);
    return fetch(request);
  };
}

export function useSession(): SessionApi {
  const api = useContext(SessionContext);
  if (!api) throw new Error('useSession() outside <SessionProvider>');
  return api;
}

/** The SDK client with the session's token: `unwrap(useApi().GET('/publications', { params: { query } }))`. */
export function useApi(): PlatformClient {
  return useSession().client;
}

/** The signed-in person (pages behind sign-in only). */
export function useUser(): UserProfile {
  const { session } = useSession();
  if (!session) throw new Error('useUser() on a page that does not require sign-in');
  return session.user;
}
