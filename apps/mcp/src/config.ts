import { setting } from '@social/platform';

/** Read once at start-up; a missing or malformed value stops the server with a message naming it. */
export const mcpSettings = {
  /** The gateway's origin, e.g. https://social.example.com: every tool calls the HTTP API there. */
  SOCIAL_API_URL: setting.url(['http', 'https']),
  /** stdio only: the API token (spk_…) whose permissions the tools have. Over HTTP each request's bearer token is used. */
  SOCIAL_TOKEN: setting.optionalString(),
  /** streamable HTTP only: where to listen (loopback unless a proxy in front needs otherwise). */
  MCP_HOST: setting.ipAddress('127.0.0.1'),
  MCP_PORT: setting.int(0, 65535, 8090),
  /**
   * streamable HTTP only: browser origins allowed to call it, comma-separated. A request carrying any other Origin
   * is refused (a web page cannot drive the server through the person's browser); clients that are not browsers send none.
   */
  MCP_ALLOWED_ORIGINS: setting.optionalString(),
};
