import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches, MaxLength } from 'class-validator';
import { SchemaName } from '../common/schema-name.js';
import { PROMPT_KINDS, PROMPT_MAX_LENGTH } from './prompt-catalogue.js';

@SchemaName('AIPromptResponse')
export class AIPrompt {
  @ApiProperty() key: string;
  @ApiProperty({ enum: PROMPT_KINDS }) kind: string;
  @ApiProperty({ description: '"" for a base prompt' }) platform: string;
  @ApiProperty({ description: 'the effective text: the override, else the default' }) value: string;
  @ApiProperty() overridden: boolean;
  @ApiProperty() default_value: string;
  @ApiProperty() default_version: string;
  @ApiProperty({ description: 'time of the override; "" when not overridden' }) updated_at: string;
  @ApiProperty({ description: 'user id of the administrator who saved the override; "" when not overridden' }) updated_by: string;
}

export class AIPromptList {
  @ApiProperty({ type: [AIPrompt] }) prompts: AIPrompt[];
}

/** E8 body. */
export class SavePromptRequest {
  @ApiProperty({ minLength: 1, maxLength: PROMPT_MAX_LENGTH })
  @IsString()
  @Matches(/\S/, { message: '$property must not be empty' })
  @MaxLength(PROMPT_MAX_LENGTH)
  value: string;
}
