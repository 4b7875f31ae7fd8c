import { messages } from '@lp/contract/common/errors';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client.ts';
import { newOperationKey } from '../../../lib/operation-key.ts';
import {
  BATCH_SIZE,
  batchKey,
  createFulfillments,
  returnFulfillments,
  shownMessage,
} from './fulfillment-steps.ts';

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

describe('a batch carries the time it is sent (decision 063)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  /** The bodies sent, each with the clock when it went; the clock moves a second per request. */
  function recordSends() {
    const sent: { url: string; operationKey: string; time: string; at: string }[] = [];
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-27T08:00:00.000Z'));
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const body = JSON.parse(String(init?.body));
      sent.push({
        url: String(input),
        operationKey: body.operationKey,
        time: body.time,
        at: new Date().toISOString(),
      });
      vi.setSystemTime(Date.now() + 1000);
      return new Response(JSON.stringify({ status: 'SUCCESS' }), { status: 200 });
    });
    return sent;
  }

  const items = Array.from({ length: BATCH_SIZE + 1 }, (_, i) => i + 1);

  it('returns: a plan run again sends the same operation keys, each batch with the time of its sending', async () => {
    const sent = recordSends();
    const run = () =>
      returnFulfillments({
        customerNumber: '1000123',
        items: items.map((id) => ({ id, count: -1 })),
        lifecycle: 'return',
        planKey: 'p'.repeat(32),
      });
    await run();
    await run();
    expect(sent).toHaveLength(4);
    for (const s of sent) expect(s.time).toBe(s.at);
    expect(new Set(sent.map((s) => s.time)).size).toBe(4);
    expect(sent.slice(2).map((s) => s.operationKey)).toEqual(sent.slice(0, 2).map((s) => s.operationKey));
  });

  it('creates: the same, the first batch alone and the rest after it', async () => {
    const sent = recordSends();
    const run = () =>
      createFulfillments({
        customerNumber: '1000123',
        host: { serverName: 'licsrv01', serverId: '0a1b2c3d4e5f', serverIdType: 'ETHERNET', type: 'new' },
        items: items.map((i) => ({ id: `A-${i}`, count: 1 })),
        planKey: 'p'.repeat(32),
      });
    await run();
    await run();
    expect(sent).toHaveLength(4);
    for (const s of sent) expect(s.time).toBe(s.at);
    expect(new Set(sent.map((s) => s.time)).size).toBe(4);
    expect(sent.slice(2).map((s) => s.operationKey)).toEqual(sent.slice(0, 2).map((s) => s.operationKey));
  });
});
