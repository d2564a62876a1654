import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * `npm run build:web` writes apps/web/dist, which the gateway serves at its origin root (docs in the README's
 * "Web console"). `npx vite apps/web` runs a dev server that forwards API calls to a gateway on :8080.
 */
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, target: 'es2022' },
  server: { proxy: { '^/(?!src/|@|node_modules/|assets/).+': { target: 'http://localhost:8080', bypass: htmlNavigation } } },
});

/** The dev server answers page navigations itself (index.html); everything else goes to the gateway. */
function htmlNavigation(request: { headers: Record<string, string | string[] | undefined> }): string | undefined {
  const accept = String(request.headers.accept ?? '');
  return accept.includes('text/html') && !accept.includes('json') ? '/index.html' : undefined;
}
