import { messages } from '@lp/contract/common/errors';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client.ts';
import { newOperationKey } from '../../../lib/operation-key.ts';
import { batchKey, shownMessage } from './fulfillment-steps.ts';

describe('shownMessage (spec 002 §8)', () => {
  it('maps the raw texts of the catalogue to their own messages', () => {
    expect(shownMessage(messages.errorCreating, new ApiError(504, 'ESOCKETTIMEDOUT'))).toBe(
      'Unable to complete the activation due to request timeout. Please clear the error and retry.',
    );
    expect(
      shownMessage(
        messages.errorCreating,
        new ApiError(409, 'Activation of the fulfillment is denied by the activation policy'),
      ),
    ).toBe(
      'Unable to complete the activation as the fulfillment is denied by the activation policy. Please clear the error and retry.',
    );
    expect(shownMessage(messages.errorReturning, new Error('caught an exception in the service'))).toBe(
      'Unable to complete the activation due to an exception. Please clear the error and retry.',
    );
  });

  it("shows the step's message, with the server's words only where the screen asks for detail", () => {
    const e = new ApiError(409, messages.returnOverActivated);
    expect(shownMessage(messages.errorCreating, e)).toBe(messages.errorCreating);
    expect(shownMessage(messages.errorReturning, e, true)).toBe(
      `${messages.errorReturning} ${messages.returnOverActivated}`,
    );
  });

  it('appends a 32-hex reference id in parentheses, and only a whole one', () => {
    const id = '0123456789abcdef0123456789ABCDEF';
    expect(shownMessage(messages.errorLicenseFile, new ApiError(500, `failed, reference ${id}`))).toBe(
      `${messages.errorLicenseFile} (${id})`,
    );
    expect(shownMessage(messages.errorLicenseFile, new ApiError(500, `ref ${id}0`))).toBe(
      messages.errorLicenseFile,
    );
  });
});

describe('operation keys', () => {
  it('are valid keys for the server (8-100 of letters, digits, - and _) and stable per batch', () => {
    fc.assert(
      fc.property(fc.string(), fc.nat(), (customer, index) => {
        const plan = newOperationKey();
        const key = batchKey(plan, 'create', customer, index);
        expect(key).toMatch(/^[A-Za-z0-9_-]{8,100}$/);
        expect(batchKey(plan, 'create', customer, index)).toBe(key);
      }),
    );
    expect(newOperationKey()).not.toBe(newOperationKey());
  });
});
