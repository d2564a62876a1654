/** A prompt of the catalogue overridden by an administrator (`ai_prompts`); no row while it is not. */
export interface AiPromptRow {
  key: string;
  value: string;
  updated_at: Date;
  updated_by: string;
}
