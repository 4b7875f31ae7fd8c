import type { TableName } from '@lp/contract/prefs/schemas';
import { formatAmount, formatCount } from '@lp/domain/amounts';
import type { EntitlementViewRow } from '@lp/domain/elastic-entitlements';
import type { ProgressColour } from '@lp/domain/entitlements';
import { ActionIcon, Anchor, Group, Menu, Progress, Stack, Text, Tooltip } from '@mantine/core';
import {
  ClientSideRowModelModule,
  type ColDef,
  type ICellRendererParams,
  PaginationModule,
  type TextMatcher,
  type ValueFormatterParams,
  type ValueGetterParams,
} from 'ag-grid-community';
import { useMemo } from 'react';
import { useSavedView } from '../../../components/saved-view-grid/use-saved-view.ts';
import { ViewGrid } from '../../../components/saved-view-grid/view-grid.tsx';
import type { StatementPeriod } from '../api/entitlements.ts';

/** The whole list comes with one call, so these tables filter, sort and page in the browser. */
const gridModules = [ClientSideRowModelModule, PaginationModule];

export const PAGE_SIZE = 10;

const barColour: Record<ProgressColour, string> = { green: 'green', orange: 'orange', red: 'red' };

/**
 * Each column filters on one or more texts (one per line): the shown text and the raw value, so that
 * "1,000" and "1000" both find a count of 1000. One condition, contains or equals (spec 001 §2.1).
 */
const anyLine: TextMatcher = ({ filterOption, value, filterText }) => {
  if (!filterText) return true;
  const lines = String(value ?? '').split('\n');
  return filterOption === 'equals'
    ? lines.some((line) => line === filterText)
    : lines.some((line) => line.includes(filterText));
};

type Row = EntitlementViewRow;
type Lines = (row: Row) => Array<string | number>;

const textFilter = (lines: Lines): Partial<ColDef<Row>> => ({
  filter: 'agTextColumnFilter',
  filterParams: {
    filterOptions: ['contains', 'equals'],
    maxNumConditions: 1,
    buttons: ['reset'],
    textMatcher: anyLine,
  },
  filterValueGetter: (p: ValueGetterParams<Row>) => (p.data ? lines(p.data).map(String).join('\n') : ''),
});

/** Spec 001 §2.1: numbers with thousands separators; amounts (Total, Remaining) always with 2 decimals. */
const numberColumn = (
  colId: 'count' | 'total' | 'remaining',
  headerName: string,
  format: (n: number) => string,
  minWidth: number,
): ColDef<Row> => ({
  colId,
  field: colId,
  headerName,
  type: 'rightAligned',
  valueFormatter: (p: ValueFormatterParams<Row, number>) =>
    typeof p.value === 'number' ? format(p.value) : '',
  ...textFilter((r) => [r[colId], format(r[colId])]),
  minWidth,
});

function EntitlementCell({ data }: ICellRendererParams<Row>) {
  if (!data) return null;
  return (
    <Stack gap={0} py={4} style={{ lineHeight: 1.3 }}>
      <Text size="sm" fw={600}>
        {data.product}
      </Text>
      <Text size="xs">{data.activationId}</Text>
    </Stack>
  );
}

function Bar({
  value,
  colour,
  label,
  name,
}: {
  value: number;
  colour: ProgressColour;
  label: string;
  name: string;
}) {
  return (
    <Stack gap={2} justify="center" h="100%">
      <Progress value={value} color={barColour[colour]} size="md" aria-label={name} data-colour={colour} />
      <Text size="xs">{label}</Text>
    </Stack>
  );
}

function RemainingDaysCell({ data }: ICellRendererParams<Row>) {
  if (!data) return null;
  return (
    <Bar
      value={data.usedDaysPercentage}
      colour={data.remainingDaysColour}
      label={data.remainingDaysLabel}
      name={`Elapsed time of ${data.activationId}`}
    />
  );
}

function UsedPercentageCell({ data }: ICellRendererParams<Row>) {
  if (!data) return null;
  return (
    <Bar
      value={data.usedPercentage}
      colour={data.usedColour}
      label={`${data.usedPercentage}%`}
      name={`Used share of ${data.activationId}`}
    />
  );
}

type SendStatement = (period: StatementPeriod, row: Row) => void;
type AdjustBalance = (row: Row) => void;
interface GridContext {
  send: SendStatement;
  adjust?: AdjustBalance;
}

/**
 * The row's actions as icon buttons (named for assistive technology, with a tooltip for the eye), so the
 * pinned column stays narrow and the data columns keep the width (issue 8).
 */
function ActionsCell({ data, context }: ICellRendererParams<Row, unknown, GridContext>) {
  if (!data) return null;
  const adjust = context.adjust;
  return (
    <Group gap={6} wrap="nowrap" h="100%" align="center">
      <Menu position="bottom-end" withinPortal>
        <Tooltip label="Statement e-mails" withinPortal>
          <Menu.Target>
            <ActionIcon variant="light" aria-label={`Statement e-mails for ${data.activationId}`}>
              <span aria-hidden="true">✉</span>
            </ActionIcon>
          </Menu.Target>
        </Tooltip>
        <Menu.Dropdown>
          <Menu.Item onClick={() => context.send('Weekly', data)}>Send weekly statement</Menu.Item>
          <Menu.Item onClick={() => context.send('Monthly', data)}>Send monthly statement</Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {adjust ? (
        <Tooltip label="Adjust balance" withinPortal>
          <ActionIcon
            variant="light"
            aria-label={`Adjust balance of ${data.activationId}`}
            onClick={() => adjust(data)}
          >
            <span aria-hidden="true">±</span>
          </ActionIcon>
        </Tooltip>
      ) : null}
    </Group>
  );
}

export interface EntitlementsTableProps {
  customerNumber: string;
  tableName: Extract<TableName, 'activeEntitlements' | 'inActiveEntitlements'>;
  title: string;
  rows: Row[];
  termsUrl: string;
  onSendStatement: SendStatement;
  /** Vendor busops only: opens the balance adjustment of a row. */
  onAdjustBalance?: AdjustBalance;
}

/**
 * One of the two /elastic tables (spec 001 §2.1) with the user's saved view, Clear filters and Reset view
 * (spec 001 §4 "Table preference buttons").
 */
export function EntitlementsTable(props: EntitlementsTableProps) {
  const { termsUrl } = props;
  // Cells reach the action through the grid context: new column definitions would reset the user's columns.
  const context = useMemo<GridContext>(
    () => ({ send: props.onSendStatement, adjust: props.onAdjustBalance }),
    [props.onSendStatement, props.onAdjustBalance],
  );
  const adjustable = !!props.onAdjustBalance;
  const view = useSavedView({ customerNumber: props.customerNumber, tableName: props.tableName });

  const columnDefs = useMemo<ColDef<Row>[]>(
    () => [
      {
        colId: 'entitlement',
        headerName: 'Entitlement',
        valueGetter: (p: ValueGetterParams<Row>) =>
          p.data ? `${p.data.product} ${p.data.activationId}` : '',
        cellRenderer: EntitlementCell,
        ...textFilter((r) => [r.product, r.activationId]),
        minWidth: 155,
        flex: 2,
      },
      numberColumn('count', 'Count', formatCount, 75),
      {
        colId: 'startDate',
        field: 'startDate',
        headerName: 'Start Date',
        ...textFilter((r) => [r.startDate]),
        minWidth: 90,
      },
      {
        colId: 'endDate',
        field: 'endDate',
        headerName: 'Expiration Date',
        ...textFilter((r) => [r.endDate]),
        // 'Expiration' whole beside the filter button (issue 21).
        minWidth: 100,
      },
      {
        colId: 'remainingDays',
        field: 'remainingDays',
        headerName: 'Remaining Days',
        cellRenderer: RemainingDaysCell,
        ...textFilter((r) => [r.remainingDays, r.remainingDaysLabel]),
        minWidth: 100,
      },
      numberColumn('total', 'Total', formatAmount, 85),
      numberColumn('remaining', 'Remaining', formatAmount, 100),
      {
        colId: 'currency',
        field: 'currency',
        headerName: 'Currency',
        ...textFilter((r) => [r.currency]),
        minWidth: 90,
      },
      {
        colId: 'usedPercentage',
        field: 'usedPercentage',
        headerName: 'Used Percentage',
        cellRenderer: UsedPercentageCell,
        ...textFilter((r) => [r.usedPercentage, `${r.usedPercentage}%`]),
        // 'Percentage' and the filter button (issue 21: the header was clipped at 1366 px).
        minWidth: 105,
      },
      {
        colId: 'rateTable',
        field: 'rateTableLabel',
        headerName: 'Rate Table',
        cellRenderer: ({ data }: ICellRendererParams<Row>) =>
          data ? (
            <Anchor
              href={termsUrl}
              target="_blank"
              rel="noopener noreferrer"
              size="sm"
              c="blue.9"
              title={`Rate table ${data.rateTableVersion}: elastic licensing terms`}
            >
              {data.rateTableLabel}
            </Anchor>
          ) : null,
        ...textFilter((r) => [r.rateTableLabel, r.rateTableVersion]),
        // Short labels ('2024'). The minimum widths add up to less than the width left of the pinned actions on a
        // 1366 px screen with the menu open, so no column hides under them (issue 21).
        minWidth: 70,
      },
      {
        colId: 'actions',
        headerName: 'Actions',
        // The row actions stay in reach however far the table is scrolled sideways.
        pinned: 'right',
        sortable: false,
        filter: false,
        suppressHeaderMenuButton: true,
        flex: 0,
        width: adjustable ? 84 : 70,
        minWidth: adjustable ? 84 : 70,
        resizable: false,
        cellRenderer: ActionsCell,
      },
    ],
    [termsUrl, adjustable],
  );

  const defaultColDef = useMemo<ColDef<Row>>(
    // Two-word headers wrap rather than truncate; the minimum widths fit the widest cell texts.
    () => ({
      sortable: true,
      resizable: true,
      flex: 1,
      minWidth: 75,
      wrapHeaderText: true,
      autoHeaderHeight: true,
    }),
    [],
  );

  return (
    <ViewGrid<Row>
      view={view}
      rowModel={{ kind: 'client', rows: props.rows }}
      ariaLabel={`${props.title} table`}
      modules={gridModules}
      getRowId={(p) => p.data.activationId}
      context={context}
      columnDefs={columnDefs}
      defaultColDef={defaultColDef}
      domLayout="autoHeight"
      rowHeight={56}
      // A few columns only: render them all, so every cell is in the page for assistive technology.
      suppressColumnVirtualisation
      animateRows={false}
      pagination
      paginationPageSize={PAGE_SIZE}
      paginationPageSizeSelector={[PAGE_SIZE, 25, 50, 100]}
    />
  );
}
