/**
 * The AI prompt catalogue (docs/decisions.md): every prompt an administrator may
 * override through E8, with its default text. Per-platform variants
 * `<key>@<platform>` (kind `platform`) refine a base prompt for one network;
 * a service asking for a platform falls back to the base prompt when the
 * catalogue has no variant.
 */
export const PROVIDERS = [
  'x',
  'mastodon',
  'bluesky',
  'linkedin',
  'threads',
  'facebook',
  'instagram',
  'tiktok',
  'youtube',
  'discord',
  'telegram',
] as const;
export type Provider = (typeof PROVIDERS)[number];

export const PROMPT_KINDS = ['base', 'platform'] as const;
export const PROMPT_MAX_LENGTH = 20_000;

export interface PromptDefinition {
  key: string;
  kind: (typeof PROMPT_KINDS)[number];
  /** "" for a base prompt. */
  platform: string;
  default_value: string;
  /** Bumped whenever the default text changes. */
  default_version: string;
}

const BASE_PROMPTS: PromptDefinition[] = [
  {
    key: 'publication_builds.angles',
    kind: 'base',
    platform: '',
    default_version: '2',
    default_value:
      'You are a social media strategist. The user message is a JSON object: "idea" (what the publication is about), ' +
      '"context_notes", "direction", "accounts" (the networks and handles it will be published to), "social_set" and ' +
      '"voice" (the brand voice to respect); members other than "idea" may be empty or null. Propose 3 to 5 distinct ' +
      'creative angles for one publication, each true to the idea and suited to those networks and that voice.\n\n' +
      'Answer with one JSON object and nothing else: {"angles": [ ... ]}, each angle an object with these string members:\n' +
      '- "label": a short title for the angle (a few words)\n' +
      '- "hook": the opening line that stops the scroll\n' +
      '- "thesis": the one claim the publication makes\n' +
      '- "approach": how the publication makes that claim (story, list, contrast, demonstration…)\n' +
      '- "objective": what the publication is for (awareness, sign-ups, discussion…)\n' +
      '- "desired_reaction": what the audience should feel or do\n' +
      '- "evidence": the facts, examples or proof it relies on\n' +
      'and two objects:\n' +
      '- "build_direction": {"angle", "audience", "media_preference", "outcome", "tone_adjustment"}, all strings: how ' +
      'to build the publication (the angle in one sentence, who it speaks to, the media it prefers, the result it aims ' +
      'for, how the tone departs from the usual voice, "" if it does not)\n' +
      '- "media": {"brief", "role", "source_ref", "treatment"}, all strings: the visual or video it needs, the part ' +
      'that media plays, a reference to source material from the notes ("" if none), and how to treat it.\n' +
      '"label", "hook" and "thesis" must not be empty; use "" for any other member you have nothing for. Write in the ' +
      'language of the idea. Do not add other members.',
  },
  {
    key: 'publication_builds.draft',
    kind: 'base',
    platform: '',
    default_version: '1',
    default_value:
      'You are a social media copywriter. Write the publication for the chosen angle in the voice profile given. ' +
      'Keep it truthful to the source, concrete, and free of hashtags unless the voice asks for them.',
  },
  {
    key: 'voice_profiles.analyze',
    kind: 'base',
    platform: '',
    default_version: '1',
    default_value:
      'Read the sample posts and describe the writing voice: formality, humor, sentence length, vocabulary, emoji ' +
      'and hashtag habits, and the preferred language. Answer as JSON matching the VoiceDefinition schema.',
  },
  {
    key: 'media.alt_text',
    kind: 'base',
    platform: '',
    default_version: '1',
    default_value:
      'Write concise alt text (at most 250 characters) describing the image for a screen-reader user. Describe what ' +
      'matters for the post; do not start with "Image of".',
  },
];

const PLATFORM_NOTES: Record<Provider, string> = {
  x: 'Stay within 280 characters per post; split longer text into a thread.',
  mastodon: 'Stay within 500 characters; use content warnings where the topic calls for them.',
  bluesky: 'Stay within 300 characters per post.',
  linkedin: 'Write for professionals; up to 3,000 characters, short paragraphs.',
  threads: 'Stay within 500 characters; conversational tone.',
  facebook: 'A friendly tone; the first two lines must carry the message.',
  instagram: 'The caption supports the image; up to 2,200 characters, hashtags at the end.',
  tiktok: 'A caption for a short video; hook in the first words.',
  youtube: 'A title under 100 characters and a description whose first lines summarise the video.',
  discord: 'A community announcement; Markdown is allowed.',
  telegram: 'A channel post; Markdown is allowed.',
};

/** Every publication draft has a variant per network: length and tone rules differ most there. */
const PLATFORM_PROMPTS: PromptDefinition[] = PROVIDERS.map((platform) => ({
  key: `publication_builds.draft@${platform}`,
  kind: 'platform',
  platform,
  default_version: '1',
  default_value: `${BASE_PROMPTS[1].default_value}\n\n${PLATFORM_NOTES[platform]}`,
}));

export const PROMPT_CATALOGUE: readonly PromptDefinition[] = [...BASE_PROMPTS, ...PLATFORM_PROMPTS];

const BY_KEY = new Map(PROMPT_CATALOGUE.map((p) => [p.key, p]));

export function promptDefinition(key: string): PromptDefinition | undefined {
  return BY_KEY.get(key);
}
