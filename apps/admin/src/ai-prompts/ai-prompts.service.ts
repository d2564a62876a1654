import { Injectable } from '@nestjs/common';
import { AIPrompt, PROMPT_CATALOGUE, PromptDefinition, promptDefinition, ResolvedPrompt, ResolvePromptRequest } from '@social/contracts';
import { problems } from '@social/platform';
import { DataSource } from 'typeorm';
import type { AiPromptRow } from './ai-prompt.row.js';

const unknownPrompt = () => problems.notFound('No such prompt in the catalogue.');

/** E8 and its siblings over the prompt catalogue in code; an override row exists only while a prompt is overridden. */
@Injectable()
export class AiPromptsService {
  constructor(private readonly dataSource: DataSource) {}

  async list(): Promise<AIPrompt[]> {
    const rows = await this.dataSource.query<AiPromptRow[]>(`SELECT key, value, updated_at, updated_by FROM ai_prompts`);
    const byKey = new Map(rows.map((row) => [row.key, row]));
    return PROMPT_CATALOGUE.map((definition) => toAIPrompt(definition, byKey.get(definition.key)));
  }

  async get(key: string): Promise<AIPrompt> {
    const definition = promptDefinition(key);
    if (!definition) throw unknownPrompt();
    return toAIPrompt(definition, await this.row(key));
  }

  async save(key: string, value: string, userId: string): Promise<AIPrompt> {
    const definition = promptDefinition(key);
    if (!definition) throw unknownPrompt();
    const [row] = await this.dataSource.query<AiPromptRow[]>(
      `INSERT INTO ai_prompts (key, value, updated_at, updated_by) VALUES ($1, $2, now(), $3)
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by
       RETURNING key, value, updated_at, updated_by`,
      [key, value, userId],
    );
    return toAIPrompt(definition, row);
  }

  /** Back to the default; resetting a prompt that is not overridden is the same answer. */
  async reset(key: string): Promise<AIPrompt> {
    const definition = promptDefinition(key);
    if (!definition) throw unknownPrompt();
    await this.dataSource.query(`DELETE FROM ai_prompts WHERE key = $1`, [key]);
    return toAIPrompt(definition, undefined);
  }

  /** For services that call the AI provider: the platform variant when the catalogue has one, else the base prompt. */
  async resolve(request: ResolvePromptRequest): Promise<ResolvedPrompt> {
    const definition = (request.platform && promptDefinition(`${request.key}@${request.platform}`)) || promptDefinition(request.key);
    if (!definition) throw unknownPrompt();
    const prompt = toAIPrompt(definition, await this.row(definition.key));
    return {
      key: prompt.key,
      value: prompt.value,
      version: prompt.overridden ? `override:${prompt.updated_at}` : prompt.default_version,
      overridden: prompt.overridden,
    };
  }

  private async row(key: string): Promise<AiPromptRow | undefined> {
    const [row] = await this.dataSource.query<AiPromptRow[]>(`SELECT key, value, updated_at, updated_by FROM ai_prompts WHERE key = $1`, [
      key,
    ]);
    return row;
  }
}

function toAIPrompt(definition: PromptDefinition, row: AiPromptRow | undefined): AIPrompt {
  return {
    key: definition.key,
    kind: definition.kind,
    platform: definition.platform,
    value: row?.value ?? definition.default_value,
    overridden: row !== undefined,
    default_value: definition.default_value,
    default_version: definition.default_version,
    updated_at: row ? new Date(row.updated_at).toISOString() : '',
    updated_by: row?.updated_by ?? '',
  };
}
