/** First and last initial of the display name; a trailing "(External)" tag is dropped (spec 000 §2.2). */
export function userInitials(name: string, email = ''): string {
  const clean = name.replace(/\s*\(External\)\s*$/i, '').trim();
  const words = clean.split(/\s+/).filter((w) => /\p{L}|\p{N}/u.test(w));
  if (words.length === 0) return (email[0] ?? '?').toUpperCase();
  const first = words[0][0];
  const last = words.length > 1 ? words[words.length - 1][0] : '';
  return `${first}${last}`.toUpperCase();
}
