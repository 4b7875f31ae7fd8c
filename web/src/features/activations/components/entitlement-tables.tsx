/**
 * The two tables of one customer tab of /activations (spec 002 §2 "Activations screen").
 *
 * Accessible names (what browser tests find):
 * - sections: role region 'Assigned Entitlements' / 'Available Entitlements' (the accordion panels);
 * - grids: role region 'Assigned Entitlements table' / 'Available Entitlements table';
 * - per row: buttons 'Remove {activationid}' / 'Undo {activationid}'; available rows' count inputs
 *   'Activated count for {activationid}' (the error text is the input's description);
 * - all rows: buttons 'Remove all assigned' / 'Undo all assigned', 'Remove all available' / 'Undo all available';
 * - saved views: buttons 'Clear filters' / 'Reset view' inside each section;
 * - available table: the product multi-select, a button 'Products' opening the listbox 'Products' with the
 *   options 'Select All' and one per product (aria-selected when its rows are listed).
 * Column ids (AG Grid col-id): entitlement, activated, startdate, enddate, remainingdays, action.
 */
import type { ActivationRow } from '@lp/contract/activations/schemas';
import type { TableName } from '@lp/contract/prefs/schemas';
import { Accordion } from '@mantine/core';
import {
  ClientSideRowModelApiModule,
  ClientSideRowModelModule,
  type ColDef,
  type ModelUpdatedEvent,
} from 'ag-grid-community';
import { useCallback, useMemo, useState } from 'react';
import { useSavedView } from '../../../components/saved-view-grid/use-saved-view.ts';
import { ViewGrid } from '../../../components/saved-view-grid/view-grid.tsx';
import { assignedRows, availableRows, type TabData, type TabSelection } from '../selection.ts';
import {
  type EntitlementKind,
  EntitlementTableContext,
  type EntitlementTableState,
  entitlementColumns,
} from './entitlement-columns.tsx';
import { EntitlementProductSelect } from './entitlement-product-select.tsx';

/**
 * The whole list comes with one call, so these tables filter and sort in the browser; the row model's API
 * gives the rows listed after the filters.
 */
const gridModules = [ClientSideRowModelModule, ClientSideRowModelApiModule];

const tables = {
  assigned: { title: 'Assigned Entitlements', tableName: 'activationsAssigned', rowHeight: 56 },
  // Room for a count error under the input.
  available: { title: 'Available Entitlements', tableName: 'activationsAvailable', rowHeight: 68 },
} as const satisfies Record<EntitlementKind, { title: string; tableName: TableName; rowHeight: number }>;

/** Up to this many rows a table grows with them; longer lists scroll inside a table of this many rows. */
const MAX_VISIBLE_ROWS = 8;
const HEADER_HEIGHT = 48;

const defaultColDef: ColDef<ActivationRow> = {
  sortable: true,
  resizable: true,
  flex: 1,
  minWidth: 100,
  // Two-word headers wrap rather than truncate.
  wrapHeaderText: true,
  autoHeaderHeight: true,
};

const sameRows = (a: ActivationRow[], b: ActivationRow[]) =>
  a.length === b.length && a.every((r, i) => r === b[i]);

interface EntitlementGridProps {
  kind: EntitlementKind;
  customerNumber: string;
  rows: ActivationRow[];
  selection: TabSelection;
  onSelectionChange: (next: TabSelection) => void;
  disabled: boolean;
  toolbar?: React.ReactNode;
}

/** One table with the user's saved view for (customer, table) and its Clear filters / Reset view buttons. */
function EntitlementGrid({
  kind,
  customerNumber,
  rows,
  selection,
  onSelectionChange,
  disabled,
  toolbar,
}: EntitlementGridProps) {
  const { title, tableName, rowHeight } = tables[kind];
  const view = useSavedView({ customerNumber, tableName });
  const columnDefs = useMemo(() => entitlementColumns(kind), [kind]);
  // The rows the grid lists after its filters: the all-rows button acts on these.
  const [shown, setShown] = useState<ActivationRow[]>([]);
  const onModelUpdated = useCallback((e: ModelUpdatedEvent<ActivationRow>) => {
    const list: ActivationRow[] = [];
    e.api.forEachNodeAfterFilter((n) => {
      if (n.data) list.push(n.data);
    });
    setShown((prev) => (sameRows(prev, list) ? prev : list));
  }, []);
  const state = useMemo<EntitlementTableState>(
    () => ({ kind, selection, onSelectionChange, shown, disabled }),
    [kind, selection, onSelectionChange, shown, disabled],
  );
  const scrolls = rows.length > MAX_VISIBLE_ROWS;

  return (
    <EntitlementTableContext.Provider value={state}>
      <ViewGrid<ActivationRow>
        view={view}
        rowModel={{ kind: 'client', rows }}
        ariaLabel={`${title} table`}
        toolbar={toolbar}
        height={scrolls ? HEADER_HEIGHT + MAX_VISIBLE_ROWS * rowHeight + 2 : undefined}
        modules={gridModules}
        getRowId={(p) => p.data.activationid}
        columnDefs={columnDefs}
        defaultColDef={defaultColDef}
        domLayout={scrolls ? 'normal' : 'autoHeight'}
        // A scrolling table sizes its columns left of the scrollbar from the start (decision 052).
        alwaysShowVerticalScroll={scrolls}
        rowHeight={rowHeight}
        // A few dozen rows at most: render them all, so every row and cell is in the page for assistive
        // technology (and for a browser test) without scrolling the grid first.
        suppressRowVirtualisation
        suppressColumnVirtualisation
        animateRows={false}
        onModelUpdated={onModelUpdated}
      />
    </EntitlementTableContext.Provider>
  );
}

export interface EntitlementTablesProps {
  customerNumber: string;
  data: TabData;
  selection: TabSelection;
  onSelectionChange: (next: TabSelection) => void;
  /** While saving: no row can be changed. */
  disabled?: boolean;
}

/**
 * A customer tab's 'Assigned Entitlements' and 'Available Entitlements' tables, both open at first. Which rows
 * are listed, and what a click or a typed count does to the selection, follow selection.ts.
 */
export function EntitlementTables({
  customerNumber,
  data,
  selection,
  onSelectionChange,
  disabled = false,
}: EntitlementTablesProps) {
  const assigned = useMemo(() => assignedRows(data), [data]);
  const available = useMemo(() => availableRows(data), [data]);
  const products = useMemo(
    () => [...new Set(available.map((r) => r.ansysproduct))].sort((a, b) => a.localeCompare(b)),
    [available],
  );
  const [hiddenProducts, setHiddenProducts] = useState<ReadonlySet<string>>(() => new Set());
  const listedAvailable = useMemo(
    () => available.filter((r) => !hiddenProducts.has(r.ansysproduct)),
    [available, hiddenProducts],
  );
  const common = { customerNumber, selection, onSelectionChange, disabled };

  return (
    <Accordion multiple defaultValue={['assigned', 'available']} variant="separated" order={2}>
      <Accordion.Item value="assigned">
        <Accordion.Control>{tables.assigned.title}</Accordion.Control>
        <Accordion.Panel>
          <EntitlementGrid kind="assigned" rows={assigned} {...common} />
        </Accordion.Panel>
      </Accordion.Item>
      <Accordion.Item value="available">
        <Accordion.Control>{tables.available.title}</Accordion.Control>
        <Accordion.Panel>
          <EntitlementGrid
            kind="available"
            rows={listedAvailable}
            {...common}
            toolbar={
              <EntitlementProductSelect
                products={products}
                hidden={hiddenProducts}
                onHiddenChange={setHiddenProducts}
              />
            }
          />
        </Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}
