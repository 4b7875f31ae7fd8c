import { describe, expect, it } from 'vitest';
import { needsPinnedRuntime, requiredMajor } from './runtime.mjs';

describe('needsPinnedRuntime', () => {
  it('asks for the pinned runtime on Node older than the required major', () => {
    expect(requiredMajor).toBe(24);
    for (const v of ['20.19.5', 'v22.12.0', '23.11.1', '9.0.0']) expect(needsPinnedRuntime(v)).toBe(true);
  });
  it('uses the machine Node when it is the required major or newer', () => {
    for (const v of ['24.0.0', 'v24.21.0', '25.2.1', '100.0.0']) expect(needsPinnedRuntime(v)).toBe(false);
  });
  it('asks for the pinned runtime when the version cannot be read', () => {
    expect(needsPinnedRuntime('')).toBe(true);
    expect(needsPinnedRuntime('unknown')).toBe(true);
  });
});
