import { Injectable } from '@nestjs/common';
import {
  AccountsPatterns,
  FieldError,
  GetContactRequest,
  NotificationPreferenceSettings,
  TopicPreference,
  UpdatePreferencesRequest,
  UserContact,
} from '@social/contracts';
import { ExpiringCache, preparedQuery, Problem, problems, RpcClient, validateInput } from '@social/platform';
import { DataSource } from 'typeorm';
import { toNotificationMute } from '../mutes/mutes.service.js';
import { isIanaTimeZone } from './time-zones.js';
import { effectivePreferences, TOPIC_DEFINITIONS, topicDefinition } from './topics.js';

const DEFAULT_DIGEST_TIME = '09:00';
const DEFAULT_DIGEST_TIMEZONE = 'UTC';
const CONTACT_TTL_MS = 30_000;

/**
 * E26 is read far more than written: one round trip, prepared, brings the
 * stored choices (or nulls) and the mutes that have not ended, soonest first.
 */
const SELECT_SETTINGS = `
  SELECT p.digest_time, p.digest_timezone, p.topics,
    (SELECT coalesce(json_agg(json_build_object('id', m.id, 'workspaceId', m.workspace_id, 'workspaceName', m.workspace_name,
              'startsAt', m.starts_at, 'endsAt', m.ends_at) ORDER BY m.starts_at, m.id), '[]')
       FROM mutes m WHERE m.user_id = $1 AND m.ends_at > now()) AS mutes
  FROM (SELECT 1) AS one LEFT JOIN preferences p ON p.user_id = $1`;

/** Omitted digest settings keep their stored value (or the default for a new row). */
const UPSERT_PREFERENCES = `
  INSERT INTO preferences (user_id, digest_time, digest_timezone, topics, updated_at)
  VALUES ($1, COALESCE($2, $5), COALESCE($3, $6), $4::jsonb, now())
  ON CONFLICT (user_id) DO UPDATE SET
    digest_time = COALESCE($2, preferences.digest_time),
    digest_timezone = COALESCE($3, preferences.digest_timezone),
    topics = EXCLUDED.topics,
    updated_at = now()`;

interface SettingsRow {
  digest_time: string | null;
  digest_timezone: string | null;
  topics: Record<string, TopicPreference> | null;
  mutes: Array<{ id: string; workspaceId: string | null; workspaceName: string; startsAt: string; endsAt: string }>;
}

@Injectable()
export class PreferencesService {
  private readonly contacts = new ExpiringCache<UserContact>(50_000);

  constructor(
    private readonly dataSource: DataSource,
    private readonly rpc: RpcClient,
  ) {}

  async get(userId: string): Promise<NotificationPreferenceSettings> {
    const [[stored], contact] = await Promise.all([
      preparedQuery<SettingsRow>(this.dataSource, 'notifications.settings-by-user', SELECT_SETTINGS, [userId]),
      this.contact(userId),
    ]);
    const preferences = effectivePreferences(stored.topics ?? {});
    return {
      digest_time: stored.digest_time ?? DEFAULT_DIGEST_TIME,
      digest_timezone: stored.digest_timezone ?? DEFAULT_DIGEST_TIMEZONE,
      digest_configured: Object.values(preferences).some((p) => p.email_frequency === 'daily'),
      email_address: contact.email,
      email_available: contact.email !== '',
      mutes: stored.mutes.map(toNotificationMute),
      preferences,
      topic_definitions: TOPIC_DEFINITIONS,
    };
  }

  /**
   * The sign-in address lives in accounts; asking it on every read doubled the
   * cost of E26, so it is kept for a short while (an email change shows within CONTACT_TTL_MS).
   */
  private async contact(userId: string): Promise<UserContact> {
    const cached = this.contacts.get(userId);
    if (cached) return cached;
    const contact = await this.rpc.send<UserContact>(AccountsPatterns.getContact, { userId } satisfies GetContactRequest);
    this.contacts.set(userId, contact, Date.now() + CONTACT_TTL_MS);
    return contact;
  }

  /** E25: the sent map replaces the stored one; topics left out return to their defaults. */
  async replace(userId: string, input: UpdatePreferencesRequest): Promise<NotificationPreferenceSettings> {
    const topics = this.checkTopics(input.preferences);
    if (input.digest_timezone !== undefined && !isIanaTimeZone(input.digest_timezone)) {
      throw problems.invalid('body.digest_timezone', 'must be an IANA time zone name such as Europe/Paris', input.digest_timezone);
    }
    // One atomic upsert: concurrent replaces of a new user's preferences cannot collide.
    await this.dataSource.query(UPSERT_PREFERENCES, [
      userId,
      input.digest_time ?? null,
      input.digest_timezone ?? null,
      JSON.stringify(topics),
      DEFAULT_DIGEST_TIME,
      DEFAULT_DIGEST_TIMEZONE,
    ]);
    return this.get(userId);
  }

  /** Shape and rules of each entry; every invalid entry is reported at once. */
  private checkTopics(map: Record<string, unknown>): Record<string, TopicPreference> {
    const errors: FieldError[] = [];
    const topics: Record<string, TopicPreference> = {};
    for (const [id, value] of Object.entries(map)) {
      const location = `body.preferences.${id}`;
      const definition = topicDefinition(id);
      if (!definition) {
        errors.push({ location, message: 'is not a known topic' });
        continue;
      }
      let preference: TopicPreference;
      try {
        preference = validateInput(TopicPreference, value, location);
      } catch (error) {
        if (!(error instanceof Problem)) throw error;
        errors.push(...(error.options.errors ?? []));
        continue;
      }
      if (definition.critical_in_app && !preference.in_app) {
        errors.push({ location: `${location}.in_app`, message: 'cannot be turned off for this topic', value: false });
      }
      if (!definition.email_frequencies.includes(preference.email_frequency)) {
        errors.push({
          location: `${location}.email_frequency`,
          message: `must be one of ${definition.email_frequencies.join(', ')} for this topic`,
          value: preference.email_frequency,
        });
      }
      topics[id] = { email_frequency: preference.email_frequency, in_app: preference.in_app };
    }
    if (errors.length > 0) throw problems.validation(errors, errors.map((e) => `${e.location} ${e.message}`).join('; ') + '.');
    return topics;
  }
}
