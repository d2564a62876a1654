import type { HttpMethod } from './operation-input.js';

/**
 * - `read`: answers data, changes nothing.
 * - `preview`: changes nothing, and is remembered by the session: what a `guarded` write needs first.
 * - `write`: changes something; needs `idempotency_key`.
 */
export type ToolKind = 'read' | 'preview' | 'write';

export interface ToolDefinition {
  name: string;
  title: string;
  method: HttpMethod;
  path: string;
  kind: ToolKind;
  /** A write that sends the publication out: allowed only after a preview of the same revision and targets. */
  guarded?: boolean;
  /** Only these body members of the operation (a narrower tool over the same operation). */
  bodyMembers?: readonly string[];
  /** What the operation's summary does not say and an agent needs. */
  note?: string;
}

/** The operations an agent needs to draft and schedule safely; descriptions and schemas come from the OpenAPI document. */
export const TOOL_CATALOGUE: readonly ToolDefinition[] = [
  { name: 'list_workspaces', title: 'List workspaces', method: 'get', path: '/workspaces', kind: 'read' },
  { name: 'list_social_accounts', title: 'List social accounts', method: 'get', path: '/social-accounts', kind: 'read' },
  { name: 'list_social_sets', title: 'List social sets', method: 'get', path: '/social-sets', kind: 'read' },
  { name: 'list_publications', title: 'List publications', method: 'get', path: '/publications', kind: 'read' },
  { name: 'get_publication', title: 'Show a publication', method: 'get', path: '/publications/{id}', kind: 'read' },
  { name: 'list_deliveries', title: 'List delivery attempts', method: 'get', path: '/publications/{id}/deliveries', kind: 'read' },
  { name: 'list_media', title: 'List the media library', method: 'get', path: '/media', kind: 'read' },
  { name: 'create_draft', title: 'Create a draft', method: 'post', path: '/publications', kind: 'write' },
  { name: 'update_draft', title: 'Change a draft', method: 'patch', path: '/publications/{id}', kind: 'write' },
  {
    name: 'attach_media',
    title: 'Attach media from the library',
    method: 'patch',
    path: '/publications/{id}',
    kind: 'write',
    bodyMembers: ['expected_revision', 'media'],
    note: 'Attach items of the workspace media library (list_media) by their id; the list replaces what is attached.',
  },
  {
    name: 'preview_publication',
    title: 'Preview a publication',
    method: 'post',
    path: '/publications/{id}/preview',
    kind: 'preview',
    note: 'Show the preview to the person before scheduling: schedule_publication and publish_now need it first.',
  },
  {
    name: 'schedule_publication',
    title: 'Schedule a publication',
    method: 'post',
    path: '/publications/{id}/schedule',
    kind: 'write',
    guarded: true,
  },
  {
    name: 'publish_now',
    title: 'Publish a publication now',
    method: 'post',
    path: '/publications/{id}/publish-now',
    kind: 'write',
    guarded: true,
  },
  { name: 'cancel_publication', title: 'Cancel a scheduled publication', method: 'post', path: '/publications/{id}/cancel', kind: 'write' },
];

/** Why guarded writes exist, as the tools say it. */
export const GUARD_RULE =
  'Only after preview_publication of the same publication at the same revision with the same targets ' +
  '(social_set_id or account_ids, or neither) in this session; expected_revision is that revision.';
