/**
 * Parses the top-bar account text (spec 000 §3): "number (name)", a bare number, or "(name)".
 * Free text without parentheses that is not a number is taken as a name fragment to search for.
 */
export type ParsedCustomerText = { number?: string; name?: string } | null;

export function parseCustomerText(input: string): ParsedCustomerText {
  const text = input.trim();
  if (!text) return null;
  const full = /^(\d+)\s*\((.+)\)$/.exec(text);
  if (full) return { number: full[1], name: full[2].trim() };
  if (/^\d+$/.test(text)) return { number: text };
  const nameOnly = /^\((.+)\)$/.exec(text);
  if (nameOnly) return { name: nameOnly[1].trim() };
  if (/[()]/.test(text)) return null;
  return { name: text };
}

export const customerDisplay = (c: { customerNumber: string; customerName: string }) =>
  `${c.customerNumber} (${c.customerName})`;
