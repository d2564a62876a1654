import { describe, expect, it } from '@jest/globals';
import { InstanceSettings, MailSettings } from '../index.js';

describe('mail settings (smtp_url, smtp_from, public_app_url)', () => {
  const from = (overrides: Record<string, string>, env: NodeJS.ProcessEnv) =>
    MailSettings.from(InstanceSettings.fromOverrides(overrides, env));

  it('take the database override over the environment', () => {
    const settings = from(
      { smtp_url: 'smtp://db.example.com:25', smtp_from: 'db@example.com', public_app_url: 'https://app.example.com/' },
      { SMTP_URL: 'smtp://env.example.com:25', SMTP_FROM: 'env@example.com', PUBLIC_APP_URL: 'https://env.example.com' },
    );
    expect(settings).toEqual({ smtpUrl: 'smtp://db.example.com:25', smtpFrom: 'db@example.com', publicAppUrl: 'https://app.example.com' });
  });

  it('take the environment over the defaults (the dev runner passes its sink as SMTP_URL)', () => {
    const settings = from(
      {},
      { SMTP_URL: 'smtp://127.0.0.1:2525', SMTP_FROM: 'Platform <no-reply@example.com>', PUBLIC_APP_URL: 'https://env.example.com' },
    );
    expect(settings).toEqual({
      smtpUrl: 'smtp://127.0.0.1:2525',
      smtpFrom: 'Platform <no-reply@example.com>',
      publicAppUrl: 'https://env.example.com',
    });
  });

  it('fall back to PUBLIC_BASE_URL, then to the defaults', () => {
    expect(from({}, { PUBLIC_BASE_URL: 'https://api.example.com' }).publicAppUrl).toBe('https://api.example.com');
    expect(from({}, {})).toEqual({
      smtpUrl: undefined,
      smtpFrom: 'Social Platform <no-reply@localhost>',
      publicAppUrl: 'http://localhost:8080',
    });
  });

  it('treat an smtp_url that is not smtp(s) as not configured, and "" as none over the environment', () => {
    expect(from({ smtp_url: 'https://mail.example.com' }, {}).smtpUrl).toBeUndefined();
    expect(from({ smtp_url: '' }, { SMTP_URL: 'smtp://env.example.com:25' }).smtpUrl).toBeUndefined();
  });
});
