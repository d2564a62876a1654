import { describe, expect, it } from '@jest/globals';
import { ConfigError, loadConfig, setting } from './config.js';

describe('loadConfig', () => {
  const spec = {
    PORT: setting.int(1, 65535, 8080),
    NATS_URL: setting.url(['nats'], 'nats://127.0.0.1:4222'),
    DATABASE_URL: setting.url(['postgres']),
    LOG_LEVEL: setting.oneOf(['info', 'debug'] as const, 'info'),
  };

  it('applies defaults and keeps given values', () => {
    expect(loadConfig(spec, { DATABASE_URL: 'postgres://db/x/' })).toEqual({
      PORT: 8080,
      NATS_URL: 'nats://127.0.0.1:4222',
      DATABASE_URL: 'postgres://db/x',
      LOG_LEVEL: 'info',
    });
  });

  it('refuses to start naming every missing or malformed setting', () => {
    let error: unknown;
    try {
      loadConfig(spec, { PORT: '80a', NATS_URL: 'http://x', LOG_LEVEL: 'loud' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    for (const name of ['PORT', 'NATS_URL', 'DATABASE_URL', 'LOG_LEVEL']) expect(message).toContain(name);
  });

  it('accepts PEM keys with escaped newlines', () => {
    const pem = '-----BEGIN PUBLIC KEY-----\\nabc\\n-----END PUBLIC KEY-----';
    expect(loadConfig({ KEY: setting.pem('PUBLIC KEY') }, { KEY: pem }).KEY).toContain('\nabc\n');
    expect(() => loadConfig({ KEY: setting.pem('PUBLIC KEY') }, { KEY: 'not a key' })).toThrow(ConfigError);
  });
});
