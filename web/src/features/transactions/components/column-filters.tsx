import { parseDatePrefix } from '@lp/domain/date-prefix';
import { formatDateTime } from '@lp/domain/dates';
import { Button, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import type { IAfterGuiAttachedParams } from 'ag-grid-community';
import { type CustomFilterProps, useGridFilter } from 'ag-grid-react';
import { useEffect, useRef, useState } from 'react';
import {
  type DateFilterModel,
  fromLocalInput,
  type TextFilterModel,
  type ValuesFilterModel,
} from '../usage-filter.ts';

/** Spec 001 §5 / spec 000 §9: filter text is debounced 500 ms. */
export const FILTER_DEBOUNCE_MS = 500;

/** Rows are fetched by the server; the grid never asks a filter to test a row. */
const serverSide = { doesFilterPass: () => true };

function useHidePopup() {
  const hide = useRef<(() => void) | undefined>(undefined);
  useGridFilter({
    ...serverSide,
    afterGuiAttached: (params?: IAfterGuiAttachedParams) => {
      hide.current = params?.hidePopup;
    },
  });
  return () => hide.current?.();
}

export interface TextValuesFilterParams {
  /** Opens the multi-select filter dialog for this column (rendered by the page). */
  openValues: (colId: string) => void;
}

/**
 * Text columns: contains or equals, one condition, case-insensitive (spec 001 §2.3), or a choice of values
 * from the multi-select dialog.
 */
export function TextValuesFilter(props: CustomFilterProps & TextValuesFilterParams) {
  const { model, onModelChange, column, openValues } = props;
  const hidePopup = useHidePopup();
  const current = model as TextFilterModel | ValuesFilterModel | null;
  const text = current?.filterType === 'text' ? current : null;
  const [type, setType] = useState<TextFilterModel['type']>(text?.type ?? 'contains');
  const [value, setValue] = useState(text?.filter ?? '');
  const title = column.getColDef().headerName ?? column.getColId();
  // The model also changes from outside (Clear Filters, a saved view): show what is in force.
  useEffect(() => {
    setType(text?.type ?? 'contains');
    setValue(text?.filter ?? '');
  }, [text?.type, text?.filter]);

  const publish = useDebouncedCallback((nextType: TextFilterModel['type'], nextValue: string) => {
    onModelChange(nextValue ? { filterType: 'text', type: nextType, filter: nextValue } : null);
  }, FILTER_DEBOUNCE_MS);

  return (
    <Stack gap="xs" p="sm" w={240}>
      <NativeSelect
        label={`${title} filter type`}
        size="xs"
        value={type}
        data={[
          { value: 'contains', label: 'Contains' },
          { value: 'equals', label: 'Equals' },
        ]}
        onChange={(e) => {
          const next = e.currentTarget.value as TextFilterModel['type'];
          setType(next);
          publish(next, value);
        }}
      />
      <TextInput
        label={`${title} filter value`}
        size="xs"
        value={value}
        onChange={(e) => {
          setValue(e.currentTarget.value);
          publish(type, e.currentTarget.value);
        }}
      />
      {current?.filterType === 'values' ? (
        <Text size="xs">{current.values.length} selected value(s)</Text>
      ) : null}
      <Button
        size="xs"
        variant="light"
        onClick={() => {
          hidePopup();
          openValues(column.getColId());
        }}
      >
        Select values…
      </Button>
    </Stack>
  );
}

/** What a typed date stands for, shown under the input. */
function prefixHint(text: string): string {
  if (!text.trim()) return 'A year, month, day, hour, minute or second, e.g. 2026-03 or 2026-03-10 14';
  const parsed = parseDatePrefix(text);
  return parsed.kind === 'range'
    ? `${formatDateTime(parsed.range.from)} to ${formatDateTime(parsed.range.to)}`
    : 'Matches the displayed text';
}

const toLocalInput = (value: string | undefined) => (value ? value.replace(' ', 'T') : '');

/**
 * Start Time / End Time: a typed date (spec 001 §5: year, decade, year-month, day, hour, minute or second
 * turned into a range; other text passed through) and a From/To range with seconds.
 */
export function DateRangeFilter(props: CustomFilterProps) {
  const { model, onModelChange, column } = props;
  useGridFilter(serverSide);
  const [draft, setDraft] = useState<DateFilterModel>(model ?? { filterType: 'dateRange' });
  const title = column.getColDef().headerName ?? column.getColId();
  useEffect(() => {
    setDraft((model as DateFilterModel | null) ?? { filterType: 'dateRange' });
  }, [model]);

  const publish = useDebouncedCallback((next: DateFilterModel) => {
    const empty = !next.text?.trim() && !next.from && !next.to;
    onModelChange(empty ? null : next);
  }, FILTER_DEBOUNCE_MS);
  const change = (patch: Partial<DateFilterModel>) => {
    const next = { ...draft, ...patch };
    for (const key of ['text', 'from', 'to'] as const) if (!next[key]) delete next[key];
    setDraft(next);
    publish(next);
  };

  return (
    <Stack gap="xs" p="sm" w={260}>
      <TextInput
        label={`${title}: typed date`}
        size="xs"
        placeholder="YYYY-MM-DD HH:mm:ss"
        description={prefixHint(draft.text ?? '')}
        value={draft.text ?? ''}
        onChange={(e) => change({ text: e.currentTarget.value })}
      />
      <TextInput
        label={`${title} from`}
        size="xs"
        type="datetime-local"
        step={1}
        value={toLocalInput(draft.from)}
        onChange={(e) => change({ from: fromLocalInput(e.currentTarget.value) })}
      />
      <TextInput
        label={`${title} to`}
        size="xs"
        type="datetime-local"
        step={1}
        value={toLocalInput(draft.to)}
        onChange={(e) => change({ to: fromLocalInput(e.currentTarget.value) })}
      />
      <Button
        size="xs"
        variant="default"
        onClick={() => change({ text: '', from: undefined, to: undefined })}
      >
        Clear
      </Button>
    </Stack>
  );
}
