/**
 * How large documents and replies may be. Every request and reply crosses NATS whole, so these follow
 * from one number: the message size the platform's NATS is configured for.
 */

/** The NATS message size the platform needs (`max_payload: 8MB`; nats-server's default is 1 MiB). */
export const PLATFORM_NATS_MAX_PAYLOAD_BYTES = 8 * 1024 * 1024;

/**
 * Editor and video documents (docs/decisions.md: 5 MiB): the gateway's `DOCUMENT_BODY_LIMIT_BYTES` default
 * and the most a stored document may hold as JSON (422 at `body.document` beyond). A reply carrying one
 * still fits a message.
 */
export const DOCUMENT_MAX_BYTES = 5 * 1024 * 1024;

/**
 * What the documents of one list reply may add up to: half a message, so the rest of the reply and its
 * envelope always fit. A page stops early once it would pass it (its first item always goes).
 */
export const DOCUMENT_LIST_BUDGET_BYTES = PLATFORM_NATS_MAX_PAYLOAD_BYTES / 2;
