import type { EmailFrequency, TopicDefinition, TopicPreference } from '@social/contracts';
import { EMAIL_FREQUENCIES } from '@social/contracts';

interface TopicSpec {
  id: string;
  group: string;
  defaultEmail: EmailFrequency;
  /** Security and membership messages: always emailed at once, always in-app. */
  transactional?: boolean;
  /** In-app delivery cannot be turned off (failures that need action). */
  criticalInApp?: boolean;
}

/** The topic catalogue (docs/decisions.md). Order is the order clients show them in. */
const TOPICS: TopicSpec[] = [
  { id: 'post_published', group: 'publishing', defaultEmail: 'off' },
  { id: 'publish_failed', group: 'publishing', defaultEmail: 'immediate', criticalInApp: true },
  { id: 'account_needs_attention', group: 'accounts', defaultEmail: 'off', criticalInApp: true },
  { id: 'new_engagement', group: 'engagement', defaultEmail: 'off' },
  { id: 'new_message', group: 'engagement', defaultEmail: 'off' },
  { id: 'reply_failed', group: 'engagement', defaultEmail: 'immediate', criticalInApp: true },
  { id: 'webhook_deactivated', group: 'integrations', defaultEmail: 'immediate', criticalInApp: true },
  { id: 'workspace_invite', group: 'workspace', defaultEmail: 'immediate', transactional: true },
  { id: 'ownership_transfer', group: 'workspace', defaultEmail: 'immediate', transactional: true },
  { id: 'security_action', group: 'security', defaultEmail: 'immediate', transactional: true },
  { id: 'access_changed', group: 'security', defaultEmail: 'immediate', transactional: true },
];

export const TOPIC_DEFINITIONS: TopicDefinition[] = TOPICS.map((topic) => {
  const transactional = topic.transactional === true;
  const critical = transactional || topic.criticalInApp === true;
  return {
    id: topic.id,
    group: topic.group,
    presentation_key: `notifications.topics.${topic.id}`,
    transactional,
    critical_in_app: critical,
    email_mutable: !transactional,
    in_app_mutable: !critical,
    // Contract §8: critical and transactional topics are never muted.
    mute_applies: !critical,
    default_preference: { email_frequency: topic.defaultEmail, in_app: true },
    email_frequencies: transactional ? ['immediate'] : [...EMAIL_FREQUENCIES],
  };
});

const BY_ID = new Map(TOPIC_DEFINITIONS.map((definition) => [definition.id, definition]));

export const topicDefinition = (id: string): TopicDefinition | undefined => BY_ID.get(id);

/** Stored choices over defaults: every topic present, unknown stored keys dropped. */
export function effectivePreferences(stored: Record<string, TopicPreference>): Record<string, TopicPreference> {
  return Object.fromEntries(TOPIC_DEFINITIONS.map((definition) => [definition.id, stored[definition.id] ?? definition.default_preference]));
}
