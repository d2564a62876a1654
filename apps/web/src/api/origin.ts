/**
 * Where the API answers: the `social-api-origin` meta of index.html when set (the console's own container writes it
 * at start from API_ORIGIN), else this page's origin (the gateway serving the console, or the dev server's proxy).
 */
export function apiOrigin(): string {
  const configured = document.querySelector<HTMLMetaElement>('meta[name="social-api-origin"]')?.content.trim();
  return configured || window.location.origin;
}
