import { Button, Group, Modal, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useBlocker } from 'react-router';

export const leaveGuardTexts = {
  title: 'WARNING: You have unsaved changes.',
  body: 'Press Cancel to go back and save these changes. Press Ok to lose these changes.',
} as const;

/**
 * The unsaved-changes guard of spec 000 §2.1 / 001 §2.4: while `when` is true, leaving the page inside the app
 * asks first (600 px dialog; Cancel stays, Ok leaves and drops the changes), and closing or reloading the tab
 * triggers the browser's own "leave site?" prompt (browsers show their own text there, never ours).
 */
export function LeaveGuard({ when }: { when: boolean }) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      when &&
      (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );

  useEffect(() => {
    if (!when) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers need returnValue set to show the prompt.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [when]);

  // A guard that stops applying (changes saved or cancelled) must not leave a navigation hanging.
  useEffect(() => {
    if (!when && blocker.state === 'blocked') blocker.reset();
  }, [when, blocker]);

  const blocked = blocker.state === 'blocked';
  return (
    <Modal
      opened={blocked}
      onClose={() => blocker.reset?.()}
      title={leaveGuardTexts.title}
      size={600}
      centered
    >
      <Text size="sm">{leaveGuardTexts.body}</Text>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={() => blocker.reset?.()}>
          Cancel
        </Button>
        <Button color="red" onClick={() => blocker.proceed?.()}>
          Ok
        </Button>
      </Group>
    </Modal>
  );
}
