import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { RouterProvider } from './router/router';
import { SessionProvider } from './session/session';
import { ErrorBoundary } from './ui/error-boundary';
import './styles/base.css';
import './styles/shell.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <SessionProvider>
      <RouterProvider>
        {/* The frames have their own boundary around the page; this one keeps even a failing frame from a blank screen. */}
        <ErrorBoundary>
          <App />
        </ErrorBoundary>
      </RouterProvider>
    </SessionProvider>
  </StrictMode>,
);
