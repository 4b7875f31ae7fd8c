import { Alert, CloseButton, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { useSyncExternalStore } from 'react';

/**
 * The shell's on-demand panels (spec 000 §2.5): one spinner, and success / error / warn messages,
 * each closable. A module-level store (not a React context) so that any page, hook or plain
 * function can report without threading a provider through; `PanelsHost` in the shell renders it.
 */
export type PanelKind = 'success' | 'error' | 'warn';
export type Panel = { id: number; kind: PanelKind; message: string };
type PanelState = { panels: Panel[]; spinner: string | null };

let state: PanelState = { panels: [], spinner: null };
let nextId = 1;
const listeners = new Set<() => void>();

function setState(next: PanelState) {
  state = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

function show(kind: PanelKind, message: string) {
  // The same message twice stays one panel: repeated failures should not stack up.
  if (state.panels.some((p) => p.kind === kind && p.message === message)) return;
  setState({ ...state, panels: [...state.panels, { id: nextId++, kind, message }] });
}

export const showError = (message: string) => show('error', message);
export const showSuccess = (message: string) => show('success', message);
export const showWarn = (message: string) => show('warn', message);
export const showSpinner = (text: string) => setState({ ...state, spinner: text });
export const hideSpinner = () => setState({ ...state, spinner: null });
export const closePanel = (id: number) =>
  setState({ ...state, panels: state.panels.filter((p) => p.id !== id) });
/** Drops every message panel (used when the customer changes: old messages no longer apply). */
export const clearPanels = () => setState({ ...state, panels: [] });

const api = { showError, showSuccess, showWarn, showSpinner, hideSpinner, closePanel, clearPanels };

/** Hook form of the same functions, for components. */
export function usePanels() {
  return api;
}

const styles: Record<PanelKind, { color: string; title: string }> = {
  success: { color: 'green', title: 'Success' },
  error: { color: 'red', title: 'Error' },
  warn: { color: 'yellow', title: 'Warning' },
};

/** Rendered once at the top of the shell content area. */
export function PanelsHost() {
  const current = useSyncExternalStore(subscribe, () => state);
  if (current.panels.length === 0 && !current.spinner) return null;
  return (
    <Stack gap="xs" mb="md">
      {current.spinner ? (
        <Paper withBorder p="xs" role="status" aria-live="polite" data-testid="spinner-panel">
          <Group justify="space-between" wrap="nowrap">
            <Group gap="xs" wrap="nowrap">
              <Loader size="sm" />
              <Text size="sm">{current.spinner}</Text>
            </Group>
            <CloseButton aria-label="Close spinner" onClick={hideSpinner} />
          </Group>
        </Paper>
      ) : null}
      {current.panels.map((panel) => (
        <Alert
          key={panel.id}
          color={styles[panel.kind].color}
          title={styles[panel.kind].title}
          withCloseButton
          closeButtonLabel={`Close ${styles[panel.kind].title.toLowerCase()} message`}
          onClose={() => closePanel(panel.id)}
          role={panel.kind === 'error' ? 'alert' : 'status'}
          data-testid={`${panel.kind}-panel`}
        >
          {panel.message}
        </Alert>
      ))}
    </Stack>
  );
}
