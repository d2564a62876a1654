import { describe, expect, it } from '@jest/globals';
import { MailDeliveryError } from '@social/platform';
import { isPermanentRefusal, retryDelayMs } from './email-sender.js';
import { renderDigestMail, renderImmediateMail } from './mail-content.js';

describe('notification mail', () => {
  it('says the same in text and HTML, escapes HTML, and makes app links absolute', () => {
    const mail = renderImmediateMail(
      { title: 'Failed <b>now</b>', body: 'Tom & "Jerry"', link: '/publications/42' },
      'https://app.example',
    );
    expect(mail.subject).toBe('Failed <b>now</b>');
    expect(mail.text).toContain('Tom & "Jerry"');
    expect(mail.text).toContain('https://app.example/publications/42');
    expect(mail.html).toContain('<h1>Failed &lt;b&gt;now&lt;/b&gt;</h1>');
    expect(mail.html).toContain('Tom &amp; &quot;Jerry&quot;');
    expect(mail.html).toContain('<a href="https://app.example/publications/42">');
    // A network's own URL stays as it is; no link, no anchor.
    expect(renderImmediateMail({ title: 't', body: 'b', link: 'https://x.example/p/1' }, 'https://app.example').text).toContain(
      'https://x.example/p/1\n',
    );
    expect(renderImmediateMail({ title: 't', body: 'b', link: '' }, 'https://app.example').html).not.toContain('<a ');
  });

  it('counts the digest lines in the subject and lists each one', () => {
    const mail = renderDigestMail(
      [
        { title: 'One', body: 'first', link: '/a' },
        { title: 'Two', body: 'second', link: '' },
      ],
      '2026-11-25',
      'https://app.example',
    );
    expect(mail.subject).toBe('Your daily digest for 2026-11-25: 2 notifications');
    expect(mail.text).toMatch(/\* One\n {2}first\n {2}https:\/\/app\.example\/a\n\n\* Two\n {2}second/);
    expect(mail.html.match(/<li>/g)).toHaveLength(2);
    expect(renderDigestMail([{ title: 'x', body: 'y', link: '' }], '2026-11-25', '').subject).toMatch(/: 1 notification$/);
  });
});

describe('mail retries', () => {
  it('doubles the delay per attempt with ±20 % jitter, capped at an hour', () => {
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      const delay = retryDelayMs(attempt, 1_000);
      const nominal = 1_000 * 2 ** (attempt - 1);
      expect(delay).toBeGreaterThanOrEqual(nominal * 0.8);
      expect(delay).toBeLessThanOrEqual(nominal * 1.2);
    }
    expect(retryDelayMs(60, 30_000)).toBeLessThanOrEqual(3_600_000 * 1.2);
  });

  it('treats only a 5xx refusal as permanent', () => {
    expect(isPermanentRefusal(new MailDeliveryError('refused', 'no such user', 550))).toBe(true);
    expect(isPermanentRefusal(new MailDeliveryError('refused', 'try later', 451))).toBe(false);
    expect(isPermanentRefusal(new MailDeliveryError('refused', 'no code'))).toBe(false);
    expect(isPermanentRefusal(new MailDeliveryError('unreachable', 'down'))).toBe(false);
    expect(isPermanentRefusal(new MailDeliveryError('not_configured', 'unset'))).toBe(false);
    expect(isPermanentRefusal(new Error('other'))).toBe(false);
  });
});
