import { z } from 'zod';

/**
 * Fields many calls share, declared once so every call trims and limits them the same way (the review found
 * customerNumber declared ten times, some trimmed and some not).
 */

/** A customer account number (the spec's AccountID / customerid / customerNumber). */
export const customerNumberField = z.string().trim().min(1).max(64);

/** The identity of a license server (its host id; elastic servers call it clsId on the wire). */
export const serverIdField = z.string().trim().min(1).max(200);

/** The activation id of an entitlement line. */
export const activationIdField = z.string().trim().min(1).max(100);
