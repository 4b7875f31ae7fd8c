import { Alert, Button, Group, Modal, Stack } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { showSuccess } from '../../../components/panels.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { previewQuestion } from '../preview-flow.ts';

type Change = { text: string };

/**
 * A dialog whose change the server previews before it is saved (decision 071): Preview asks the server what the
 * change would do and shows its words; Save makes it. A new input (`inputKey`) drops the preview, so what is
 * saved is what was previewed. Refusals of either call are shown in the dialog.
 */
export function PreviewDialog({
  title,
  inputKey,
  ready,
  run,
  onClose,
  children,
}: {
  title: string;
  /** Changes whenever the input changes. */
  inputKey: string;
  /** The input is complete enough to send. */
  ready: boolean;
  run: (preview: boolean) => Promise<Change>;
  onClose: () => void;
  children: ReactNode;
}) {
  const [preview, setPreview] = useState<{ key: string; text: string } | null>(null);
  const [error, setError] = useState<{ key: string; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const shown = preview?.key === inputKey ? preview.text : null;
  const failed = error?.key === inputKey ? error.text : null;

  const send = async (asPreview: boolean) => {
    setBusy(true);
    setError(null);
    try {
      const answer = await run(asPreview);
      if (asPreview) setPreview({ key: inputKey, text: answer.text });
      else {
        showSuccess(`Saved: ${answer.text}.`);
        onClose();
      }
    } catch (e) {
      setError({ key: inputKey, text: errorText(e) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened onClose={onClose} title={title} size={560} closeButtonProps={{ 'aria-label': 'Close' }}>
      <Stack gap="sm">
        {children}
        {shown !== null ? (
          <Alert color="blue" variant="light" title="Preview" data-testid="preview-text">
            {previewQuestion(shown)}
          </Alert>
        ) : null}
        {failed ? (
          <Alert color="red" variant="light" role="alert">
            {failed}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button variant="light" onClick={() => void send(true)} disabled={!ready || busy}>
            Preview
          </Button>
          <Button onClick={() => void send(false)} disabled={shown === null || busy} loading={busy}>
            Save
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
