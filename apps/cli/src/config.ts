import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { ExitCode } from './exit-codes.js';
import { CliError } from './cli-error.js';

/** A signed-in session (`social login`): its tokens are secrets, hence the file's mode 0600. */
export interface StoredSession {
  /** The API the tokens belong to: never sent anywhere else. */
  api_url: string;
  email: string;
  user_id: string;
  access_token: string;
  refresh_token: string;
  /** RFC 3339: when the access token stops working. */
  expires_at: string;
}

export interface CliConfig {
  /** The API used when neither --api-url nor SOCIAL_API_URL names one. */
  api_url?: string;
  /** The workspace commands act in unless --workspace or SOCIAL_WORKSPACE names another. */
  workspace_id?: string;
  session?: StoredSession;
}

/** `$XDG_CONFIG_HOME/social/config.json`, else `~/.config/social/config.json`. */
export function configPath(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(base, 'social', 'config.json');
}

export async function readConfig(path: string): Promise<CliConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new CliError(`cannot read ${path}: ${(error as Error).message}`, ExitCode.failed);
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not a JSON object');
    return parsed as CliConfig;
  } catch (error) {
    throw new CliError(`${path} is not valid: ${(error as Error).message}`, ExitCode.failed, ['Fix or delete it, then sign in again.']);
  }
}

/** Written beside and renamed, so a crash never leaves half a file; only the owner may read it (0600, folder 0700). */
export async function writeConfig(path: string, config: CliConfig): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  await chmod(temporary, 0o600); // a temporary file left by a crash would keep its old mode
  await rename(temporary, path);
}
