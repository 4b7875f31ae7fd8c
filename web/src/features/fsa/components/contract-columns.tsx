import type { FsaContract } from '@lp/contract/fsa/schemas';
import { formatMoney } from '@lp/domain/fsa-pricing';
import { Button, Progress, Stack, Text } from '@mantine/core';
import type { ColDef, ICellRendererParams, ValueFormatterParams } from 'ag-grid-community';
import { RemainingDaysBar, remainingDaysText } from '../../../components/remaining-days-bar.tsx';

type Row = FsaContract;

function EntitlementCell({ data }: ICellRendererParams<Row>) {
  if (!data) return null;
  return (
    <Stack justify="center" h="100%">
      <Text size="sm" fw={700} truncate>
        {data.entitlementId}
      </Text>
    </Stack>
  );
}

function RemainingDaysCell({ data }: ICellRendererParams<Row>) {
  if (!data) return null;
  return (
    <RemainingDaysBar
      name={data.entitlementId}
      value={{
        remainingdays: data.remainingdays,
        usedDaysPercentage: data.usedDaysPercentage,
        remainingdayscolor: data.colours.remainingdays,
      }}
    />
  );
}

/** Spec 002 §4: the used share of the budget as a bar coloured at 80 and 95 % (the server's colour), with the number. */
function UsedPercentageCell({ data }: ICellRendererParams<Row>) {
  if (!data) return null;
  const text = `${data.usedPercentage}%`;
  return (
    <Stack gap={2} justify="center" h="100%" data-colour={data.colours.usedpercentage}>
      <Progress
        value={data.usedPercentage}
        color={data.colours.usedpercentage}
        size="sm"
        aria-label={`Used percentage of ${data.entitlementId}: ${text}`}
      />
      <Text size="xs" lh={1.2}>
        {text}
      </Text>
    </Stack>
  );
}

const money = (p: ValueFormatterParams<Row, number>) =>
  typeof p.value === 'number' ? formatMoney(p.value) : '';

/** Days left sort after the past and before contracts not started yet. */
const daysRank = (days: Row['remainingdays'] | undefined) =>
  typeof days === 'number' ? days : days === 'EXPIRED' ? -1 : Number.MAX_SAFE_INTEGER;

/**
 * The columns of both Entitlements tab grids (spec 002 §2 "FSA page"); default sort Expiration Date descending
 * (§9). Filters match the shown text (amounts as '1,234.50', days as '12 days').
 */
export const contractColumnDefs: ColDef<Row>[] = [
  {
    colId: 'entitlement',
    headerName: 'Entitlement',
    field: 'entitlementId',
    cellRenderer: EntitlementCell,
    // A whole entitlement id (issue 21: ids were cut at 1366 px); the minimum widths below add up to less than
    // the grid's width on a 1366 px screen with the menu open, so the Order buttons stay in view.
    minWidth: 170,
    flex: 1.5,
  },
  { colId: 'startdate', headerName: 'Start Date', field: 'startDate', minWidth: 90 },
  {
    colId: 'enddate',
    headerName: 'Expiration Date',
    valueGetter: (p) => p.data?.endDate ?? '',
    sort: 'desc',
    // 'Expiration' whole beside the sort and filter icons.
    minWidth: 120,
  },
  {
    colId: 'remainingdays',
    headerName: 'Remaining Days',
    valueGetter: (p) => p.data?.remainingdays,
    filterValueGetter: (p) => (p.data ? remainingDaysText(p.data.remainingdays) : ''),
    comparator: (a, b) => daysRank(a) - daysRank(b),
    cellRenderer: RemainingDaysCell,
    minWidth: 105,
  },
  {
    colId: 'total',
    headerName: 'Total',
    field: 'budgetCents',
    type: 'rightAligned',
    valueFormatter: money,
    filterValueGetter: (p) => (p.data ? formatMoney(p.data.budgetCents) : ''),
    minWidth: 90,
  },
  {
    colId: 'remaining',
    headerName: 'Remaining',
    field: 'remainingCents',
    type: 'rightAligned',
    valueFormatter: money,
    filterValueGetter: (p) => (p.data ? formatMoney(p.data.remainingCents) : ''),
    minWidth: 100,
  },
  { colId: 'currency', headerName: 'Currency', field: 'currency', minWidth: 90 },
  {
    colId: 'usedpercentage',
    headerName: 'Used Percentage',
    field: 'usedPercentage',
    filterValueGetter: (p) => (p.data ? `${p.data.usedPercentage}%` : ''),
    cellRenderer: UsedPercentageCell,
    minWidth: 105,
  },
];

/** The active grid's Order button (spec 002 §2): opens Order Products with the row's contract. */
export function orderColumnDef(onOrder: (entitlementId: string) => void): ColDef<Row> {
  return {
    colId: 'order',
    headerName: 'Order',
    sortable: false,
    filter: false,
    minWidth: 80,
    maxWidth: 100,
    cellRenderer: ({ data }: ICellRendererParams<Row>) =>
      data ? (
        <Stack justify="center" h="100%">
          <Button
            size="compact-sm"
            onClick={() => onOrder(data.entitlementId)}
            aria-label={`Order against ${data.entitlementId}`}
          >
            Order
          </Button>
        </Stack>
      ) : null,
  };
}
