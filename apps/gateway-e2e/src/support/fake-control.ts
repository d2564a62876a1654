import { expect } from '@jest/globals';

/**
 * A client of one fake's control API (global setup starts the fakes and
 * exports their control URLs): `control(method, path, body?)` → the JSON
 * answer, failing the test on an error status.
 */
export function fakeControl(variable: string, what: string) {
  const controlUrl = (): string => {
    const url = process.env[variable];
    if (!url) throw new Error(`${variable} is not set: run the e2e suites through jest (global setup starts ${what}).`);
    return url;
  };
  return async (method: string, path: string, body?: unknown): Promise<any> => {
    const response = await fetch(`${controlUrl()}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.status).toBeLessThan(300);
    return response.json();
  };
}
