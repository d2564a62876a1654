import { operation, type PathRule } from '../common/operation.js';
import { AIPrompt, AIPromptList, SavePromptRequest } from './ai-prompts.dto.js';
import { promptDefinition } from './prompt-catalogue.js';

/** A key of the prompt catalogue: any other is 404, before the body is looked at. */
const catalogueKey: PathRule = { accepts: (key) => promptDefinition(key) !== undefined, notFound: 'No such prompt in the catalogue.' };

/** The AI prompt catalogue and its overrides (admin service), for instance administrators. */
export const AiPromptOperations = {
  list: operation({ subject: 'admin.ai-prompts.list', caller: 'admin', answer: AIPromptList }),
  get: operation({ subject: 'admin.ai-prompts.get', caller: 'admin', params: { key: catalogueKey }, answer: AIPrompt }),
  save: operation({
    subject: 'admin.ai-prompts.save',
    caller: 'admin',
    params: { key: catalogueKey },
    body: SavePromptRequest,
    answer: AIPrompt,
  }),
  reset: operation({ subject: 'admin.ai-prompts.reset', caller: 'admin', params: { key: catalogueKey }, answer: AIPrompt }),
};
