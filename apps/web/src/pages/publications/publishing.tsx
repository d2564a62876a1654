import { unwrap, type PlatformClient, type Schema } from '@social/sdk';

export type Publication = Schema<'PublicationResponse'>;
export type Rendition = Schema<'Rendition'>;
export type SocialAccount = Schema<'SocialAccount'>;
export type PublicationStatus = Publication['status'];

/** Where a publication sits in time: when it went out, else when it is due ("" for an unscheduled draft). */
export function publicationTime(publication: Publication): string {
  return publication.actual_run_at || publication.scheduled_at;
}

/** Only these can still be moved to another time (the schedule operation refuses the others). */
export const canReschedule = (publication: Publication) => publication.status === 'scheduled';

/** Every publication of the workspace whose time is in [from, to), following the list's cursors. */
export async function publicationsBetween(
  api: PlatformClient,
  workspaceId: string,
  from: Date,
  to: Date,
  signal?: AbortSignal,
): Promise<Publication[]> {
  const all: Publication[] = [];
  let cursor: string | undefined;
  do {
    const page = await unwrap(
      api.GET('/publications', {
        params: { query: { workspace_id: workspaceId, from: from.toISOString(), to: to.toISOString(), limit: 100, cursor } },
        signal,
      }),
    );
    all.push(...page.publications);
    cursor = page.next_cursor || undefined;
  } while (cursor);
  return all;
}

/** Moves a scheduled publication to `at`, keeping its targets; answers the publication as it now is. */
export function reschedule(api: PlatformClient, publication: Publication, at: Date): Promise<Publication> {
  return unwrap(
    api.POST('/publications/{id}/schedule', {
      params: { path: { id: publication.id } },
      body: { expected_revision: publication.revision, scheduled_at: at.toISOString() },
    }),
  );
}

export async function accountsOf(api: PlatformClient, workspaceId: string, signal?: AbortSignal): Promise<SocialAccount[]> {
  return (await unwrap(api.GET('/social-accounts', { params: { query: { workspace_id: workspaceId } }, signal }))).accounts;
}

/** A `datetime-local` input's value for `date` in the browser's time zone. */
export function toLocalInput(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A `datetime-local` value read in the browser's time zone; null when empty or not a time. */
export function fromLocalInput(value: string): Date | null {
  const date = new Date(value);
  return value && !Number.isNaN(date.getTime()) ? date : null;
}

export const formatTime = (iso: string) =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : 'Not scheduled';

export const STATUS_LABELS: Record<PublicationStatus, string> = {
  draft: 'Draft',
  ready: 'Ready',
  scheduled: 'Scheduled',
  publishing: 'Publishing',
  published: 'Published',
  failed: 'Failed',
};

/** A short name for the list and the calendar: the title, else the start of the text. */
export function publicationName(publication: Publication): string {
  const text = publication.title || publication.segments[0]?.body || publication.source_text;
  const line = text.split('\n')[0].trim();
  return line.length > 60 ? `${line.slice(0, 57)}…` : line || 'Untitled';
}

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge status-${status}`}>{STATUS_LABELS[status as PublicationStatus] ?? status}</span>;
}
