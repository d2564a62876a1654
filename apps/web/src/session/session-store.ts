import { createPlatformClient, unwrap, type Schema } from '@social/sdk';
import { apiOrigin } from '../api/origin';

export type AuthTokens = Schema<'AuthTokens'>;
export type UserProfile = Schema<'UserProfile'>;

/** A signed-in person: the token pair of contract §2 and who they are. */
export interface Session {
  accessToken: string;
  refreshToken: string;
  /** When the access token stops working, in epoch milliseconds. */
  expiresAt: number;
  user: UserProfile;
}

const STORAGE_KEY = 'social.session';
/** Refresh this long before the access token expires, so a request never leaves with a dying token. */
const REFRESH_MARGIN_MS = 60_000;

/**
 * Holds the session in memory and in sessionStorage (one tab's life: closing the tab signs out; a reload does not),
 * and refreshes the access token before it expires. Refreshing is single-flight: a rotated refresh token used twice
 * revokes the session (contract §2), so concurrent requests wait on the same refresh.
 */
export class SessionStore {
  private current: Session | null = readStored();
  private refreshing: Promise<Session | null> | null = null;
  private readonly listeners = new Set<() => void>();

  get(): Session | null {
    return this.current;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts a session from an answer of register, login, refresh or a passkey sign-in. */
  adopt(tokens: AuthTokens) {
    this.set({
      accessToken: tokens.access_token,
      refreshToken: tokens.refresh_token,
      expiresAt: Date.now() + tokens.expires_in * 1000,
      user: tokens.user,
    });
  }

  updateUser(user: UserProfile) {
    if (this.current) this.set({ ...this.current, user });
  }

  clear() {
    this.set(null);
  }

  /** The access token to send now, refreshed first when it is about to expire; undefined when signed out. */
  async accessToken(): Promise<string | undefined> {
    const session = this.current;
    if (!session) return undefined;
    if (session.expiresAt - Date.now() > REFRESH_MARGIN_MS) return session.accessToken;
    this.refreshing ??= this.refresh(session).finally(() => (this.refreshing = null));
    return (await this.refreshing)?.accessToken;
  }

  private async refresh(session: Session): Promise<Session | null> {
    try {
      const client = createPlatformClient({ baseUrl: apiOrigin() });
      this.adopt(await unwrap(client.POST('/auth/refresh', { body: { refresh_token: session.refreshToken } })));
    } catch {
      // A refused refresh (revoked, expired, reused) ends the session: the console asks the person to sign in again.
      this.clear();
    }
    return this.current;
  }

  private set(session: Session | null) {
    this.current = session;
    if (session) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(session));
    else sessionStorage.removeItem(STORAGE_KEY);
    for (const listener of this.listeners) listener();
  }
}

function readStored(): Session | null {
  try {
    const stored = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? 'null') as Session | null;
    return stored?.accessToken && stored.refreshToken && stored.user ? stored : null;
  } catch {
    return null;
  }
}
