import { Alert, Button, CopyButton, Group, Modal, Stack, TextInput } from '@mantine/core';

export interface SecretOnce {
  /** Read-only facts shown above the secret (what it is for) */
  fields: { label: string; value: string }[];
  secret: { label: string; value: string };
}

/**
 * A secret the server shows once (a license-server credential, a personal API token): read-only, with a copy
 * button, and a dialog that a stray click outside does not close.
 */
export function SecretOnceDialog({
  shown,
  title,
  notice,
  onClose,
}: {
  shown: SecretOnce | null;
  title: string;
  notice: string;
  onClose: () => void;
}) {
  return (
    <Modal
      opened={shown !== null}
      onClose={onClose}
      title={title}
      size={600}
      // A stray click outside must not throw away the only copy of the secret.
      closeOnClickOutside={false}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {shown ? (
        <Stack gap="sm">
          <Alert color="yellow" variant="light">
            {notice}
          </Alert>
          {shown.fields.map((f) => (
            <TextInput key={f.label} label={f.label} value={f.value} readOnly variant="filled" />
          ))}
          <Group align="flex-end" wrap="nowrap">
            <TextInput
              label={shown.secret.label}
              value={shown.secret.value}
              readOnly
              variant="filled"
              style={{ flex: 1 }}
              styles={{ input: { fontFamily: 'monospace' } }}
              onFocus={(e) => e.currentTarget.select()}
            />
            <CopyButton value={shown.secret.value}>
              {({ copied, copy }) => (
                // Default variant: a light one fails the 4.5:1 text contrast while hovered (teal even at rest).
                <Button variant="default" onClick={copy}>
                  {copied ? 'Copied' : 'Copy'}
                </Button>
              )}
            </CopyButton>
          </Group>
          <Group justify="flex-end">
            <Button onClick={onClose}>Close</Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
