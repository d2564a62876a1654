import type { FakeAiReply, FakeAiRequest } from '@social/testing';

export type { FakeAiReply, FakeAiRequest };

const aiUrl = (): string => {
  const url = process.env.E2E_AI_URL;
  if (!url) throw new Error('E2E_AI_URL is not set: run the e2e suites through jest (global setup starts the fake AI provider).');
  return url;
};

/** The bearer key the stack sends to the fake provider (AI_API_KEY of the e2e stack). */
export const aiApiKey = (): string => process.env.E2E_AI_API_KEY ?? '';

/**
 * Queues replies of the fake provider, used once each, oldest first. Give each
 * a `match` (a marker in the request, e.g. in the idea) so a reply can only
 * answer the test that queued it.
 */
export async function queueAiReplies(...replies: FakeAiReply[]): Promise<void> {
  const response = await fetch(`${aiUrl()}/replies`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ replies }),
  });
  if (response.status !== 200) throw new Error(`fake AI answered ${response.status}`);
}

/** Chat-completion requests the fake provider received whose body contains `match`, oldest first. */
export async function aiRequests(match: string): Promise<FakeAiRequest[]> {
  const response = await fetch(`${aiUrl()}/requests?match=${encodeURIComponent(match)}`);
  if (response.status !== 200) throw new Error(`fake AI answered ${response.status}`);
  return (await response.json()) as FakeAiRequest[];
}
