import type { Schema } from '@social/sdk';
import { table } from './table.js';

type Publication = Schema<'PublicationResponse'>;
type Rendition = Schema<'Rendition'>;

/** `2026-05-01T09:00:00.000Z` → `2026-05-01 09:00Z`; "" stays "". */
export const shortTime = (time: string) => (time ? `${time.slice(0, 10)} ${time.slice(11, 16)}Z` : '');

export function publicationsTable(publications: Publication[]): string {
  return table(
    ['ID', 'STATUS', 'PROFILE', 'TITLE', 'SCHEDULED', 'UPDATED'],
    publications.map((p) => [
      p.id,
      p.status,
      p.content_profile,
      p.title || firstLine(p.source_text),
      shortTime(p.scheduled_at),
      shortTime(p.updated_at),
    ]),
  );
}

export function publicationDetail(publication: Publication, accountNames: Map<string, string> = new Map()): string {
  const p = publication;
  const lines = [
    `${p.id}  ${p.status}  revision ${p.revision}`,
    `profile:    ${p.content_profile}`,
    `title:      ${p.title}`,
    `text:       ${p.source_text.replace(/\n/g, '\n            ')}`,
    `scheduled:  ${p.scheduled_at || '-'}`,
    `media:      ${p.media.map((m) => `${m.original_filename} (${m.mime_type}, ${m.width}×${m.height})`).join(', ') || '-'}`,
  ];
  if (p.renditions.length) lines.push('', renditionsTable(p.renditions, accountNames));
  return lines.join('\n');
}

export function renditionsTable(renditions: Rendition[], accountNames: Map<string, string> = new Map()): string {
  return table(
    ['RENDITION', 'NETWORK', 'ACCOUNT', 'STATUS', 'DELIVERY', 'RESULT'],
    renditions.map((r) => [
      r.id,
      r.platform,
      accountNames.get(r.social_account_id) ?? r.social_account_id,
      r.status,
      r.delivery.state,
      resultOf(r),
    ]),
  );
}

/** Where it went live, or why it failed. */
export function resultOf(rendition: Rendition): string {
  if (rendition.external_url || rendition.delivery.external_url) return rendition.external_url || rendition.delivery.external_url;
  if (rendition.error_message) return `${rendition.error_code}: ${rendition.error_message}`;
  return rendition.delivery.terminal_reason || rendition.error_code;
}

export function accountsTable(accounts: Schema<'SocialAccount'>[]): string {
  return table(
    ['ID', 'NETWORK', 'USERNAME', 'NAME', 'STATUS'],
    accounts.map((a) => [a.id, a.platform, a.username, a.display_name, a.status]),
  );
}

export function workspacesTable(workspaces: Schema<'Workspace'>[], current: string | undefined): string {
  return table(
    ['', 'ID', 'NAME', 'ROLE', 'ORGANIZATION'],
    workspaces.map((w) => [w.id === current ? '*' : '', w.id, w.name, w.role, w.organization_id]),
  );
}

export function previewText(preview: Schema<'PublicationPreview'>, accountNames: Map<string, string> = new Map()): string {
  const blocks = preview.renditions.map((rendition) => {
    const who = accountNames.get(rendition.social_account_id) ?? rendition.social_account_id;
    const lines = [`── ${rendition.platform} ${who}: ${rendition.parts.length} part${rendition.parts.length === 1 ? '' : 's'}`];
    rendition.parts.forEach((part, index) => {
      lines.push(`[${index + 1}] ${part.text}`);
      for (const media of part.media)
        lines.push(
          `    + ${media.mime_type} ${media.width}×${media.height}, ${media.size} bytes${media.alt_text ? `: ${media.alt_text}` : ''}`,
        );
    });
    for (const problem of rendition.problems) lines.push(`  ! ${problem.location}: ${problem.message}`);
    if (!rendition.problems.length) lines.push("  ok: within the network's rules");
    return lines.join('\n');
  });
  return blocks.join('\n\n');
}

/** `@alice` per account id, for tables that would otherwise show UUIDs. */
export function accountNamesOf(accounts: Schema<'SocialAccount'>[]): Map<string, string> {
  return new Map(accounts.map((a) => [a.id, `@${a.username}`]));
}

const firstLine = (text: string) => text.split('\n', 1)[0];

/** `1 rendition`, `2 renditions`. */
export const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;
