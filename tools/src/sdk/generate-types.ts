import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';

/**
 * `libs/sdk/openapi.json` → `libs/sdk/src/generated/openapi.ts` (types only), as `npm run build`'s step
 * between the gateway (which writes the document) and libs/sdk (which compiles against the types).
 * Skipped when the types are newer than the document: the gateway rewrites the document only when it
 * changes, so an unchanged API costs no generation and no recompilation of the SDK.
 */
const DOCUMENT = 'libs/sdk/openapi.json';
const TYPES = 'libs/sdk/src/generated/openapi.ts';

const HEADER =
  '/**\n * Generated from libs/sdk/openapi.json by tools/src/sdk/generate-types.ts during `npm run build`; do not edit.\n */\n\n';

async function modifiedAt(path: string): Promise<number> {
  return (await stat(path).catch(() => undefined))?.mtimeMs ?? -1;
}

async function main() {
  if ((await modifiedAt(TYPES)) > (await modifiedAt(DOCUMENT))) return;
  const document = JSON.parse(await readFile(DOCUMENT, 'utf8'));
  const ast = await openapiTS(document, { silent: true });
  await mkdir(dirname(TYPES), { recursive: true });
  // Written beside and renamed: an interrupted run never leaves a partial file that looks newer than the document.
  await writeFile(`${TYPES}.tmp`, HEADER + astToString(ast));
  await rename(`${TYPES}.tmp`, TYPES);
}

main().catch((error: unknown) => {
  process.stderr.write(`generate-types: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
