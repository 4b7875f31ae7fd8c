import { alertsApi } from '@lp/contract/alerts/api';
import { type AlertRow, alertColumnKinds } from '@lp/contract/alerts/schemas';
import { categoryPageFor, categoryPages, formatAlertDate, joinWithAnd } from '@lp/domain/alerts';
import { Anchor, Alert as Callout, Card, Group, SimpleGrid, Stack, Tabs, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ColDef, ICellRendererParams, ValueFormatterParams } from 'ag-grid-community';
import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useCustomer } from '../../../app/customer-context.tsx';
import { filterModelToRule } from '../../../components/saved-view-grid/grid-filter.ts';
import { useSavedView } from '../../../components/saved-view-grid/use-saved-view.ts';
import { useServerRows } from '../../../components/saved-view-grid/use-server-rows.ts';
import { ViewGrid } from '../../../components/saved-view-grid/view-grid.tsx';
import type { GridFilterModel } from '../../../components/saved-view-grid/view-rules.ts';
import { Spinner } from '../../../components/spinner.tsx';
import { DataService } from '../../../lib/data-service.ts';
import type { Row } from '../../../lib/filter-rules.ts';
import { activeAlertsQuery } from '../api/alerts.ts';
import { CategoryBadge } from '../components/alert-facts.tsx';

export const NO_ISSUES = 'No issues';
export const NO_RESOLVED = 'There are no resolved alerts to display.';

function ActiveTab() {
  const { data, isPending, error } = useQuery(activeAlertsQuery());
  if (isPending) return <Spinner text="Loading..." />;
  if (error) return <Callout color="red">{error.message}</Callout>;
  if (data.length === 0) return <Text py="md">{NO_ISSUES}</Text>;
  const groups = categoryPages
    .map((page) => ({ page, items: data.filter((a) => categoryPageFor(a.category).slug === page.slug) }))
    .filter((g) => g.items.length > 0);
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" py="md">
      {groups.map(({ page, items }) => (
        <Card key={page.slug} withBorder padding="md" component="section" aria-label={page.title}>
          <Stack gap="xs">
            <Group justify="space-between">
              <Title order={2} size="h4">
                {page.title}
              </Title>
              <CategoryBadge category={page.category} />
            </Group>
            <Text size="sm">
              {items.length} {items.length === 1 ? 'item' : 'items'}
            </Text>
            <Text size="sm">
              Affected services: {joinWithAnd([...new Set(items.flatMap((a) => a.service))])}
            </Text>
            <Anchor component={Link} to={`/notifications-category/${page.slug}`} size="sm" c="blue.9">
              See all
            </Anchor>
          </Stack>
        </Card>
      ))}
    </SimpleGrid>
  );
}

type ResolvedRow = AlertRow & Row;

/** The alerts service rewrites criteria on category, date and expires: the server decides those. */
const { category: _c, date: _d, expires: _e, ...narrowableAlertColumns } = alertColumnKinds;

const dateCell = (p: ValueFormatterParams<ResolvedRow>) =>
  typeof p.value === 'string' ? formatAlertDate(p.value) : '';
const dateFilter = { filter: 'agDateColumnFilter', filterParams: { maxNumConditions: 1 } };
const resolvedCriteria = [{ name: 'resolved', method: 'EQUALS' as const, value: true }];
const resolvedRule = (model: GridFilterModel | null) => filterModelToRule(model, { extra: resolvedCriteria });

function ResolvedTab() {
  const { customer } = useCustomer();
  const service = useMemo(
    () => new DataService<ResolvedRow>({ base: alertsApi.page.path, columns: narrowableAlertColumns }),
    [],
  );
  // Alerts are global; the saved view is kept under the selected customer like every other table.
  const view = useSavedView({
    customerNumber: customer?.customerNumber ?? '',
    tableName: 'notificationsResolved',
  });
  const rows = useServerRows(view.api, view.applied, { dataService: service, ruleFor: resolvedRule });
  const columns = useMemo<ColDef<ResolvedRow>[]>(
    () => [
      {
        colId: 'date',
        field: 'date',
        headerName: 'Start Time',
        valueFormatter: dateCell,
        sort: 'desc',
        ...dateFilter,
      },
      { colId: 'expires', field: 'expires', headerName: 'End Time', valueFormatter: dateCell, ...dateFilter },
      { colId: 'description', field: 'description', headerName: 'Alert Title', filter: 'agTextColumnFilter' },
      {
        colId: 'category',
        field: 'category',
        headerName: 'Category',
        filter: false,
        cellRenderer: (p: ICellRendererParams<ResolvedRow>) =>
          p.data ? <CategoryBadge category={p.data.category} /> : null,
      },
      {
        colId: 'service',
        field: 'service',
        headerName: 'Affected Service',
        filter: 'agTextColumnFilter',
        sortable: false,
        valueFormatter: (p: ValueFormatterParams<ResolvedRow>) =>
          Array.isArray(p.value) ? joinWithAnd(p.value as string[]) : '',
      },
      {
        colId: 'details',
        headerName: 'Details',
        sortable: false,
        filter: false,
        cellRenderer: (p: ICellRendererParams<ResolvedRow>) =>
          p.data ? (
            <Anchor component={Link} to={`/notification-details/${p.data.id}`} size="sm" c="blue.9">
              View
            </Anchor>
          ) : null,
      },
    ],
    [],
  );
  return (
    <Stack gap="xs" py="md">
      {rows.empty ? <Text data-testid="resolved-empty">{NO_RESOLVED}</Text> : null}
      <ViewGrid<ResolvedRow>
        view={view}
        rowModel={{ kind: 'infinite', source: rows }}
        columnDefs={columns}
        ariaLabel="Resolved alerts"
        height={420}
      />
    </Stack>
  );
}

/** /notifications (spec 000 §2.12): tabs Active and Resolved. */
export default function NotificationsPage() {
  // The tab lives in the URL: it survives a reload, a remount while the account is restored, and can be linked.
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'resolved' ? 'resolved' : 'active';
  const setTab = (value: string | null) =>
    setParams(value === 'resolved' ? { tab: 'resolved' } : {}, { replace: true });
  return (
    <Stack data-testid="alerts-page">
      <Title order={1} size="h2">
        Service Alerts
      </Title>
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="active">Active</Tabs.Tab>
          <Tabs.Tab value="resolved">Resolved</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="active">
          <ActiveTab />
        </Tabs.Panel>
        <Tabs.Panel value="resolved">
          <ResolvedTab />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

export const Component = NotificationsPage;
