import type { ActivationRow } from '@lp/contract/activations/schemas';
import { formatCount } from '@lp/domain/amounts';
import { Button, Group, NumberInput, Stack, Text } from '@mantine/core';
import type { ColDef, ICellRendererParams, TextMatcher, ValueGetterParams } from 'ag-grid-community';
import { type CSSProperties, createContext, useContext } from 'react';
import { RemainingDaysBar, remainingDaysText } from '../../../components/remaining-days-bar.tsx';
import {
  countError,
  keepError,
  seatsOnHost,
  setAllAssigned,
  setAllAvailable,
  setCount,
  setKeep,
  type TabSelection,
  toggleAssigned,
  toggleAvailable,
} from '../selection.ts';
import { EntitlementText, expirationText } from './entitlement-text.tsx';

export type EntitlementKind = 'assigned' | 'available';

/**
 * What the cells of one table read. It reaches them through React context rather than the grid's context or
 * column definitions: new column definitions would reset the user's columns, and a context change re-renders
 * the cells without the grid redrawing them (an input keeps its focus while the user types).
 */
export interface EntitlementTableState {
  kind: EntitlementKind;
  selection: TabSelection;
  onSelectionChange: (next: TabSelection) => void;
  /** The rows the grid lists now (after its filters), which the all-rows button acts on. */
  shown: ActivationRow[];
  disabled: boolean;
}

export const EntitlementTableContext = createContext<EntitlementTableState | null>(null);

function useTableState(): EntitlementTableState {
  const state = useContext(EntitlementTableContext);
  if (!state) throw new Error('An entitlement table cell is rendered outside its table');
  return state;
}

/** Whether a row is chosen: an assigned row kept, an available row selected (missing: the default, chosen). */
export function isChosen(state: Pick<EntitlementTableState, 'kind' | 'selection'>, id: string): boolean {
  return state.kind === 'assigned'
    ? (state.selection.assigned[id] ?? true)
    : (state.selection.available[id]?.selected ?? true);
}

const struck = (chosen: boolean): CSSProperties | undefined =>
  chosen ? undefined : { textDecoration: 'line-through' };

/** A removed row's cells are struck through (spec 002 §4). */
function useStruck(row: ActivationRow | undefined): CSSProperties | undefined {
  const state = useTableState();
  return row ? struck(isChosen(state, row.activationid)) : undefined;
}

function EntitlementCell({ data }: ICellRendererParams<ActivationRow>) {
  const style = useStruck(data);
  if (!data) return null;
  return (
    <Stack gap={0} justify="center" h="100%" style={style}>
      <EntitlementText row={data} />
    </Stack>
  );
}

/** A text centred in the row's height (up to two lines), struck through on a removed row. */
function CellText({ style, children }: { style: CSSProperties | undefined; children: React.ReactNode }) {
  return (
    <Group h="100%" align="center">
      <Text size="sm" lh={1.3} style={style}>
        {children}
      </Text>
    </Group>
  );
}

function TextCell({ data, value }: ICellRendererParams<ActivationRow>) {
  return <CellText style={useStruck(data)}>{value ?? ''}</CellText>;
}

function RemainingDaysCell({ data }: ICellRendererParams<ActivationRow>) {
  const style = useStruck(data);
  if (!data) return null;
  return (
    <div style={{ ...style, height: '100%' }}>
      <RemainingDaysBar value={data} name={data.activationid} />
    </div>
  );
}

/**
 * Assigned rows: the seats on the host, which the user may lower to return part of them (issue 21). Available rows:
 * the count to activate, typed against the available count shown after it. An error ('Minimum is 1.' / 'Maximum is
 * {n}.', spec 002 §5) shows under the input while the row is chosen.
 */
function ActivatedCell({ data }: ICellRendererParams<ActivationRow>) {
  const state = useTableState();
  if (!data) return null;
  const id = data.activationid;
  const chosen = isChosen(state, id);
  const assigned = state.kind === 'assigned';
  if (assigned && seatsOnHost(data) === 0)
    return <CellText style={struck(chosen)}>{formatCount(data.ansysactivated)}</CellText>;
  const count = assigned
    ? (state.selection.keep?.[id] ?? String(seatsOnHost(data)))
    : (state.selection.available[id]?.count ?? '');
  const error = chosen ? (assigned ? keepError(data, count) : countError(data, count)) : null;
  const set = assigned ? setKeep : setCount;
  return (
    <Stack justify="center" h="100%">
      <Group gap={6} wrap="nowrap" align="flex-start" style={struck(chosen)}>
        <NumberInput
          size="xs"
          w={88}
          value={count}
          onChange={(v) => state.onSelectionChange(set(state.selection, id, String(v)))}
          aria-label={`${assigned ? 'Assigned' : 'Activated'} count for ${id}`}
          min={1}
          max={assigned ? seatsOnHost(data) : data.ansysavailable}
          // The spec's messages say what is wrong: the input neither clamps nor accepts signs or decimals.
          clampBehavior="none"
          allowNegative={false}
          allowDecimal={false}
          hideControls
          disabled={state.disabled || !chosen}
          error={error}
          // Mantine's error red reaches only 3.6:1 on white; shade 9 meets the 4.5:1 WCAG AA asks for small text.
          styles={{
            error: { whiteSpace: 'nowrap', color: 'var(--mantine-color-red-9)' },
            input: error ? { color: 'var(--mantine-color-red-9)' } : undefined,
          }}
        />
        {assigned ? null : (
          <Text size="sm" component="span" lh="30px" style={{ whiteSpace: 'nowrap' }}>
            / {formatCount(data.ansysavailable)}
          </Text>
        )}
      </Group>
    </Stack>
  );
}

/** Remove / Undo of one row (named with its activation id). */
function ActionCell({ data }: ICellRendererParams<ActivationRow>) {
  const state = useTableState();
  if (!data) return null;
  const id = data.activationid;
  const chosen = isChosen(state, id);
  const toggle = state.kind === 'assigned' ? toggleAssigned : toggleAvailable;
  return (
    <Group h="100%" align="center">
      <Button
        size="compact-sm"
        variant="default"
        disabled={state.disabled}
        aria-label={`${chosen ? 'Remove' : 'Undo'} ${id}`}
        onClick={() => state.onSelectionChange(toggle(state.selection, id))}
      >
        {chosen ? 'Remove' : 'Undo'}
      </Button>
    </Group>
  );
}

/**
 * Remove all / Undo all of the rows the table lists: 'Remove all' while every listed row is chosen, otherwise
 * 'Undo all', which brings every listed row back (like a header checkbox, a mixed state first selects all).
 */
function ActionHeader() {
  const state = useTableState();
  const allChosen = state.shown.every((r) => isChosen(state, r.activationid));
  const data =
    state.kind === 'assigned'
      ? { assigned: state.shown, available: [] }
      : { assigned: [], available: state.shown };
  const setAll = state.kind === 'assigned' ? setAllAssigned : setAllAvailable;
  return (
    <Button
      size="compact-sm"
      variant="default"
      disabled={state.disabled || state.shown.length === 0}
      aria-label={`${allChosen ? 'Remove' : 'Undo'} all ${state.kind}`}
      onClick={() => state.onSelectionChange(setAll(state.selection, data, !allChosen))}
    >
      {allChosen ? 'Remove all' : 'Undo all'}
    </Button>
  );
}

/**
 * Each column filters on one or more texts (one per line): the shown text and the raw value, so "1,000" and
 * "1000" both find a count of 1000. One condition, contains or equals, as the product's other tables.
 */
const anyLine: TextMatcher = ({ filterOption, value, filterText }) => {
  if (!filterText) return true;
  const lines = String(value ?? '').split('\n');
  return filterOption === 'equals'
    ? lines.some((line) => line === filterText)
    : lines.some((line) => line.includes(filterText));
};

type Lines = (row: ActivationRow) => Array<string | number | null>;

const textFilter = (lines: Lines): Partial<ColDef<ActivationRow>> => ({
  filter: 'agTextColumnFilter',
  filterParams: {
    filterOptions: ['contains', 'equals'],
    maxNumConditions: 1,
    buttons: ['reset'],
    textMatcher: anyLine,
  },
  filterValueGetter: (p: ValueGetterParams<ActivationRow>) =>
    p.data
      ? lines(p.data)
          .filter((l) => l !== null)
          .map(String)
          .join('\n')
      : '',
});

/** Spec 002 §4: a perpetual's end is its maintenance end. */

/** Remaining days in order: expired first, then the days left, lines not started yet, perpetuals last. */
const remainingOrder = (r: ActivationRow) =>
  typeof r.remainingdays === 'number'
    ? r.remainingdays
    : { EXPIRED: -1, 'NOT STARTED': Number.MAX_SAFE_INTEGER - 1, PERMANENT: Number.MAX_SAFE_INTEGER }[
        r.remainingdays
      ];

const byRow =
  (key: (r: ActivationRow) => number | string) =>
  (_a: unknown, _b: unknown, a?: { data?: ActivationRow }, b?: { data?: ActivationRow }) => {
    const x = a?.data ? key(a.data) : '';
    const y = b?.data ? key(b.data) : '';
    return x < y ? -1 : x > y ? 1 : 0;
  };

const shownCount = (kind: EntitlementKind) => (r: ActivationRow) =>
  kind === 'assigned' ? r.ansysactivated : r.ansysavailable;

/**
 * The columns of both tables (spec 002 §2): entitlement, activated, start date, expiration date, remaining days
 * and the Remove / Undo button. Column ids are what saved views keep: do not rename them.
 */
export function entitlementColumns(kind: EntitlementKind): ColDef<ActivationRow>[] {
  const count = shownCount(kind);
  return [
    {
      colId: 'entitlement',
      headerName: 'Entitlement',
      valueGetter: (p) => (p.data ? `${p.data.ansysproduct} ${p.data.activationid}` : ''),
      cellRenderer: EntitlementCell,
      ...textFilter((r) => [r.ansysproduct, r.activationid, r.isEval ? '(Evaluation)' : null]),
      flex: 2,
      minWidth: 220,
    },
    {
      colId: 'activated',
      headerName: 'Activated',
      valueGetter: (p) => (p.data ? count(p.data) : null),
      cellRenderer: ActivatedCell,
      ...textFilter((r) => [count(r), formatCount(count(r))]),
      minWidth: kind === 'available' ? 170 : 120,
    },
    {
      colId: 'startdate',
      field: 'startdate',
      headerName: 'Start Date',
      cellRenderer: TextCell,
      ...textFilter((r) => [r.startdate]),
      minWidth: 110,
    },
    {
      colId: 'enddate',
      headerName: 'Expiration Date',
      valueGetter: (p) => (p.data ? expirationText(p.data) : ''),
      comparator: byRow((r) => r.enddate ?? r.versiondate ?? ''),
      cellRenderer: TextCell,
      ...textFilter((r) => [expirationText(r)]),
      wrapText: true,
      minWidth: 150,
    },
    {
      colId: 'remainingdays',
      headerName: 'Remaining Days',
      valueGetter: (p) => p.data?.remainingdays,
      comparator: byRow(remainingOrder),
      cellRenderer: RemainingDaysCell,
      ...textFilter((r) => [r.remainingdays, remainingDaysText(r.remainingdays)]),
      minWidth: 130,
    },
    {
      colId: 'action',
      headerName: 'Action',
      headerComponent: ActionHeader,
      cellRenderer: ActionCell,
      sortable: false,
      filter: false,
      resizable: false,
      suppressMovable: true,
      flex: 0,
      width: 120,
      minWidth: 120,
    },
  ];
}
