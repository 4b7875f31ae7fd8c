import { messages } from '@lp/contract/common/errors';
import { describe, expect, it } from 'vitest';
import { answerFor } from './errors.ts';

/** A driver error as drizzle hands it on: "Failed query: …" with PostgreSQL's error as the cause. */
const failedQuery = (code: string, message: string) =>
  new Error('Failed query: select 1', { cause: Object.assign(new Error(message), { code }) });

describe('database errors in the envelope (decision 043)', () => {
  it('answers a statement or lock deadline 503 "did not answer in time", never 500', () => {
    for (const [code, message] of [
      ['57014', 'canceling statement due to statement timeout'],
      ['55P03', 'canceling statement due to lock timeout'],
    ]) {
      const { statusCode, body, unexpected } = answerFor(failedQuery(code, message));
      expect(statusCode, code).toBe(503);
      expect(body, code).toEqual({ status: 'FAILURE', err: messages.databaseTimeout, code: 'UNAVAILABLE' });
      expect(unexpected).toBe(false);
    }
  });

  it('answers a connection the client cut for want of an answer as an outage', () => {
    const cut = Object.assign(new Error('The database did not answer within 6000 ms'), { code: 'ETIMEDOUT' });
    expect(answerFor(new Error('Failed query: select 1', { cause: cut })).body.err).toBe(
      messages.databaseUnavailable,
    );
    expect(answerFor(new Error('timeout exceeded when trying to connect')).statusCode).toBe(503);
  });
});
