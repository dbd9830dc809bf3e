import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';

const RELOADED_AT = 'leadex:chunk-reload-at';

// Screens load on demand; a tab opened before a deploy asks for chunks the new build no longer has.
// Reloading fetches the new index.html and its chunks (once: a failure right after a reload is left
// to the browser, so a server that is down does not loop).
window.addEventListener('vite:preloadError', (event) => {
  try {
    const last = Number(sessionStorage.getItem(RELOADED_AT) ?? 0);
    if (Date.now() - last < 10_000) return;
    sessionStorage.setItem(RELOADED_AT, String(Date.now()));
  } catch {
    return; // Storage blocked: without the guard a reload could loop; the error stays.
  }
  event.preventDefault();
  window.location.reload();
});

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
