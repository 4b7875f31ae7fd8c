import '@mantine/charts/styles.css';
import '@mantine/dates/styles.css';
import { messages } from '@lp/contract/common/errors';
import type { StatementRequest } from '@lp/contract/statements/schemas';
import { formatDate } from '@lp/domain/dates';
import { displayProducts, pieSlices, statementPdfFileName } from '@lp/domain/statement';
import { Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useCustomer } from '../../../app/customer-context.tsx';
import { showError } from '../../../components/panels.tsx';
import { SavedViewButtons } from '../../../components/saved-view-grid/saved-view-buttons.tsx';
import { tablePrefsQuery } from '../../../components/saved-view-grid/table-prefs.ts';
import { useSavedView } from '../../../components/saved-view-grid/use-saved-view.ts';
import { findPref } from '../../../components/saved-view-grid/view-rules.ts';
import { Spinner } from '../../../components/spinner.tsx';
import { saveFile } from '../../../lib/save-file.ts';
import { fetchStatementPdf, statementQuery } from '../api/statements.ts';
import { ProductGrid } from '../components/product-grid.tsx';
import { PurchaseOrderGrid } from '../components/purchase-order-grid.tsx';
import { StatementPie } from '../components/statement-pie.tsx';
import { StatementRangeMenu } from '../components/statement-range-menu.tsx';
import {
  DEFAULT_RANGE,
  isDefaultRange,
  rangeDays,
  rangeFromPref,
  rangePref,
  type StatementRange,
} from '../statement-view.ts';

/** Spec 001 §3: the statement's saved view. */
const TABLE = 'elasticTransaction';
const PREFS_SPINNER = 'Getting Preferences';
const STATEMENT_SPINNER = 'Loading...';

function HeaderItem({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs">{label}</Text>
      <Text fw={500}>{value}</Text>
    </div>
  );
}

function StatementView(props: {
  customerNumber: string;
  customerName: string;
  initialRange: StatementRange;
}) {
  const { customerNumber, customerName } = props;
  const [range, setRange] = useState(props.initialRange);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [exporting, setExporting] = useState(false);

  const today = formatDate(new Date());
  const period = useMemo(() => rangeDays(range, new Date(`${today}T12:00:00Z`)), [range, today]);
  const request: StatementRequest = { ...period, today, customerNumber, customerName };
  const statement = useQuery(statementQuery(request));

  const view = useSavedView({
    customerNumber,
    tableName: TABLE,
    extra: useMemo(() => ({ differsFromInitial: !isDefaultRange(range) }), [range]),
    extraPref: rangePref(range),
  });

  // Spec 001 §8: a failure is logged (except for an account without entitlements) and shows no message.
  useEffect(() => {
    const error = statement.error;
    if (error && !error.message.includes(messages.noActiveEntitlements))
      console.error('Statement:', error.message);
  }, [statement.error]);

  const onToggle = useCallback(
    (rowId: string) =>
      setExpanded((current) => {
        const next = new Set(current);
        if (!next.delete(rowId)) next.add(rowId);
        return next;
      }),
    [],
  );

  const exportPdf = async () => {
    setExporting(true);
    try {
      saveFile(await fetchStatementPdf(request), statementPdfFileName(customerNumber, period));
    } catch (e) {
      showError(e instanceof Error ? e.message : messages.pdfExportFailed);
    } finally {
      setExporting(false);
    }
  };

  const data = statement.data;
  const products = data?.Products ?? [];
  return (
    <Stack>
      <Group justify="space-between" wrap="wrap" className="lp-no-print">
        <Group gap="xs">
          <StatementRangeMenu value={range} onChange={setRange} />
        </Group>
        <Group gap="xs">
          <SavedViewButtons view={view} onResetView={() => setRange(DEFAULT_RANGE)} />
          <Button size="xs" disabled={!statement.isSuccess} loading={exporting} onClick={exportPdf}>
            Export as PDF
          </Button>
        </Group>
      </Group>

      <Paper withBorder p="md" aria-label="Statement header" component="section">
        <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }}>
          <HeaderItem label="Report Date" value={data?.Customer.ReportDate ?? today} />
          <HeaderItem
            label="Account"
            value={`${data?.Customer.AccountId ?? customerNumber} (${data?.Customer.AccountName ?? customerName})`}
          />
          <HeaderItem label="Period Start Date" value={data?.Customer.PeriodStart ?? period.from} />
          <HeaderItem label="Period End Date" value={data?.Customer.PeriodEnd ?? period.to} />
        </SimpleGrid>
      </Paper>

      <div style={{ position: 'relative' }}>
        {statement.isFetching || view.busy ? <Spinner text={view.busy ?? STATEMENT_SPINNER} overlay /> : null}
        <Stack>
          <Title order={2} size="h4">
            Usage by Purchase Order
          </Title>
          <PurchaseOrderGrid
            records={data?.Records ?? []}
            expanded={expanded}
            onToggle={onToggle}
            gridEvents={view.gridEvents}
          />
          {products.length > 0 ? (
            <>
              <Title order={2} size="h4">
                Usage by Product
              </Title>
              <Group align="flex-start" wrap="wrap" gap="xl">
                <div style={{ flex: '1 1 420px', minWidth: 0 }}>
                  <ProductGrid products={displayProducts(products)} />
                </div>
                <StatementPie title="Period Used by Product" slices={pieSlices(products)} />
              </Group>
            </>
          ) : null}
        </Stack>
      </div>
    </Stack>
  );
}

/** Waits for the saved views so the statement is asked once, for the saved range (spec 001 §4 customer change). */
function StatementScreen() {
  const { customer } = useCustomer();
  const prefs = useQuery(tablePrefsQuery());
  if (!customer) return null;
  const resolved = prefs.isSuccess || prefs.isError;
  return (
    <Stack data-testid="statement-page">
      <Title order={1} size="h2">
        Elastic Statements
      </Title>
      {resolved ? (
        <StatementView
          key={customer.customerNumber}
          customerNumber={customer.customerNumber}
          customerName={customer.customerName}
          initialRange={rangeFromPref(findPref(prefs.data, customer.customerNumber, TABLE))}
        />
      ) : (
        <Spinner text={PREFS_SPINNER} />
      )}
    </Stack>
  );
}

/** Routed at /statementv2 inside RequireCustomer (web/src/app/router.tsx). */
export default StatementScreen;
