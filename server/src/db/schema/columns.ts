import { parseInstant } from '@lp/contract/common/dates';
import { customType } from 'drizzle-orm/pg-core';

/**
 * timestamptz read with the one date parser: drizzle's own reader hands PostgreSQL's text to `new Date`,
 * whose legacy parsing turns years 1..99 into 19xx (decision 020).
 */
export const ts = customType<{ data: Date; driverData: string }>({
  dataType: () => 'timestamp with time zone',
  toDriver: (value) => (value instanceof Date ? value.toISOString() : value),
  fromDriver: (value) => new Date(typeof value === 'string' ? (parseInstant(value) ?? Number.NaN) : value),
});
