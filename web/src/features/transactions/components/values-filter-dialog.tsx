import { messages } from '@lp/contract/common/errors';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Loader,
  Modal,
  ScrollArea,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import type { ValuesFilterModel } from '../usage-filter.ts';
import { FILTER_DEBOUNCE_MS } from './column-filters.tsx';

export type Choice = string | number;

export interface ValuesFilterDialogProps {
  /** The column whose values are offered; null when closed. */
  column: { colId: string; title: string } | null;
  current: ValuesFilterModel | null;
  /** Distinct values of the column among the rows the other filters select, narrowed by the search text. */
  loadChoices: (colId: string, search: string) => Promise<Choice[]>;
  /** null removes the column's filter. */
  onApply: (colId: string, model: ValuesFilterModel | null) => void;
  onClose: () => void;
}

const label = (c: Choice) => (c === '' ? '(empty)' : String(c));

/**
 * The generic multi-select filter dialog (spec 001 §2.3, §5): a search box (debounced 500 ms), Select All,
 * the values, Apply, Clear and Cancel. A search error is shown and blocks Apply; Select All is hidden when
 * there is an error or nothing to choose; applying with everything selected and no search is no filter.
 */
export function ValuesFilterDialog({
  column,
  current,
  loadChoices,
  onApply,
  onClose,
}: ValuesFilterDialogProps) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, FILTER_DEBOUNCE_MS);
  const [choices, setChoices] = useState<Choice[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<Set<Choice> | 'all'>('all');
  const colId = column?.colId ?? null;

  useEffect(() => {
    if (colId === null) return;
    setSearch('');
    setSelected(current ? new Set(current.values) : 'all');
  }, [colId, current]);

  useEffect(() => {
    if (colId === null) return;
    let live = true;
    setChoices(null);
    setError(null);
    loadChoices(colId, debounced)
      .then((values) => {
        if (live) setChoices(values);
      })
      .catch((e: unknown) => {
        if (!live) return;
        setChoices([]);
        setError(e instanceof Error ? e.message : String(e));
      });
    return () => {
      live = false;
    };
  }, [colId, debounced, loadChoices]);

  const isSelected = (c: Choice) => selected === 'all' || selected.has(c);
  const visible = choices ?? [];
  const allVisibleSelected = visible.length > 0 && visible.every(isSelected);
  const someVisibleSelected = visible.some(isSelected);

  const toggle = (c: Choice) => {
    const next = new Set(selected === 'all' ? visible : selected);
    if (next.has(c)) next.delete(c);
    else next.add(c);
    setSelected(next);
  };
  const toggleAll = () => {
    const next = new Set(selected === 'all' ? visible : selected);
    for (const c of visible) {
      if (allVisibleSelected) next.delete(c);
      else next.add(c);
    }
    setSelected(next);
  };

  const apply = () => {
    if (colId === null) return;
    if (!search && allVisibleSelected) onApply(colId, null);
    else onApply(colId, { filterType: 'values', values: visible.filter(isSelected) });
  };

  return (
    <Modal
      closeButtonProps={{ 'aria-label': 'Close' }}
      opened={column !== null}
      onClose={onClose}
      title={`Filter ${column?.title ?? ''}`}
      size="md"
    >
      <Stack gap="sm">
        <TextInput
          label="Search"
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          data-autofocus
        />
        {error ? (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        ) : null}
        {choices === null ? (
          <Group justify="center">
            <Loader size="sm" aria-label="Loading values" />
          </Group>
        ) : null}
        {choices !== null && !error && visible.length === 0 ? (
          <Text size="sm">{messages.noMatchesFound}</Text>
        ) : null}
        {!error && visible.length > 0 ? (
          <>
            <Checkbox
              label="Select All"
              checked={allVisibleSelected}
              indeterminate={!allVisibleSelected && someVisibleSelected}
              onChange={toggleAll}
            />
            <ScrollArea.Autosize mah={300} type="auto">
              <Stack gap={6} pl="md" role="group" aria-label={`${column?.title ?? ''} values`}>
                {visible.map((c) => (
                  <Checkbox
                    key={String(c)}
                    label={label(c)}
                    checked={isSelected(c)}
                    onChange={() => toggle(c)}
                  />
                ))}
              </Stack>
            </ScrollArea.Autosize>
          </>
        ) : null}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="default" onClick={() => colId !== null && onApply(colId, null)}>
            Clear
          </Button>
          <Button onClick={apply} disabled={!!error || choices === null}>
            Apply
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
