import { describe, expect, it } from '@jest/globals';
import { isIanaTimeZone } from './time-zones.js';
import { effectivePreferences, TOPIC_DEFINITIONS, topicDefinition } from './topics.js';

describe('topic catalogue', () => {
  it('marks transactional topics immediate-only and not mutable', () => {
    for (const id of ['workspace_invite', 'ownership_transfer', 'security_action', 'access_changed']) {
      expect(topicDefinition(id)).toMatchObject({
        transactional: true,
        critical_in_app: true,
        email_mutable: false,
        in_app_mutable: false,
        email_frequencies: ['immediate'],
      });
    }
  });

  it('keeps in-app delivery on for critical optional topics', () => {
    for (const id of ['publish_failed', 'account_needs_attention', 'reply_failed']) {
      // Critical topics are never muted (docs/decisions.md).
      expect(topicDefinition(id)).toMatchObject({
        transactional: false,
        critical_in_app: true,
        in_app_mutable: false,
        mute_applies: false,
      });
    }
    expect(topicDefinition('post_published')).toMatchObject({ critical_in_app: false, in_app_mutable: true, mute_applies: true });
  });

  it('fills every topic missing from the stored map with its default and drops unknown ones', () => {
    const effective = effectivePreferences({
      new_message: { email_frequency: 'daily', in_app: false },
      gone: { email_frequency: 'off', in_app: true },
    });
    expect(Object.keys(effective)).toEqual(TOPIC_DEFINITIONS.map((t) => t.id));
    expect(effective.new_message).toEqual({ email_frequency: 'daily', in_app: false });
    expect(effective.publish_failed).toEqual({ email_frequency: 'immediate', in_app: true });
  });
});

describe('isIanaTimeZone', () => {
  it.each(['UTC', 'Europe/Paris', 'America/Argentina/Buenos_Aires', 'Etc/GMT+2'])('accepts %s', (zone) => {
    expect(isIanaTimeZone(zone)).toBe(true);
  });
  it.each(['', 'Mars/Base', '+01:00', 'UTC+1', 'Europe/../Paris'])('refuses %j', (zone) => {
    expect(isIanaTimeZone(zone)).toBe(false);
  });
});
