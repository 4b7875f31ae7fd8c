import { Alert, Button, Group, Text } from '@mantine/core';

/**
 * Spec 002 §8: "Errors appear in a banner with a clear-and-retry action that refreshes the data." The shell's
 * panels (components/panels.tsx) can only be closed, so the page shows this one, red like them, whose action
 * clears the error and reloads.
 */
export function HistoryErrorBanner({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <Alert color="red" title="Error" role="alert" data-testid="error-panel">
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm">{message}</Text>
        <Button size="xs" variant="white" color="red" onClick={onRetry}>
          Clear error and retry
        </Button>
      </Group>
    </Alert>
  );
}
