import type { Command } from 'commander';
import { unwrap } from '@social/sdk';
import type { CliContext } from '../context.js';
import type { Actions } from '../cli.js';
import { accountsTable, workspacesTable } from '../format.js';

export function registerWorkspaceCommands(program: Command, act: Actions): void {
  const workspace = program.command('workspace').alias('workspaces').description('list workspaces, choose the one commands act in');
  workspace.command('list').description('the workspaces you belong to (* marks the chosen one)').action(act(listWorkspaces));
  workspace
    .command('use')
    .description('act in this workspace from now on (--workspace overrides it per command)')
    .argument('<id>', 'a workspace id')
    .action(act(useWorkspace));

  const accounts = program.command('accounts').description("the workspace's connected social accounts");
  accounts.command('list').description('their ids, networks and usernames (for --accounts)').action(act(listAccounts));
}

async function listWorkspaces(context: CliContext): Promise<void> {
  const list = await unwrap(context.client().GET('/workspaces'));
  if (context.json) return context.printJson(list);
  const current = context.options.workspace || context.io.env.SOCIAL_WORKSPACE || context.storedConfig.workspace_id;
  context.print(list.workspaces.length ? workspacesTable(list.workspaces, current) : 'No workspaces yet.');
}

async function useWorkspace(context: CliContext, _options: unknown, id: string): Promise<void> {
  // Read first: an unknown or foreign id fails here (404, exit 4) rather than on every later command.
  const workspace = await unwrap(context.client().GET('/workspaces/{id}', { params: { path: { id } } }));
  await context.saveConfig({ ...context.storedConfig, workspace_id: workspace.id });
  if (context.json) return context.printJson(workspace);
  context.print(`Using workspace ${workspace.name} (${workspace.id}).`);
}

async function listAccounts(context: CliContext): Promise<void> {
  const list = await unwrap(context.client().GET('/social-accounts', { params: { query: { workspace_id: context.workspaceId() } } }));
  if (context.json) return context.printJson(list);
  context.print(list.accounts.length ? accountsTable(list.accounts) : 'No connected accounts in this workspace.');
}
