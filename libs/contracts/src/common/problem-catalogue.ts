/**
 * Every problem `code` the platform answers, with its HTTP status and what it means. `Problem` (libs/platform) takes
 * only these codes, each with its own status, so a new refusal is added here first; the OpenAPI document and
 * docs/problems.md are generated from this table.
 */
export const PROBLEM_CATALOGUE = {
  // 400: the request cannot be read.
  bad_request: { status: 400, meaning: 'The request cannot be read (a malformed header or parameter).' },
  malformed_body: { status: 400, meaning: 'The body is empty, its length does not match, or it is not a JSON object.' },
  malformed_json: { status: 400, meaning: 'The body is not valid JSON.' },
  malformed_url: { status: 400, meaning: 'The request path is not a valid URL.' },

  // 401: who is calling is not known.
  unauthenticated: { status: 401, meaning: 'A bearer token is required.' },
  invalid_token: { status: 401, meaning: 'The bearer token (or a one-time token) is malformed, expired or not ours.' },
  token_revoked: { status: 401, meaning: 'The session or API token was revoked.' },
  invalid_credentials: { status: 401, meaning: 'The email or password is wrong.' },
  invalid_refresh_token: { status: 401, meaning: 'The refresh token is unknown, used already or expired.' },
  reauth_required: { status: 401, meaning: 'The operation needs a recent re-authentication.' },
  passkey_challenge_invalid: { status: 401, meaning: 'The passkey challenge is unknown, used already or expired.' },
  caller_unauthenticated: { status: 401, meaning: "A message on the bus carried no valid caller token (services' own check)." },

  // 403: known, but not allowed.
  admin_required: { status: 403, meaning: 'Only an instance administrator may do this.' },
  workspace_token_forbidden: { status: 403, meaning: 'A workspace-bound API token cannot be used for this operation.' },
  session_required: { status: 403, meaning: 'The operation needs a signed-in session, not an API token.' },
  workspace_forbidden: { status: 403, meaning: 'The caller is not a member of the workspace named in the request.' },
  organization_forbidden: { status: 403, meaning: 'The caller is not a member of the organization named in the request.' },
  insufficient_role: { status: 403, meaning: "The caller's role in the workspace or organization does not allow this." },
  owner_only: { status: 403, meaning: 'Only the organization owner may do this.' },
  registration_disabled: { status: 403, meaning: 'The instance does not accept new registrations.' },
  public_url_invalid: { status: 403, meaning: "The public media link's signature does not match." },
  upload_token_invalid: { status: 403, meaning: "The upload URL's token is not valid for this upload session." },

  // 404
  not_found: { status: 404, meaning: 'The resource does not exist, or the caller may not see it.' },
  account_not_found: { status: 404, meaning: 'The social account does not exist (an internal provider call).' },

  // 409: the resource is not in a state that allows it.
  conflict: { status: 409, meaning: 'The request conflicts with data that already exists.' },
  revision_conflict: { status: 409, meaning: 'expected_revision is stale; the body carries current_revision.' },
  concurrent_update: { status: [409, 503], meaning: 'The request collided with another one changing the same data; try again.' },
  idempotency_in_flight: { status: 409, meaning: 'A request with the same Idempotency-Key is still being processed.' },
  invalid_transition: { status: 409, meaning: "The publication's or rendition's status does not allow this transition." },
  publication_not_editable: { status: 409, meaning: 'Only draft and scheduled publications can be changed.' },
  publication_publishing: { status: 409, meaning: 'The publication is being published and cannot be deleted now.' },
  provider_capability_unavailable: { status: 409, meaning: 'The network of a target account cannot publish this (yet).' },
  account_already_connected: { status: 409, meaning: 'The social account is connected in another workspace.' },
  account_delivering: { status: 409, meaning: 'The social account has a delivery in progress.' },
  already_following: { status: 409, meaning: 'The account already follows this suggestion.' },
  already_member: { status: 409, meaning: 'The invited person is already a member of the workspace.' },
  invitation_pending: { status: 409, meaning: 'An invitation for this email is already pending.' },
  invitation_not_acceptable: { status: 409, meaning: 'The invitation was accepted, revoked or expired.' },
  invitation_not_resendable: { status: 409, meaning: 'Only a pending invitation can be sent again.' },
  invitation_not_revocable: { status: 409, meaning: 'Only a pending invitation can be revoked.' },
  owner_cannot_leave: { status: 409, meaning: 'The organization owner cannot leave it.' },
  owner_role_fixed: { status: 409, meaning: "The organization owner's role cannot be changed." },
  deletion_blocked: { status: 409, meaning: 'The organization has work in progress that blocks its deletion.' },
  duplicate_name: { status: 409, meaning: 'Another resource of this kind in the workspace has that name.' },
  workspace_name_taken: { status: 409, meaning: 'Another workspace of the organization has that name.' },
  email_taken: { status: 409, meaning: 'An account with this email exists.' },
  username_taken: { status: 409, meaning: 'Another account has this username.' },
  email_unavailable: { status: 409, meaning: 'The new email cannot be used.' },
  email_change_expired: { status: 409, meaning: 'The email change expired.' },
  email_change_not_pending: { status: 409, meaning: 'The email change was confirmed or cancelled already.' },
  code_locked: { status: 409, meaning: 'Too many wrong codes: the email change is locked.' },
  passkey_exists: { status: 409, meaning: 'This passkey is registered already.' },
  managed_by_environment: { status: 409, meaning: "The provider app is set by the instance's environment and cannot be changed here." },
  template_built_in: { status: 409, meaning: 'Built-in templates cannot be deleted.' },
  project_trashed: { status: 409, meaning: 'The video project is in the trash.' },
  project_asset_not_pending: { status: 409, meaning: 'The project asset is no longer waiting for its upload.' },
  project_asset_upload_exists: { status: 409, meaning: 'The project asset already has an upload session.' },
  media_in_use: { status: 409, meaning: 'The media item is attached to a publication.' },
  media_is_poster: { status: 409, meaning: "The media item is a video's poster frame." },
  media_not_ready: { status: 409, meaning: 'The media item is not ready yet.' },
  media_of_project_asset: { status: 409, meaning: 'The media item belongs to a video project asset.' },
  upload_incomplete: { status: 409, meaning: 'The upload has not received every byte yet.' },
  upload_session_completed: { status: 409, meaning: 'The upload session is completed already.' },
  too_many_api_tokens: { status: 409, meaning: 'The account has as many API tokens as allowed.' },
  too_many_invitations: { status: 409, meaning: 'The workspace has as many pending invitations as allowed.' },
  too_many_media_tags: { status: 409, meaning: 'The workspace has as many media tags as allowed.' },
  too_many_mutes: { status: 409, meaning: 'The account has as many mutes as allowed.' },
  too_many_organizations: { status: 409, meaning: 'The account owns as many organizations as allowed.' },
  too_many_project_assets: { status: 409, meaning: 'The video project has as many assets as allowed.' },
  too_many_social_sets: { status: 409, meaning: 'The workspace has as many social sets as allowed.' },
  too_many_templates: { status: 409, meaning: 'The workspace has as many templates as allowed.' },
  too_many_voice_profiles: { status: 409, meaning: 'The workspace has as many voice profiles as allowed.' },
  too_many_webhooks: { status: 409, meaning: 'The workspace has as many webhooks as allowed.' },
  too_many_workspaces: { status: 409, meaning: 'The organization has as many workspaces as allowed.' },
  webhook_inactive: { status: 409, meaning: 'The webhook is not active (paused or deactivated): activate it first.' },

  // 410, 413–416
  public_url_expired: { status: 410, meaning: 'The public media link expired.' },
  upload_session_expired: { status: 410, meaning: 'The upload session expired.' },
  body_too_large: { status: 413, meaning: 'The request body (or a message it makes) is larger than allowed.' },
  media_too_large: { status: 413, meaning: 'The upload is larger than its media type allows.' },
  uri_too_long: { status: 414, meaning: 'A path segment is longer than any identifier we issue.' },
  unsupported_media_type: { status: 415, meaning: 'Request bodies must be sent as application/json.' },
  range_not_satisfiable: { status: 416, meaning: 'The Range header asks for bytes the content does not have.' },

  // 422: the request is well-formed but its values are not acceptable.
  validation_failed: { status: 422, meaning: 'Members of the request are invalid; `errors` lists each location and why.' },
  network_rules: { status: 422, meaning: "A target network's rules refuse the text or media; `errors` names each problem." },
  invalid_value: { status: 422, meaning: 'A value in the request cannot be stored.' },
  idempotency_key_reused: { status: 422, meaning: 'The Idempotency-Key was used with a different request.' },
  invalid_code: { status: 422, meaning: 'The confirmation code is wrong.' },
  invalid_password: { status: 422, meaning: 'The current password is wrong.' },
  oauth_code_rejected: { status: 422, meaning: "The network refused the connection's authorization code." },
  oauth_state_invalid: { status: 422, meaning: "The connection's state is unknown, used already or expired." },
  provider_account_unavailable: { status: 422, meaning: 'The network did not tell which account was connected.' },
  provider_credentials_rejected: { status: 422, meaning: 'The network refused the credentials.' },
  provider_not_configured: { status: 422, meaning: 'No provider app is configured for this network.' },
  render_budget_exceeded: { status: 422, meaning: 'The design is too costly to render.' },
  storage_quota_exceeded: { status: 422, meaning: "The upload would exceed the workspace's storage quota." },

  // 429
  rate_limited: { status: 429, meaning: 'Too many requests; Retry-After says when to try again.' },
  too_many_upload_sessions: { status: 429, meaning: 'The workspace has as many open upload sessions as allowed.' },

  // 5xx: ours or a dependency's; Retry-After where a retry may succeed.
  internal_error: { status: 500, meaning: 'An unexpected error; it has been logged.' },
  ai_invalid_output: { status: 502, meaning: 'The AI provider answered something unusable.' },
  ai_provider_error: { status: 502, meaning: 'The AI provider refused or failed the request.' },
  provider_unavailable: { status: 502, meaning: 'The social network failed the request.' },
  ai_not_configured: { status: 503, meaning: 'No AI provider is configured on this instance.' },
  database_unavailable: { status: 503, meaning: 'The database is not reachable right now.' },
  email_unavailable_delivery: { status: 503, meaning: 'Mail cannot be sent right now.' },
  messaging_unavailable: { status: 503, meaning: 'The message bus is not reachable right now.' },
  service_unavailable: { status: 503, meaning: 'The service that owns the operation is not answering.' },
  not_ready: { status: 503, meaning: 'The gateway or a service it needs is not ready.' },
  passkeys_unavailable: { status: 503, meaning: 'Passkeys are not configured on this instance.' },
  public_url_unavailable: { status: 503, meaning: 'Public media links are not configured on this instance.' },
  render_busy: { status: 503, meaning: 'The renderer is busy; try again shortly.' },
  storage_unavailable: { status: 503, meaning: 'Media storage is not reachable right now.' },
  ai_timeout: { status: 504, meaning: 'The AI provider did not answer in time.' },
  provider_timeout: { status: 504, meaning: 'The social network did not answer in time.' },
  upstream_timeout: { status: 504, meaning: 'The service that owns the operation did not answer in time.' },
  storage_full: { status: 507, meaning: 'Media storage is full.' },
} as const satisfies Record<string, { status: number | readonly number[]; meaning: string }>;

export type ProblemCode = keyof typeof PROBLEM_CATALOGUE;

type StatusesOf<C extends ProblemCode> = (typeof PROBLEM_CATALOGUE)[C]['status'] extends infer S
  ? S extends readonly number[]
    ? S[number]
    : S
  : never;

/** The codes answered with `status`: `problems.conflict(code: ProblemCodeWith<409>, …)`. */
export type ProblemCodeWith<Status extends number> = { [C in ProblemCode]: Status extends StatusesOf<C> ? C : never }[ProblemCode];

/** The statuses a code may be answered with. */
export function statusesOf(code: ProblemCode): readonly number[] {
  const status: number | readonly number[] = PROBLEM_CATALOGUE[code].status;
  return typeof status === 'number' ? [status] : status;
}
