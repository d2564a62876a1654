import type { OutgoingNotification } from '../delivery/outgoing-notification.js';

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** A relative link is a path of the app; a network's URL stays as it is. */
export const absoluteLink = (link: string, publicAppUrl: string) => (link.startsWith('/') ? `${publicAppUrl}${link}` : link);

const FOOTER = 'You receive this because of your notification preferences (GET /notifications/preferences).';

/** One notification as a mail: a plain-text part and an HTML part saying the same. */
export function renderImmediateMail(message: Pick<OutgoingNotification, 'title' | 'body' | 'link'>, publicAppUrl: string): MailContent {
  const link = message.link ? absoluteLink(message.link, publicAppUrl) : '';
  const text = [message.body, link ? `\n${link}` : '', `\n\n-- \n${FOOTER}\n`].join('');
  const html =
    `<!doctype html><html><body><h1>${escapeHtml(message.title)}</h1><p>${escapeHtml(message.body)}</p>` +
    (link ? `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>` : '') +
    `<hr><p><small>${escapeHtml(FOOTER)}</small></p></body></html>`;
  return { subject: message.title, text, html };
}

export interface DigestLine {
  title: string;
  body: string;
  link: string;
}

/** A day's digest: one section per item, oldest first. */
export function renderDigestMail(lines: DigestLine[], localDate: string, publicAppUrl: string): MailContent {
  const subject = `Your daily digest for ${localDate}: ${lines.length} notification${lines.length === 1 ? '' : 's'}`;
  const text =
    lines.map((line) => `* ${line.title}\n  ${line.body}${line.link ? `\n  ${absoluteLink(line.link, publicAppUrl)}` : ''}`).join('\n\n') +
    `\n\n-- \n${FOOTER}\n`;
  const html =
    `<!doctype html><html><body><h1>${escapeHtml(subject)}</h1><ul>` +
    lines
      .map((line) => {
        const link = line.link ? absoluteLink(line.link, publicAppUrl) : '';
        const linkHtml = link ? `<br><a href="${escapeHtml(link)}">${escapeHtml(link)}</a>` : '';
        return `<li><strong>${escapeHtml(line.title)}</strong><br>${escapeHtml(line.body)}${linkHtml}</li>`;
      })
      .join('') +
    `</ul><hr><p><small>${escapeHtml(FOOTER)}</small></p></body></html>`;
  return { subject, text, html };
}
