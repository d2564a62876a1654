import { createPlatformClient, PlatformProblem, unwrap, type PlatformClient, type Schema } from '@social/sdk';
import { CliError, usageError } from './cli-error.js';
import { configPath, readConfig, writeConfig, type CliConfig, type StoredSession } from './config.js';
import { ExitCode } from './exit-codes.js';
import { DEFAULT_RETRY_POLICY, withRetries, type RetryPolicy } from './retries.js';

/** Where a command reads and writes: the real process in `main.ts`, buffers in specs. */
export interface Io {
  stdout: { write(text: string): unknown; isTTY?: boolean };
  stderr: { write(text: string): unknown; isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  fetch?: typeof fetch;
  retryPolicy?: Partial<RetryPolicy>;
}

/** The options every command takes (commander's `optsWithGlobals()`). */
export interface GlobalOptions {
  apiUrl?: string;
  token?: string;
  workspace?: string;
  json?: boolean;
}

export const DEFAULT_API_URL = 'http://localhost:8080';
/** Refresh a session's access token this long before it expires, so a request never carries a dying one. */
const REFRESH_MARGIN_MS = 30_000;

/** One invocation's settings, credentials and clients: flags win over the environment, which wins over the config file. */
export class CliContext {
  /** Requests sent again so far (after a lost answer, a 503, …): a revisioned change checks whether its first try landed. */
  retries = 0;

  private constructor(
    readonly io: Io,
    readonly options: GlobalOptions,
    readonly configFile: string,
    private config: CliConfig,
    readonly apiUrl: string,
    readonly retryPolicy: RetryPolicy,
  ) {}

  static async load(io: Io, options: GlobalOptions): Promise<CliContext> {
    const file = configPath(io.env);
    const config = await readConfig(file);
    const apiUrl = checkedApiUrl(options.apiUrl || io.env.SOCIAL_API_URL || config.api_url || DEFAULT_API_URL);
    const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...io.retryPolicy };
    const context = new CliContext(io, options, file, config, apiUrl, {
      ...policy,
      onRetry: (reason, attempt) => {
        context.retries++;
        io.stderr.write(`retrying (${reason}): try ${attempt} of ${policy.attempts}\n`);
        policy.onRetry?.(reason, attempt);
      },
    });
    return context;
  }

  get json(): boolean {
    return this.options.json === true;
  }

  /** A line for people on stdout (tables, summaries). */
  print(text = ''): void {
    this.io.stdout.write(`${text}\n`);
  }

  /** The API's object as it is, for scripts (`--json`). */
  printJson(value: unknown): void {
    this.io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  }

  /** A remark on stderr (progress, hints), so stdout stays the command's result. */
  note(text: string): void {
    this.io.stderr.write(`${text}\n`);
  }

  /** The workspace to act in: --workspace, SOCIAL_WORKSPACE, then `social workspace use`. */
  workspaceId(): string {
    const id = this.options.workspace || this.io.env.SOCIAL_WORKSPACE || this.config.workspace_id;
    if (!id)
      throw usageError(
        'no workspace chosen',
        'Pick one with `social workspace use <id>` (see `social workspace list`), or pass --workspace.',
      );
    return id;
  }

  /** A client without credentials (sign-in). */
  anonymousClient(): PlatformClient {
    return createPlatformClient({ baseUrl: this.apiUrl, fetch: (request) => this.send(request) });
  }

  /** A client acting with the API token given, else the stored session (refreshed when it is about to expire). */
  client(): PlatformClient {
    const token = this.options.token || this.io.env.SOCIAL_TOKEN;
    if (token) return createPlatformClient({ baseUrl: this.apiUrl, fetch: (request) => this.send(request, token) });
    const session = this.session();
    if (!session) {
      throw new CliError('not signed in', ExitCode.auth, [
        'Run `social login --email <email> --password <password>`, or pass an API token with --token or SOCIAL_TOKEN.',
      ]);
    }
    return createPlatformClient({ baseUrl: this.apiUrl, fetch: (request) => this.sendAsSession(request) });
  }

  /** Sends any request (e.g. bytes to a signed upload URL) with the same retries as API calls. */
  fetchWithRetries(url: string, init: () => RequestInit): Promise<Response> {
    const policy = { ...this.retryPolicy, timeoutMs: Math.max(this.retryPolicy.timeoutMs, 300_000) };
    return withRetries((signal) => this.fetchImpl(url, { ...init(), signal }), new URL(url).origin, policy);
  }

  session(): StoredSession | undefined {
    const session = this.config.session;
    return session && session.api_url === this.apiUrl ? session : undefined;
  }

  async saveSession(tokens: Schema<'AuthTokens'>): Promise<void> {
    const session: StoredSession = {
      api_url: this.apiUrl,
      email: tokens.user.email,
      user_id: tokens.user.id,
      access_token: tokens.access_token,
      refresh_token: tokens.refresh_token,
      expires_at: new Date(Date.now() + tokens.expires_in * 1000).toISOString(),
    };
    await this.saveConfig({ ...this.config, api_url: this.apiUrl, session });
  }

  async saveConfig(config: CliConfig): Promise<void> {
    await writeConfig(this.configFile, config);
    this.config = config;
  }

  get storedConfig(): CliConfig {
    return this.config;
  }

  private get fetchImpl(): typeof fetch {
    return this.io.fetch ?? fetch;
  }

  private send(request: Request, token?: string): Promise<Response> {
    return withRetries(
      (signal) => {
        const attempt = request.clone();
        if (token) attempt.headers.set('authorization', `Bearer ${token}`);
        return this.fetchImpl(attempt, { signal });
      },
      this.apiUrl,
      this.retryPolicy,
    );
  }

  /** With the session's access token; refreshes it first when it is about to expire, and once more on a 401. */
  private async sendAsSession(request: Request): Promise<Response> {
    let session = this.session()!;
    if (Date.parse(session.expires_at) - REFRESH_MARGIN_MS < Date.now()) session = await this.refresh(session);
    const response = await this.send(request, session.access_token);
    if (response.status !== 401) return response;
    await response.body?.cancel();
    return this.send(request, (await this.refresh(session)).access_token);
  }

  private async refresh(session: StoredSession): Promise<StoredSession> {
    try {
      const tokens = await unwrap(this.anonymousClient().POST('/auth/refresh', { body: { refresh_token: session.refresh_token } }));
      await this.saveSession(tokens);
      return this.session()!;
    } catch (error) {
      if (error instanceof PlatformProblem && error.status === 401) {
        throw new CliError(`the session of ${session.email} has ended`, ExitCode.auth, ['Sign in again with `social login`.']);
      }
      throw error;
    }
  }
}

function checkedApiUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw usageError(`the API URL "${value}" is not a URL`, 'Give one like https://social.example.com (--api-url or SOCIAL_API_URL).');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw usageError(`the API URL "${value}" is not http(s)`);
  return url.href.replace(/\/+$/, '');
}
