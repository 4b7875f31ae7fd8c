import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

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

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
