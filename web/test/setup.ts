import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { releaseQueryClients } from './query-clients.ts';

/*
 * The web component tests (vitest project 'web-components', jsdom): Mantine asks the browser for media queries
 * and element sizes, which jsdom does not have; they answer "no match" and "no size".
 */
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});
globalThis.ResizeObserver = class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
// Mantine's autosized textarea measures again once web fonts load (document.fonts, which jsdom lacks).
if (!('fonts' in document))
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener: () => {}, removeEventListener: () => {}, ready: Promise.resolve() },
  });
// Mantine scrolls a focused option or a modal's content into view.
Element.prototype.scrollIntoView = () => {};

// A findBy… waits for its element up to this long (the default is 1 s): on a loaded 2-core CI machine a page with
// charts or a large grid can take longer than that to render, and a wait on a signal should not fail for speed.
configure({ asyncUtilTimeout: 20_000 });

/*
 * The files of a worker share one document (isolate: false, vitest.config.ts): each test starts from the address,
 * storage and cookies of a new tab. An address an earlier file left (`?account=…` of a whole-portal render) is the
 * account link the selection follows first: the page then asked for an account its test did not answer.
 */
beforeEach(() => {
  window.history.replaceState(null, '', '/');
  localStorage.clear();
  sessionStorage.clear();
  for (const name of document.cookie.split(';').map((c) => c.split('=')[0]?.trim())) {
    if (!name) continue;
    // biome-ignore lint/suspicious/noDocumentCookie: jsdom's cookie jar, emptied between tests
    document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
  }
});

afterEach(async () => {
  cleanup();
  await releaseQueryClients();
  vi.unstubAllGlobals();
});
