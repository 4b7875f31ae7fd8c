import { showError, showSuccess } from '../../components/panels.tsx';
import { errorText } from '../../lib/api-client.ts';

/** A preview's or a change's sentence, e.g. "removes 3 users; frees 5 named seats; ends 2 sessions". */
type Change = { text: string };

/** "This change removes 3 users; …." — the server's words inside the question. */
export const previewQuestion = (text: string) => `This change ${text}. Save it?`;

/**
 * Decision 071: a change is first previewed by the server (nothing written), its answer shown for confirmation
 * (`confirm`, which resolves true to go on), then made. A refusal of either call is shown in the error panel;
 * returns the change made, or null when refused or declined.
 */
export async function previewThenSave<R extends Change>(
  run: (preview: boolean) => Promise<R>,
  confirm: (text: string) => Promise<boolean>,
): Promise<R | null> {
  try {
    const preview = await run(true);
    if (!(await confirm(preview.text))) return null;
    const done = await run(false);
    showSuccess(`Saved: ${done.text}.`);
    return done;
  } catch (e) {
    showError(errorText(e));
    return null;
  }
}
