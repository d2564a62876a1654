import { describe, expect, it } from '@jest/globals';
import { SETTINGS_REGISTRY, settingDefinition, settingValueError } from '@social/contracts';
import { InstanceSettings, invalidEnvironment, resolveSetting } from './instance-settings.js';

describe('instance settings registry', () => {
  it('has unique keys whose defaults are valid values of their own type', () => {
    expect(new Set(SETTINGS_REGISTRY.map((s) => s.key)).size).toBe(SETTINGS_REGISTRY.length);
    for (const definition of SETTINGS_REGISTRY) expect({ key: definition.key, error: settingValueError(definition, definition.default) }).toEqual({ key: definition.key, error: undefined });
  });

  it('checks values by type (strings in every type; "" only for optional settings)', () => {
    const check = (key: string, value: string) => settingValueError(settingDefinition(key)!, value);
    expect(check('registration_enabled', 'true')).toBeUndefined();
    expect(check('registration_enabled', 'yes')).toBeDefined();
    expect(check('registration_enabled', '')).toBeDefined();
    expect(check('rate_limit_login_per_ip', '25')).toBeUndefined();
    expect(check('rate_limit_login_per_ip', '2.5')).toBeDefined();
    expect(check('rate_limit_login_per_ip', '0')).toBeDefined();
    expect(check('ai_base_url', 'https://api.example.com/v1')).toBeUndefined();
    expect(check('ai_base_url', 'ftp://x')).toBeDefined();
    expect(check('ai_base_url', '')).toBeUndefined();
    expect(check('smtp_from', 'noreply@example.com')).toBeUndefined();
    expect(check('smtp_from', 'noreply')).toBeDefined();
    expect(check('media_storage_driver', 's3')).toBeUndefined();
    expect(check('media_storage_driver', 'disk')).toBeDefined();
    expect(check('media_allowed_mime_types', 'image/png, image/gif')).toBeUndefined();
    expect(check('media_allowed_mime_types', 'image/png,,')).toBeDefined();
    expect(check('ai_api_key', '   ')).toBeDefined();
  });

  it('resolves database over environment over default, skipping invalid environment values', () => {
    const definition = settingDefinition('rate_limit_login_per_ip')!;
    expect(resolveSetting(definition, {}, {})).toEqual({ value: '20', source: 'default' });
    expect(resolveSetting(definition, {}, { RATE_LIMIT_LOGIN_PER_IP: '30' })).toEqual({ value: '30', source: 'environment' });
    expect(resolveSetting(definition, { rate_limit_login_per_ip: '40' }, { RATE_LIMIT_LOGIN_PER_IP: '30' })).toEqual({ value: '40', source: 'database' });
    expect(resolveSetting(definition, {}, { RATE_LIMIT_LOGIN_PER_IP: 'lots' })).toEqual({ value: '20', source: 'default' });
    expect(invalidEnvironment({ RATE_LIMIT_LOGIN_PER_IP: 'lots', AI_MODEL: 'gpt' })).toEqual([expect.stringMatching(/^RATE_LIMIT_LOGIN_PER_IP /)]);
  });

  it('reads typed values', () => {
    const settings = InstanceSettings.fromOverrides({ registration_enabled: 'false', media_allowed_mime_types: 'image/png, image/gif' }, { RATE_LIMIT_LOGIN_PER_IP: '7' });
    expect(settings.boolean('registration_enabled')).toBe(false);
    expect(settings.boolean('sandbox_provider_enabled')).toBe(true);
    expect(settings.integer('rate_limit_login_per_ip')).toBe(7);
    expect(settings.list('media_allowed_mime_types')).toEqual(['image/png', 'image/gif']);
    expect(settings.list('s3_bucket')).toEqual([]);
    expect(settings.string('ai_model')).toBe('');
  });
});
