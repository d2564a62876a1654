import type { Command } from 'commander';
import { unwrap } from '@social/sdk';
import { usageError } from '../cli-error.js';
import type { CliContext } from '../context.js';
import type { Actions } from '../cli.js';

export function registerSessionCommands(program: Command, act: Actions): void {
  program
    .command('login')
    .description('sign in with email and password; the session is kept in the config file (mode 0600) and refreshed as needed')
    .requiredOption('--email <email>', 'your email address')
    .option('--password <password>', 'your password (else SOCIAL_PASSWORD, which keeps it out of shell history)')
    .action(act(login));

  program.command('logout').description('end the stored session and forget its tokens').action(act(logout));
}

async function login(context: CliContext, options: { email: string; password?: string }): Promise<void> {
  const password = options.password ?? context.io.env.SOCIAL_PASSWORD;
  if (!password) throw usageError('no password given', 'Pass --password or set SOCIAL_PASSWORD.');
  const tokens = await unwrap(context.anonymousClient().POST('/auth/login', { body: { email: options.email, password } }));
  await context.saveSession(tokens);
  // One workspace only: nothing to choose, so choose it (a later `workspace use` changes it).
  let workspaceId = context.storedConfig.workspace_id;
  if (!workspaceId) {
    const { workspaces } = await unwrap(context.client().GET('/workspaces'));
    if (workspaces.length === 1) {
      workspaceId = workspaces[0].id;
      await context.saveConfig({ ...context.storedConfig, workspace_id: workspaceId });
    }
  }
  if (context.json) return context.printJson({ user: tokens.user, workspace_id: workspaceId ?? '' });
  context.print(`Signed in to ${context.apiUrl} as ${tokens.user.email}.`);
  context.print(
    workspaceId ? `Workspace: ${workspaceId}` : 'Choose a workspace: `social workspace list`, then `social workspace use <id>`.',
  );
}

async function logout(context: CliContext): Promise<void> {
  const session = context.session();
  if (!session) return context.note('Not signed in.');
  // The server ends the session; forgetting it here matters even when the server cannot be reached.
  const ended = await context
    .client()
    .POST('/auth/logout')
    .then((answer) => answer.response.ok)
    .catch(() => false);
  const { session: _session, ...rest } = context.storedConfig;
  await context.saveConfig(rest);
  context.print(ended ? `Signed out ${session.email}.` : `Forgot the session of ${session.email} (the server could not be told).`);
}
