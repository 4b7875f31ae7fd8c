import type { WebPool, WebPoolUse } from '@lp/contract/web-seats/schemas';
import { formatCount } from '@lp/domain/amounts';
import { Button } from '@mantine/core';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { useMemo } from 'react';
import { actionsColumn } from '../../../components/saved-view-grid/actions-column.ts';
import { ListGrid } from '../../../components/saved-view-grid/list-grid.tsx';
import { groupTermsText, policyText, poolKindText, termText } from '../pool-text.ts';

export const POOLS_TITLE = 'Web seat pools';

interface GridContext {
  /** Absent for view-only users: the table has no Edit policy then. */
  editPolicy?: (pool: WebPool) => void;
}

function ActionsCell({ data, context }: ICellRendererParams<WebPoolUse, unknown, GridContext>) {
  if (!data || !context.editPolicy) return null;
  const edit = context.editPolicy;
  return (
    <Button
      size="compact-sm"
      variant="light"
      aria-label={`Edit policy of ${data.productName}`}
      onClick={() => edit(data)}
    >
      Edit policy
    </Button>
  );
}

const count = (n: number | null | undefined) => (typeof n === 'number' ? formatCount(n) : '');

const numberColumn = (
  colId: string,
  headerName: string,
  value: (p: WebPoolUse) => number | null | undefined,
): ColDef<WebPoolUse> => ({
  colId,
  headerName,
  type: 'rightAligned',
  valueGetter: (p) => (p.data ? value(p.data) : null),
  valueFormatter: (p) => count(p.value),
  filterValueGetter: (p) => (p.data ? count(value(p.data)) : ''),
  minWidth: 90,
});

/** The pools of the account (decision 071 "Pages"): one row per product sold as Named User or Shared Web seats. */
export function PoolsTable({
  customerNumber,
  pools,
  onEditPolicy,
}: {
  customerNumber: string;
  pools: WebPoolUse[];
  onEditPolicy?: (pool: WebPool) => void;
}) {
  const context = useMemo<GridContext>(() => ({ editPolicy: onEditPolicy }), [onEditPolicy]);
  const editable = !!onEditPolicy;
  const columnDefs = useMemo<ColDef<WebPoolUse>[]>(
    () => [
      { colId: 'product', headerName: 'Product', field: 'productName', flex: 2, minWidth: 180 },
      { colId: 'partNumber', headerName: 'Part number', field: 'partNumber', minWidth: 120 },
      {
        colId: 'kind',
        headerName: 'Kind',
        valueGetter: (p) => (p.data ? poolKindText[p.data.kind] : ''),
        minWidth: 90,
      },
      numberColumn('seats', 'Seats', (p) => p.seats),
      // Shared pools have no named seats: their Assigned stays empty.
      numberColumn('assigned', 'Assigned', (p) => (p.kind === 'named' ? p.assigned : null)),
      numberColumn('inUse', 'In use', (p) => p.inUse),
      numberColumn('peak30Days', '30-day peak', (p) => p.peak30Days),
      {
        colId: 'term',
        headerName: 'Term',
        valueGetter: (p) => (p.data ? termText(p.data) : ''),
        minWidth: 190,
      },
      {
        colId: 'policy',
        headerName: 'Policy',
        valueGetter: (p) => (p.data ? policyText(p.data.policy) : ''),
        flex: 2,
        minWidth: 260,
      },
      {
        colId: 'transfers',
        headerName: 'Transfers',
        valueGetter: (p) => (p.data?.kind === 'named' ? p.data.transfers.text : ''),
        flex: 2,
        minWidth: 220,
      },
      {
        colId: 'groupTerms',
        headerName: 'Group terms',
        valueGetter: (p) => (p.data ? groupTermsText(p.data.groupTerms) : ''),
        flex: 2,
        minWidth: 200,
      },
      ...(editable ? [actionsColumn<WebPoolUse>(ActionsCell, 120)] : []),
    ],
    [editable],
  );
  return (
    <ListGrid<WebPoolUse>
      customerNumber={customerNumber}
      tableName="webPools"
      title={POOLS_TITLE}
      rows={pools}
      columnDefs={columnDefs}
      getRowId={(p) => p.data.partNumber}
      fileName={`WebSeatPools_${customerNumber}.csv`}
      context={context}
    />
  );
}
