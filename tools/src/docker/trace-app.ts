/**
 * `node tools/dist/docker/trace-app.js <app> <out dir>`: copies into <out dir> only the files the built app
 * loads at run time (its dist, the libs' dist, and the production node_modules files it reaches), traced by
 * @vercel/nft from `apps/<app>/dist/main.js`. The Dockerfile runs it after the shared dependency stage, so
 * each image holds its own app's dependencies instead of every app's.
 */
import { nodeFileTrace } from '@vercel/nft';
import { copyFileSync, lstatSync, mkdirSync, readlinkSync, symlinkSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** Loaded by name at run time (not by an import nft can see): kept whole. */
const ALWAYS = [
  // TypeORM requires its driver by name.
  'node_modules/pg/package.json',
];

export async function traceApp(root: string, app: string): Promise<string[]> {
  const entry = join('apps', app, 'dist', 'main.js');
  if (!existsSync(join(root, entry))) throw new Error(`${entry} is missing: build the app first`);
  const { fileList, warnings } = await nodeFileTrace([entry, ...ALWAYS], { base: root, processCwd: root });
  for (const warning of warnings)
    if (!/Failed to resolve dependency/.test(warning.message)) process.stderr.write(`trace: ${warning.message}\n`);
  return [...fileList].sort();
}

export function copyTraced(root: string, files: string[], out: string): void {
  for (const file of files) {
    const from = join(root, file);
    const to = join(out, file);
    mkdirSync(dirname(to), { recursive: true });
    const stat = lstatSync(from);
    if (stat.isSymbolicLink()) {
      // Workspace links (node_modules/@social/* → libs/*) stay links, relative as npm made them.
      if (!existsSync(to)) symlinkSync(readlinkSync(from), to);
    } else if (stat.isFile()) {
      copyFileSync(from, to);
    }
  }
}

if (process.argv[1]?.endsWith('trace-app.js')) {
  const [app, out] = process.argv.slice(2);
  if (!app || !out) {
    process.stderr.write('usage: trace-app <app> <out dir>\n');
    process.exit(2);
  }
  const root = resolve(process.cwd());
  traceApp(root, app).then(
    (files) => {
      copyTraced(root, files, resolve(out));
      process.stdout.write(`${app}: ${files.length} files traced into ${out}\n`);
    },
    (error: unknown) => {
      process.stderr.write(`trace-app: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
