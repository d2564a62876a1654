import { describe, expect, it } from '@jest/globals';
import { PROMPT_CATALOGUE, promptDefinition } from '@social/contracts';
import type { DataSource } from 'typeorm';
import { AiPromptsService } from './ai-prompts.service.js';

interface PromptRow {
  key: string;
  value: string;
  updated_at: Date;
  updated_by: string;
}

/** The service over stored overrides (by key); records the keys it looked up. */
function service(overrides: PromptRow[] = []) {
  const asked: unknown[][] = [];
  const dataSource = {
    query: async (_sql: string, params: unknown[] = []) => {
      asked.push(params);
      return params.length ? overrides.filter((row) => row.key === params[0]) : overrides;
    },
  } as unknown as DataSource;
  return { prompts: new AiPromptsService(dataSource), asked };
}

const AT = new Date('2030-01-01T00:00:00.000Z');
const draft = promptDefinition('publication_builds.draft')!;
const draftForX = promptDefinition('publication_builds.draft@x')!;

describe('AI prompt catalogue', () => {
  it('lists every catalogue prompt, an override in place of its default', async () => {
    const { prompts } = service([{ key: draft.key, value: 'Be brief.', updated_at: AT, updated_by: 'admin-1' }]);
    const list = await prompts.list();
    expect(list.map((p) => p.key)).toEqual(PROMPT_CATALOGUE.map((p) => p.key));
    expect(list.find((p) => p.key === draft.key)).toMatchObject({
      value: 'Be brief.',
      overridden: true,
      default_value: draft.default_value,
      updated_at: '2030-01-01T00:00:00.000Z',
      updated_by: 'admin-1',
    });
    expect(list.find((p) => p.key === draftForX.key)).toMatchObject({
      value: draftForX.default_value,
      overridden: false,
      updated_at: '',
      updated_by: '',
    });
  });

  it('ignores stored rows of prompts no longer in the catalogue', async () => {
    const { prompts } = service([{ key: 'retired.prompt', value: 'old', updated_at: AT, updated_by: 'a' }]);
    expect((await prompts.list()).map((p) => p.key)).not.toContain('retired.prompt');
  });

  it('answers 404 for a key outside the catalogue, without touching the store', async () => {
    const { prompts, asked } = service();
    for (const attempt of [prompts.get('nope'), prompts.save('nope', 'v', 'u'), prompts.reset('nope')]) {
      await expect(attempt).rejects.toMatchObject({ status: 404 });
    }
    expect(asked).toEqual([]);
  });
});

describe('resolving a prompt for a service', () => {
  it("takes the platform's variant when the catalogue has one", async () => {
    const { prompts } = service();
    expect(await prompts.resolve({ key: draft.key, platform: 'x' })).toEqual({
      key: draftForX.key,
      value: draftForX.default_value,
      version: draftForX.default_version,
      overridden: false,
    });
  });

  it('falls back to the base prompt for a platform without a variant, or none', async () => {
    const { prompts } = service();
    const angles = promptDefinition('publication_builds.angles')!;
    expect((await prompts.resolve({ key: angles.key, platform: 'x' })).key).toBe(angles.key);
    expect((await prompts.resolve({ key: draft.key })).key).toBe(draft.key);
  });

  it('versions an override by when it was saved, so a changed prompt is told apart', async () => {
    const { prompts } = service([{ key: draftForX.key, value: 'Short.', updated_at: AT, updated_by: 'a' }]);
    expect(await prompts.resolve({ key: draft.key, platform: 'x' })).toEqual({
      key: draftForX.key,
      value: 'Short.',
      version: 'override:2030-01-01T00:00:00.000Z',
      overridden: true,
    });
  });

  it('refuses a key outside the catalogue', async () => {
    await expect(service().prompts.resolve({ key: 'nope', platform: 'x' })).rejects.toMatchObject({ status: 404 });
  });
});
