import type { VoiceDefinition, VoiceDefinitionInput } from '@social/contracts';

/**
 * A validated definition as stored and answered: members left out become `[]`
 * or `""`, and entries are copied member by member so nothing but the
 * published members is ever stored.
 */
export function completeDefinition(input: VoiceDefinitionInput): VoiceDefinition {
  return {
    boundaries: [...(input.boundaries ?? [])],
    disliked_patterns: [...(input.disliked_patterns ?? [])],
    expertise: [...(input.expertise ?? [])],
    forbidden_phrases: [...(input.forbidden_phrases ?? [])],
    opinions: [...(input.opinions ?? [])],
    recurring_expressions: [...(input.recurring_expressions ?? [])],
    traits: [...(input.traits ?? [])],
    vocabulary: [...(input.vocabulary ?? [])],
    formality: input.formality ?? '',
    humor: input.humor ?? '',
    preferred_language: input.preferred_language ?? '',
    identity_summary: input.identity_summary ?? '',
    corrections: (input.corrections ?? []).map(({ lesson, original, preferred }) => ({ lesson, original, preferred })),
    examples: (input.examples ?? []).map(({ platform, text, why_it_fits }) => ({ platform, text, why_it_fits })),
    interview_answers: (input.interview_answers ?? []).map(({ answer, question }) => ({ answer, question })),
  };
}
