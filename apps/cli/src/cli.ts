import { Command, CommanderError } from 'commander';
import { describeFailure } from './cli-error.js';
import { registerPublicationCommands } from './commands/publications.js';
import { registerSessionCommands } from './commands/session.js';
import { registerWorkspaceCommands } from './commands/workspaces.js';
import { CliContext, type GlobalOptions, type Io } from './context.js';
import { ExitCode } from './exit-codes.js';

/** A command's work: the context, its options, then its arguments; answers an exit code or nothing (0). */
export type Handler<Options = any, Args extends unknown[] = any[]> = (
  context: CliContext,
  options: Options,
  ...args: Args
) => Promise<number | void>;
/** Turns a handler into a commander action that loads the context and records the exit code. */
export type Actions = <Options, Args extends unknown[]>(handler: Handler<Options, Args>) => (...raw: any[]) => Promise<void>;

export const VERSION = '0.1.0';

/** The program: global options, then each group of commands. */
export function buildProgram(io: Io, act: Actions): Command {
  const program = new Command('social')
    .description("the social publishing platform's command line: sign in, choose a workspace, draft, attach, schedule and watch")
    .version(VERSION)
    .option('--api-url <url>', 'the API (else SOCIAL_API_URL, the one you signed in to, or http://localhost:8080)')
    .option('--token <token>', 'an API token (spk_…) instead of the stored session (else SOCIAL_TOKEN)')
    .option('-w, --workspace <id>', 'the workspace to act in (else SOCIAL_WORKSPACE or `social workspace use`)')
    .option('--json', "print the API's objects as JSON, for scripts")
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) });
  registerSessionCommands(program, act);
  registerWorkspaceCommands(program, act);
  registerPublicationCommands(program, act);
  return program;
}

/** Runs one command line (without `node` and the script) and answers its exit code; nothing escapes as a stack trace. */
export async function run(argv: string[], io: Io): Promise<number> {
  let exitCode: number = ExitCode.ok;
  const act: Actions =
    (handler) =>
    async (...raw) => {
      const command = raw[raw.length - 1] as Command;
      const args = raw.slice(0, -2) as never[]; // commander hands them over as declared: strings, a variadic one as string[]
      const context = await CliContext.load(io, command.optsWithGlobals<GlobalOptions>());
      exitCode = (await handler(context, command.opts() as never, ...(args as never))) ?? ExitCode.ok;
    };
  try {
    await buildProgram(io, act).parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return commanderExitCode(error);
    const { exitCode: code, lines } = describeFailure(error);
    io.stderr.write(`${lines.join('\n')}\n`);
    if (io.env.SOCIAL_DEBUG && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
    return code;
  }
}

/** Help and version end well; every other complaint of the parser (it has printed it) is a usage error. */
function commanderExitCode(error: CommanderError): number {
  if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.exitCode === 0) return ExitCode.ok;
  return ExitCode.usage;
}
