import { Button, Group, Modal, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useBlocker } from 'react-router';

export const leaveGuardTexts = {
  title: 'WARNING: You have unsaved changes.',
  body: 'Press Cancel to go back and save these changes. Press Ok to lose these changes.',
} as const;

/** The question of the guard in force, if any (one page at a time has unsaved edits). */
let activeGuard: (() => Promise<boolean>) | null = null;

/**
 * Asks the guard in force before something that drops the page's edits without a navigation (the top-bar
 * customer switch resets account pages, spec 000 §4.2): true = go on (no guard, or Ok), false = Cancel.
 */
export const confirmLeave = (): Promise<boolean> => activeGuard?.() ?? Promise.resolve(true);

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

  // A question from confirmLeave(): its answer goes to this resolver.
  const [asking, setAsking] = useState<((leave: boolean) => void) | null>(null);
  useEffect(() => {
    if (!when) return;
    const ask = () => new Promise<boolean>((resolve) => setAsking(() => resolve));
    activeGuard = ask;
    return () => {
      if (activeGuard === ask) activeGuard = null;
    };
  }, [when]);
  const answer = (leave: boolean) => {
    asking?.(leave);
    setAsking(null);
  };

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
  const stay = () => (asking ? answer(false) : blocker.reset?.());
  const leave = () => (asking ? answer(true) : blocker.proceed?.());
  return (
    <Modal
      opened={blocked || asking !== null}
      onClose={stay}
      title={leaveGuardTexts.title}
      size={600}
      centered
    >
      <Text size="sm">{leaveGuardTexts.body}</Text>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={stay}>
          Cancel
        </Button>
        <Button color="red" onClick={leave}>
          Ok
        </Button>
      </Group>
    </Modal>
  );
}
