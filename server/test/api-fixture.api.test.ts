import { expect } from 'vitest';
import { apiTest } from './api-fixture.ts';

/*
 * API files share the fixture module (isolate: false), so a file's override must never change `apiTest` itself:
 * it did once, and a later file of the same worker ran with another file's PIN key (decision 069 addendum).
 */
const overridden = apiTest.override('appEnv', { scope: 'file' }, { MAIL_USER_LIMIT_PER_HOUR: '1' });

overridden('an override holds for the test made from it', ({ appEnv }) => {
  expect(appEnv).toEqual({ MAIL_USER_LIMIT_PER_HOUR: '1' });
});

apiTest('apiTest keeps its declared fixtures after a file overrides one', ({ appEnv }) => {
  expect(appEnv).toEqual({});
});
