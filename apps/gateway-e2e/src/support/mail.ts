import type { SinkMessage } from '@social/testing';

const mailUrl = (): string => {
  const url = process.env.E2E_MAIL_URL;
  if (!url) throw new Error('E2E_MAIL_URL is not set: run the e2e suites through jest (global setup starts the SMTP sink).');
  return url;
};

export type { SinkMessage };

/** Mails the sink has received for `to` so far, oldest first. */
export async function mailsTo(to: string): Promise<SinkMessage[]> {
  const response = await fetch(`${mailUrl()}/messages?to=${encodeURIComponent(to)}`);
  if (response.status !== 200) throw new Error(`mail sink answered ${response.status}`);
  return (await response.json()) as SinkMessage[];
}

/** The newest mail to `to` that satisfies `predicate`, waiting a few seconds for it to arrive. */
export async function waitForMail(
  to: string,
  predicate: (message: SinkMessage) => boolean = () => true,
  timeoutMs = 5_000,
): Promise<SinkMessage> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await mailsTo(to)).filter(predicate).at(-1);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} matching the predicate within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** While on, the sink refuses every recipient and message with a 5xx; always turn it off again (try/finally). */
export async function setMailRefusing(refuse: boolean): Promise<void> {
  const response = await fetch(`${mailUrl()}/refuse`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ refuse }),
  });
  if (response.status !== 200) throw new Error(`mail sink answered ${response.status}`);
}

export async function clearMail(): Promise<void> {
  await fetch(`${mailUrl()}/messages`, { method: 'DELETE' });
}

/**
 * Makes the sink refuse one recipient with `code` (550: permanently, 451: try again later),
 * or accept it again with `null`; other recipients are unaffected.
 */
export async function refuseAddress(address: string, code: number | null): Promise<void> {
  const response = await fetch(`${mailUrl()}/refuse-address`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ address, code }),
  });
  if (response.status !== 200) throw new Error(`mail sink answered ${response.status}`);
}
