import { formatCount } from '@lp/domain/amounts';
import { Stack, Text } from '@mantine/core';
import type { ColDef, ICellRendererParams, ValueFormatterParams } from 'ag-grid-community';
import { RemainingDaysBar } from '../../../components/remaining-days-bar.tsx';
import type { LeaseGridRow } from '../api/leases.ts';
import type { LeaseColumnId } from '../lease-filter.ts';

type Row = LeaseGridRow;

/** Spec 002 §2: one condition per column, contains or equals (lease-filter.ts says what each one means). */
const textFilter = {
  filter: 'agTextColumnFilter',
  filterParams: { filterOptions: ['contains', 'equals'], maxNumConditions: 1, buttons: ['reset'] },
  // Two-word headers wrap rather than truncate on a 1366 px screen.
  wrapHeaderText: true,
  autoHeaderHeight: true,
} as const;

/** Product name in bold ('(Evaluation)' after an evaluation's) over the activation id. */
function EntitlementCell({ data }: ICellRendererParams<Row>) {
  if (!data) return null;
  return (
    <Stack gap={0} justify="center" h="100%" style={{ lineHeight: 1.2 }}>
      <Text size="sm" fw={700} lh={1.2} truncate>
        {data.ProductName}
        {data.view?.isEval ? ' (Evaluation)' : ''}
      </Text>
      <Text size="xs" lh={1.2} truncate>
        {data.ActivationId}
      </Text>
    </Stack>
  );
}

/**
 * The expiration date, or a perpetual's 'Maintenance ends on {date}' as two lines (the words over the date), so
 * the date shows whole in a column narrow enough for a 1366 px screen (issue 21).
 */
function ExpirationCell({ value }: ICellRendererParams<Row, string | undefined>) {
  const text = value ?? '';
  const cut = text.lastIndexOf(' ');
  if (cut < 0) return text;
  return (
    <Stack gap={0} justify="center" h="100%" style={{ lineHeight: 1.2 }}>
      {/* The space stays in the text, so it reads (and copies) as one phrase. */}
      <span>{text.slice(0, cut + 1)}</span>
      <span>{text.slice(cut + 1)}</span>
    </Stack>
  );
}

/** The elapsed share of the period as a coloured bar over the days left (or PERMANENT, EXPIRED, NOT STARTED). */
function RemainingDaysCell({ data }: ICellRendererParams<Row>) {
  if (!data?.view) return null;
  return <RemainingDaysBar value={data.view} name={data.ActivationId} />;
}

const counted = (p: ValueFormatterParams<Row, number | null | undefined>) =>
  typeof p.value === 'number' ? formatCount(p.value) : '';

/**
 * The columns of both /ssl tables (spec 002 §2). Every column sorts and filters on the server; the column ids
 * are what lease-filter.ts rewrites into the record's fields. Default sort: Expiration Date ascending.
 */
export const leaseColumnDefs: (ColDef<Row> & { colId: LeaseColumnId })[] = [
  {
    colId: 'entitlement',
    headerName: 'Entitlement',
    valueGetter: (p) => p.data?.ProductName,
    cellRenderer: EntitlementCell,
    ...textFilter,
    // The product name takes the width the other columns leave (they keep to their minimum on a 1366 px screen).
    flex: 4,
    minWidth: 200,
  },
  { colId: 'licensemodel', field: 'LicenseModel', headerName: 'License Model', ...textFilter, minWidth: 115 },
  {
    colId: 'count',
    field: 'LineItemQuantity',
    headerName: 'Count',
    type: 'rightAligned',
    valueFormatter: counted,
    ...textFilter,
    minWidth: 80,
  },
  { colId: 'startdate', field: 'StartDate', headerName: 'Start Date', ...textFilter, minWidth: 95 },
  {
    colId: 'enddate',
    headerName: 'Expiration Date',
    valueGetter: (p) => p.data?.view?.expirationText,
    cellRenderer: ExpirationCell,
    sort: 'asc',
    ...textFilter,
    minWidth: 145,
  },
  {
    colId: 'remainingdays',
    headerName: 'Remaining Days',
    valueGetter: (p) => p.data?.view?.remainingdays,
    cellRenderer: RemainingDaysCell,
    ...textFilter,
    minWidth: 120,
  },
  {
    colId: 'activated',
    headerName: 'Total Activated',
    valueGetter: (p) => p.data?.totalActivated,
    type: 'rightAligned',
    valueFormatter: counted,
    ...textFilter,
    minWidth: 100,
  },
];
