/**
 * Limits every input obeys before any schema or SQL sees it (decision 020). PostgreSQL cannot store NUL in
 * text or jsonb, and jsonb refuses unpaired UTF-16 surrogates, so such text would fail deep in a query as a
 * 500; deeply nested JSON would overflow the stack of recursive schemas. Checked once for every body, query,
 * path parameter, cookie and credential header, and per item where a batch reports items one by one.
 */
export const MAX_JSON_DEPTH = 20;

export interface InputProblem {
  /** where, e.g. ['filter', 'criteria', 0, 'value'] */
  path: (string | number)[];
  message: string;
}

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

// Any NUL or surrogate: texts without one (nearly all) skip the lookarounds below.
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what it looks for.
const SUSPECT = /[\u0000\uD800-\uDFFF]/;

/** Why a text cannot be stored, or null when it can. */
export function unstorableText(text: string): string | null {
  if (!SUSPECT.test(text)) return null;
  if (text.includes('\u0000')) return 'text must not contain NUL characters';
  if (LONE_SURROGATE.test(text)) return 'text must not contain unpaired surrogate characters';
  return null;
}

/**
 * The first unstorable text (value or key) or too-deep nesting in a JSON-like value, walked without
 * recursion so hostile nesting cannot overflow the stack here either.
 */
export function findInputProblem(value: unknown, maxDepth: number = MAX_JSON_DEPTH): InputProblem | null {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  while (stack.length > 0) {
    const { value: v, path } = stack.pop() as { value: unknown; path: (string | number)[] };
    if (typeof v === 'string') {
      const message = unstorableText(v);
      if (message) return { path, message };
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (path.length >= maxDepth) return { path, message: `nested deeper than ${maxDepth} levels` };
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], path: [...path, i] });
      continue;
    }
    const entries = Object.entries(v);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i];
      const message = unstorableText(key);
      if (message) return { path, message: `field names: ${message}` };
      stack.push({ value: child, path: [...path, key] });
    }
  }
  return null;
}

/** 'body.filter.criteria.0.value' style location, as describeZodError names fields. */
export const describePath = (path: readonly (string | number)[]) => path.join('.');
