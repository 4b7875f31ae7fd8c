import { describe, expect, it } from 'vitest';
import { nodeVersionProblem } from './node-version.ts';

describe('the Node.js version check', () => {
  it('refuses an older major, naming the version and what to install', () => {
    expect(nodeVersionProblem('20.20.2')).toBe(
      'Node.js 24 or newer is required; this is Node.js 20.20.2. Install Node.js 24 (docs/operations.md, section 2) and start again.',
    );
    expect(nodeVersionProblem('v18.19.0')).toMatch(/this is Node\.js v18\.19\.0/);
  });

  it('accepts 24 and later', () => {
    for (const v of ['24.0.0', '24.21.0', '26.1.0']) expect(nodeVersionProblem(v)).toBeNull();
  });
});
