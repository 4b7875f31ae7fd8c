/**
 * The overall verdict of a license file check in one line, the same words for the CLI's `license verify` and the
 * portal's Verify dialog (browser-safe: license-signature.ts, which makes the verdicts, loads node:crypto).
 * `unreadable` counts lines that do not read as license file lines (a bad line too).
 */
export function verificationSummary(verdicts: readonly { verdict: string }[], unreadable = 0): string {
  if (!verdicts.length) return 'no FEATURE or INCREMENT line to verify';
  const valid = verdicts.filter((v) => v.verdict === 'valid').length;
  const bad = verdicts.length - valid + unreadable;
  return bad
    ? `${bad} bad line${bad === 1 ? '' : 's'}; ${valid} of ${verdicts.length} feature lines valid`
    : `all ${verdicts.length} feature lines valid`;
}
