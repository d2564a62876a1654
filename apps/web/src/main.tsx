import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { RouterProvider } from './router/router';
import { SessionProvider } from './session/session';
import './styles/base.css';
import './styles/shell.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <SessionProvider>
      <RouterProvider>
        <App />
      </RouterProvider>
    </SessionProvider>
  </StrictMode>,
);
