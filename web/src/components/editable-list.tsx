import { ActionIcon, Alert, Button, Group, Stack, Table, VisuallyHidden } from '@mantine/core';
import { type ChangeEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { ApiError } from '../lib/api-client.ts';
import { LeaveGuard } from './leave-guard.tsx';
import { usePanels } from './panels.tsx';
import { Spinner } from './spinner.tsx';
import { type EditorRow, useRowEditor } from './use-row-editor.ts';

export interface EditableListOptions<T> {
  /** An empty row (Add). */
  blank: T;
  /** Reads the saved list; runs again when it changes identity (e.g. another customer) and on `reload`. */
  load: () => Promise<T[]>;
  /** Where a failed read goes; without it the list shows the message in its place. */
  onLoadError?: (error: unknown) => void;
}

/**
 * The state of an editable settings list (spec 000 §4.5, §4.6): the saved list (the baseline), the rows being
 * edited, loading and saving. A read answered after the list was left, or after a newer read started, is dropped.
 */
export function useEditableList<T extends Record<F, string>, F extends string>({
  blank,
  load,
  onLoadError,
}: EditableListOptions<T>) {
  const [baseline, setBaseline] = useState<T[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [reads, setReads] = useState(0);
  const editor = useRowEditor<T, F>(blank);
  const { reset } = editor;
  const onLoadErrorNow = useRef(onLoadError);
  onLoadErrorNow.current = onLoadError;

  // biome-ignore lint/correctness/useExhaustiveDependencies: `reads` asks for a new read (reload)
  useEffect(() => {
    let live = true;
    setLoadError(null);
    setBaseline(null);
    load()
      .then((list) => {
        if (!live) return;
        setBaseline(list);
        reset(list);
      })
      .catch((e: unknown) => {
        if (!live) return;
        const handle = onLoadErrorNow.current;
        if (handle) handle(e);
        else setLoadError(e instanceof ApiError ? e.err : String(e));
      });
    return () => {
      live = false;
    };
  }, [load, reset, reads, onLoadErrorNow]);

  return {
    editor,
    baseline,
    loadError,
    saving,
    /** Reads the saved list again, dropping the edits. */
    reload: () => setReads((n) => n + 1),
    setSaving,
    /** After a save: the stored list is the new baseline and the rows show it. */
    saved: (stored: T[]) => {
      setBaseline(stored);
      reset(stored);
    },
  };
}

export type EditableListState<T extends Record<F, string>, F extends string> = ReturnType<
  typeof useEditableList<T, F>
>;

/** What a cell's input takes: its value, lock, change and blur, and its error once the field was touched. */
export interface CellInput {
  value: string;
  disabled: boolean;
  onChange: (e: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => void;
  onBlur: () => void;
  error: string | undefined;
}

export interface EditableListProps<T extends Record<F, string>, F extends string> {
  list: EditableListState<T, F>;
  /** The table's accessible name. */
  ariaLabel: string;
  /** Each row's test id. */
  rowTestId: string;
  /** Spinner text while reading and saving. */
  loadingText: string;
  savingText: string;
  /** The success message of a save. */
  savedText: string;
  headers: string[];
  /** One cell per header, each given the inputs of its fields. */
  cells: (row: EditorRow<T>, index: number, input: (field: F) => CellInput) => ReactNode[];
  /** Errors per row, in the list's order (errors show once a field was touched, spec 000 §5). */
  errors: Partial<Record<F, string>>[];
  valid: boolean;
  changed: boolean;
  canEdit: boolean;
  /** A row the user cannot change (e.g. the support coordinator). */
  rowLocked?: (row: EditorRow<T>) => boolean;
  removeLabel: (row: EditorRow<T>, index: number) => string;
  addLabel: string;
  /** Add also waits for a valid list. */
  addNeedsValid?: boolean;
  /** Stores the list and answers the list as stored. */
  save: () => Promise<T[]>;
  /** A refused save, after its message is shown. */
  onSaveError?: (error: unknown) => void;
  /** Above the table: the list's notes and banners. */
  children?: ReactNode;
}

/** One settings list the user edits in place and saves as a whole: portal contacts, IP rules. */
export function EditableList<T extends Record<F, string>, F extends string>(props: EditableListProps<T, F>) {
  const { list, canEdit, changed, valid } = props;
  const { editor, baseline, saving } = list;
  const panels = usePanels();

  if (list.loadError) {
    return (
      <Alert color="red" title="Error">
        {list.loadError}
      </Alert>
    );
  }
  if (!baseline) return <Spinner text={props.loadingText} />;

  const save = async () => {
    list.setSaving(true);
    panels.showSpinner(props.savingText);
    try {
      // Spec 000 §4.5, §4.6: after a successful save the baseline is the list as stored.
      list.saved(await props.save());
      panels.showSuccess(props.savedText);
    } catch (e) {
      panels.showError(e instanceof ApiError ? e.err : String(e));
      props.onSaveError?.(e);
    } finally {
      panels.hideSpinner();
      list.setSaving(false);
    }
  };

  const locked = !canEdit || saving;
  return (
    <Stack>
      <LeaveGuard when={changed && !saving} />
      {props.children}
      <Table withTableBorder verticalSpacing="xs" aria-label={props.ariaLabel}>
        <Table.Thead>
          <Table.Tr>
            {props.headers.map((header) => (
              <Table.Th key={header}>{header}</Table.Th>
            ))}
            <Table.Th>
              <VisuallyHidden>Remove</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {editor.rows.map((row, index) => {
            const rowLocked = locked || (props.rowLocked?.(row) ?? false);
            const input = (field: F): CellInput => ({
              value: row[field],
              disabled: rowLocked,
              onChange: (e) => editor.update(row.id, field, e.currentTarget.value),
              onBlur: () => editor.touch(row.id, field),
              error: editor.isTouched(row.id, field) ? props.errors[index]?.[field] : undefined,
            });
            return (
              <Table.Tr key={row.id} data-testid={props.rowTestId}>
                {props.cells(row, index, input).map((cell, i) => (
                  <Table.Td key={props.headers[i]}>{cell}</Table.Td>
                ))}
                <Table.Td>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={props.removeLabel(row, index)}
                    disabled={rowLocked}
                    onClick={() => editor.remove(row.id)}
                  >
                    <span aria-hidden="true">✕</span>
                  </ActionIcon>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      <Group justify="space-between">
        <Button
          variant="light"
          disabled={locked || (props.addNeedsValid === true && !valid)}
          onClick={editor.add}
        >
          {props.addLabel}
        </Button>
        <Group>
          <Button variant="default" disabled={!changed || saving} onClick={() => editor.reset(baseline)}>
            Cancel
          </Button>
          <Button onClick={save} disabled={!canEdit || !changed || !valid || saving}>
            Save
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}
