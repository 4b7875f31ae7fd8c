// Vitest's jsdom environment for the web component tests, with jsdom imported from here: it is a dependency of
// the web package (web/node_modules), where vitest's built-in 'jsdom' environment, which looks beside vitest,
// does not find it.
import { JSDOM } from 'jsdom';
import { populateGlobal } from 'vitest/runtime';

/** @type {import('vitest/runtime').Environment} */
export default {
  name: 'web-jsdom',
  viteEnvironment: 'client',
  async setup(global) {
    const dom = new JSDOM('<!DOCTYPE html>', { url: 'http://localhost:3000/', pretendToBeVisual: true });
    const { keys, originals } = populateGlobal(global, dom.window, { bindFunctions: true });
    return {
      teardown(global) {
        dom.window.close();
        for (const key of keys) delete global[key];
        for (const [key, descriptor] of originals) Object.defineProperty(global, key, descriptor);
      },
    };
  },
};
