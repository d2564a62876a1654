import type { FastifyRequest } from 'fastify';

/** `{base_url}`: PUBLIC_BASE_URL if configured, else what the proxy or client says. */
export function baseUrlOf(request: FastifyRequest, configured: string | undefined): string {
  if (configured) return configured;
  const forwardedHost = firstValue(request.headers['x-forwarded-host']);
  const proto = firstValue(request.headers['x-forwarded-proto']) ?? request.protocol ?? 'http';
  const host = forwardedHost ?? request.headers.host ?? 'localhost';
  return `${proto}://${host}`;
}

function firstValue(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return value?.split(',')[0].trim() || undefined;
}

export const schemaUrl = (baseUrl: string, name: string) => `${baseUrl}/api/v1/schemas/${name}.json`;
