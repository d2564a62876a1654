import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';

const read = (file: string) => JSON.parse(readFileSync(new URL(`../${file}`, import.meta.url), 'utf8'));

describe('@social/sdk version', () => {
  it("equals the OpenAPI document's info.version, so the package says which API it speaks", () => {
    // The build writes openapi.json from the gateway's API_VERSION; bump both together (lint fails on a stale document).
    expect(read('package.json').version).toBe(read('openapi.json').info.version);
  });
});
