import {
  ACCOUNT_DISCONNECTED_SUBJECT,
  MEDIA_ITEM_ANALYSED_SUBJECT,
  PUBLICATION_PUBLISHED_SUBJECT,
  RENDITION_FAILED_SUBJECT,
} from '@social/contracts';
import { webhookEventOf } from './webhook-events.js';

const workspace = '0190f000-0000-7000-8000-000000000001';
const publication = '0190f000-0000-7000-8000-000000000002';
const rendition = '0190f000-0000-7000-8000-000000000003';
const item = '0190f000-0000-7000-8000-000000000004';

describe('webhookEventOf', () => {
  it('keys a rendition event by its publication, so one publication is sent in order', () => {
    const event = webhookEventOf(
      RENDITION_FAILED_SUBJECT,
      { workspace_id: workspace, publication_id: publication, rendition_id: rendition, occurred_at: '2026-01-01T00:00:00.000Z' },
      'evt-1',
    );
    expect(event).toEqual({
      type: 'rendition.failed',
      workspaceId: workspace,
      resource: { owner: 'publishing', kind: 'rendition', id: rendition },
      orderingKey: `publication:${publication}`,
      dedupeKey: 'evt-1',
      occurredAt: new Date('2026-01-01T00:00:00.000Z'),
    });
    const outcome = webhookEventOf(PUBLICATION_PUBLISHED_SUBJECT, { workspace_id: workspace, publication_id: publication }, 'evt-2');
    expect(outcome?.orderingKey).toBe(event?.orderingKey);
    expect(outcome?.type).toBe('publication.published');
  });

  it('makes media.ready of a ready, analysed item once per item', () => {
    const ready = { id: item, workspace_id: workspace, status: 'ready', analysis_status: 'ready' };
    expect(webhookEventOf(MEDIA_ITEM_ANALYSED_SUBJECT, ready, 'evt-3')?.dedupeKey).toBe(`media.ready:${item}`);
    expect(webhookEventOf(MEDIA_ITEM_ANALYSED_SUBJECT, { ...ready, analysis_status: 'pending' }, 'evt-4')).toBeNull();
    expect(webhookEventOf(MEDIA_ITEM_ANALYSED_SUBJECT, { ...ready, status: 'pending' }, 'evt-5')).toBeNull();
  });

  it('ignores subjects webhooks do not send and payloads it cannot read', () => {
    expect(webhookEventOf(ACCOUNT_DISCONNECTED_SUBJECT, { workspace_id: workspace }, 'evt-6')).toBeNull();
    expect(
      webhookEventOf(RENDITION_FAILED_SUBJECT, { workspace_id: 'nope', publication_id: publication, rendition_id: rendition }, 'e'),
    ).toBeNull();
    expect(webhookEventOf(RENDITION_FAILED_SUBJECT, null, 'evt-7')).toBeNull();
  });
});
