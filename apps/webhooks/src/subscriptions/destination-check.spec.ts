import { Problem } from '@social/platform';
import type { WebhooksConfig } from '../config.js';
import { DestinationCheck } from './destination-check.js';

const check = (allowed: string[] = [], answers: Record<string, string[]> = {}) => {
  const destinations = new DestinationCheck({ WEBHOOK_ALLOWED_ORIGINS: allowed } as unknown as WebhooksConfig);
  destinations.resolve = async (host) => (answers[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  return destinations;
};

async function refusal(destinations: DestinationCheck, url: string): Promise<string> {
  try {
    await destinations.check(url);
  } catch (error) {
    expect(error).toBeInstanceOf(Problem);
    const problem = error as Problem;
    expect(problem.status).toBe(422);
    return problem.detail;
  }
  throw new Error(`${url} was accepted`);
}

describe('DestinationCheck', () => {
  it('accepts https on public addresses and names resolving only to public ones', async () => {
    const destinations = check([], { 'hooks.example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'] });
    await expect(destinations.check('https://hooks.example.com/in?x=1')).resolves.toBe('https://hooks.example.com/in?x=1');
    await expect(destinations.check('https://93.184.215.14:8443/in')).resolves.toBe('https://93.184.215.14:8443/in');
  });

  it('refuses http, credentials, private and loopback literals, private names and names resolving to private addresses', async () => {
    const destinations = check([], { 'rebind.example.com': ['93.184.215.14', '10.0.0.7'] });
    expect(await refusal(destinations, 'http://hooks.example.com/in')).toMatch(/https/);
    expect(await refusal(destinations, 'https://user:pw@hooks.example.com/in')).toMatch(/credentials/);
    for (const url of [
      'https://127.0.0.1/',
      'https://[::1]/',
      'https://169.254.169.254/',
      'https://[::ffff:10.0.0.1]/',
      'https://localhost/',
    ]) {
      expect(await refusal(destinations, url)).toMatch(/loopback, private or link-local/);
    }
    expect(await refusal(destinations, 'https://printer.local/')).toMatch(/private/);
    expect(await refusal(destinations, 'https://rebind.example.com/')).toMatch(/resolve to/);
    expect(await refusal(destinations, '::not a url')).toMatch(/absolute https URL/);
  });

  it('lets WEBHOOK_ALLOWED_ORIGINS through, plain http and loopback included, and nothing else on that host', async () => {
    const destinations = check(['http://127.0.0.1:4100']);
    await expect(destinations.check('http://127.0.0.1:4100/hooks/a')).resolves.toBe('http://127.0.0.1:4100/hooks/a');
    expect(await refusal(destinations, 'http://127.0.0.1:4101/hooks/a')).toMatch(/https/);
  });
});
