// The service worker Workbox writes at build time (vite.config.ts `offline()`): registered at
// start, it precaches the page and every lesson, so after one visit the page reloads and
// switches lessons with no network. The dev server has none (the virtual module is a no-op).
import { registerSW } from 'virtual:pwa-register';

export function registerOffline(): void {
  if (!('serviceWorker' in navigator)) return;
  registerSW({
    immediate: true,
    // the page still works online; say why it will not offline
    onRegisterError: (err: unknown) =>
      console.warn('Spindle will not work offline: the service worker failed to register', err),
  });
}
