import '@mantine/charts/styles.css';
import {
  type PoolDenials,
  type PoolUtilisation,
  RECLAIM_PAGE_DEFAULT,
} from '@lp/contract/web-reporting/schemas';
import { INACTIVE_DAYS, type InactiveDays } from '@lp/domain/web-reporting';
import { BarChart, LineChart } from '@mantine/charts';
import {
  Alert,
  Box,
  Group,
  Pagination,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useCustomer, useRefusalRedirect } from '../../../app/customer-context.tsx';
import { useViewOnly } from '../../../app/use-view-only.ts';
import { showError, showSuccess } from '../../../components/panels.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { errorText } from '../../../lib/api-client.ts';
import {
  denialsQuery,
  heatmapQuery,
  type ReportPeriod,
  reclaimQuery,
  useUnassignSeat,
  utilisationQuery,
} from '../api/web-reporting.ts';
import { ReclaimTable } from '../components/reclaim-table.tsx';
import { UsageHeatmap } from '../components/usage-heatmap.tsx';

export const webReportingTexts = {
  noPools: 'This account has no Named User or Shared Web entitlements in their term.',
  noDenials: 'No checkout was denied in this period.',
  noReclaim: (days: number) => `Every named seat was used in the last ${days} days.`,
  reclaimShown: (first: number, last: number, total: number) =>
    `${first.toLocaleString('en-US')}–${last.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} unused seats`,
} as const;

const PERIODS = ['7', '30', '90'] as const;
/** The heat map's choice of every pool (Mantine's Select needs a value; no part number has spaces). */
const ALL_POOLS = 'all pools';
type PeriodDays = (typeof PERIODS)[number];

/** The last `days` UTC days, today included. */
function lastDays(days: number, now = new Date()): ReportPeriod {
  const to = now.toISOString().slice(0, 10);
  const from = new Date(Date.parse(`${to}T00:00:00Z`) - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  return { from, to };
}

function PoolUse({ pool }: { pool: PoolUtilisation }) {
  const stats: [string, number][] = [
    ['Seats', pool.seats],
    ...(pool.kind === 'named' ? ([['Assigned', pool.assigned]] as [string, number][]) : []),
    ['Active users', pool.activeUsers],
    ['Peak concurrent', pool.peakConcurrent],
  ];
  return (
    <Paper withBorder p="sm" component="section" aria-label={`Utilisation of ${pool.productName}`}>
      <Stack gap="xs">
        <Title order={3} size="h5">
          {pool.productName}{' '}
          <Text span size="sm">
            ({pool.partNumber}, {pool.kind === 'named' ? 'named' : 'shared'})
          </Text>
        </Title>
        <Group gap="lg">
          {stats.map(([label, value]) => (
            <Text key={label} size="sm">
              {label}: <strong>{value}</strong>
            </Text>
          ))}
        </Group>
        <Box role="img" aria-label={`Seats against the daily peak of ${pool.productName}`}>
          <LineChart
            h={180}
            data={pool.days.map((d) => ({ day: d.day.slice(5), Seats: d.seats, 'Peak sessions': d.peak }))}
            dataKey="day"
            series={[
              { name: 'Seats', color: 'gray.6' },
              { name: 'Peak sessions', color: 'blue.6' },
            ]}
            curveType="linear"
            withDots={false}
          />
        </Box>
        {pool.groups.length > 0 ? (
          <Table aria-label={`Groups of ${pool.productName}`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Group</Table.Th>
                <Table.Th>Guaranteed</Table.Th>
                <Table.Th>Cap</Table.Th>
                <Table.Th>Active users</Table.Th>
                <Table.Th>Peak concurrent</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {pool.groups.map((g) => (
                <Table.Tr key={g.groupId}>
                  <Table.Td>{g.groupName}</Table.Td>
                  <Table.Td>{g.guaranteed}</Table.Td>
                  <Table.Td>{g.cap ?? 'none'}</Table.Td>
                  <Table.Td>{g.activeUsers}</Table.Td>
                  <Table.Td>{g.peakConcurrent}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : null}
      </Stack>
    </Paper>
  );
}

function Denials({ pools }: { pools: PoolDenials[] }) {
  if (pools.length === 0) return <Text size="sm">{webReportingTexts.noDenials}</Text>;
  return (
    <Stack gap="xs">
      <Box role="img" aria-label="Denials and the seats that would have avoided them">
        <BarChart
          h={200}
          data={pools.map((p) => ({
            pool: p.productName,
            Denials: p.total,
            'Seats to avoid them': p.seatsToAvoid,
          }))}
          dataKey="pool"
          series={[
            { name: 'Denials', color: 'red.6' },
            { name: 'Seats to avoid them', color: 'teal.6' },
          ]}
        />
      </Box>
      <Table aria-label="Denials by pool">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Product</Table.Th>
            <Table.Th>Seats</Table.Th>
            <Table.Th>Denials</Table.Th>
            <Table.Th>Reasons</Table.Th>
            <Table.Th>Seats that would have avoided them</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {pools.map((p) => (
            <Table.Tr key={p.partNumber}>
              <Table.Td>{p.productName}</Table.Td>
              <Table.Td>{p.seats}</Table.Td>
              <Table.Td>{p.total}</Table.Td>
              <Table.Td>{p.byReason.map((r) => `${r.label}: ${r.count}`).join(', ')}</Table.Td>
              <Table.Td>{p.seatsToAvoid}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

function Reclaim({ customerNumber }: { customerNumber: string }) {
  const [days, setDays] = useState<InactiveDays>(30);
  const [page, setPage] = useState(0);
  const seats = useQuery(reclaimQuery(customerNumber, days, page));
  const total = seats.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / RECLAIM_PAGE_DEFAULT));
  // An unassign that empties the last page shows the page before it.
  if (seats.data && page > 0 && page >= pages) setPage(pages - 1);
  // View-only users see the list; the server refuses their unassigning too.
  const viewOnly = useViewOnly();
  const unassign = useUnassignSeat(customerNumber);
  const busy =
    unassign.isPending && unassign.variables
      ? `${unassign.variables.partNumber}/${unassign.variables.userId}`
      : null;
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Title order={2} size="h4">
          Unused named seats
        </Title>
        <SegmentedControl
          aria-label="No session for"
          value={String(days)}
          onChange={(v) => {
            setDays(Number(v) as InactiveDays);
            setPage(0);
          }}
          data={INACTIVE_DAYS.map((d) => ({ value: String(d), label: `${d} days` }))}
        />
      </Group>
      {seats.isPending ? (
        <Spinner text="Getting unused seats..." />
      ) : seats.isError ? (
        <Alert color="red">{errorText(seats.error)}</Alert>
      ) : total === 0 ? (
        <Text size="sm">{webReportingTexts.noReclaim(days)}</Text>
      ) : (
        <>
          <Group justify="space-between">
            <Text size="sm">
              {webReportingTexts.reclaimShown(
                seats.data.page * RECLAIM_PAGE_DEFAULT + 1,
                seats.data.page * RECLAIM_PAGE_DEFAULT + seats.data.seats.length,
                total,
              )}
            </Text>
            {pages > 1 ? (
              <Pagination
                size="sm"
                total={pages}
                value={page + 1}
                onChange={(p) => setPage(p - 1)}
                getControlProps={(control) => ({ 'aria-label': `${control} page` })}
                getItemProps={(p) => ({ 'aria-label': `Page ${p} of unused seats` })}
              />
            ) : null}
          </Group>
          <ReclaimTable
            loading={seats.isPlaceholderData}
            seats={seats.data.seats}
            busy={busy}
            onUnassign={
              viewOnly
                ? undefined
                : (seat) =>
                    unassign.mutate(seat, {
                      onSuccess: (change) => showSuccess(`Unassigned: ${change.text}.`),
                      onError: (e) => showError(errorText(e)),
                    })
            }
          />
        </>
      )}
    </Stack>
  );
}

function Reports({ customerNumber }: { customerNumber: string }) {
  const [periodDays, setPeriodDays] = useState<PeriodDays>('30');
  const period = useMemo(() => lastDays(Number(periodDays)), [periodDays]);
  const utilisation = useQuery(utilisationQuery(customerNumber, period));
  // The heat map shows one pool or all of them; a pool that left the list (a new period) falls back to all.
  const [heatmapPool, setHeatmapPool] = useState<string | null>(null);
  const pools = utilisation.data ?? [];
  // While the pools of a new period load, the choice stands.
  const shownPool = !utilisation.data || pools.some((p) => p.partNumber === heatmapPool) ? heatmapPool : null;
  const heatmap = useQuery(heatmapQuery(customerNumber, period, shownPool));
  const denials = useQuery(denialsQuery(customerNumber, period));
  useRefusalRedirect(utilisation.error, customerNumber);

  if (utilisation.isPending) return <Spinner text="Getting web reports..." />;
  if (utilisation.isError) return <Alert color="red">{errorText(utilisation.error)}</Alert>;
  if (utilisation.data.length === 0)
    return (
      <Alert color="blue" variant="light">
        {webReportingTexts.noPools}
      </Alert>
    );
  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Text size="sm">
          {period.from} – {period.to} (UTC)
        </Text>
        <SegmentedControl
          aria-label="Period"
          value={periodDays}
          onChange={(v) => setPeriodDays(v as PeriodDays)}
          data={PERIODS.map((d) => ({ value: d, label: `Last ${d} days` }))}
        />
      </Group>
      <Stack gap="xs">
        <Title order={2} size="h4">
          Utilisation
        </Title>
        <SimpleGrid cols={{ base: 1, lg: 2 }}>
          {utilisation.data.map((pool) => (
            <PoolUse key={pool.partNumber} pool={pool} />
          ))}
        </SimpleGrid>
      </Stack>
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={2} size="h4">
            Sessions by weekday and hour
          </Title>
          {pools.length > 1 ? (
            <Select
              label="Pool"
              size="xs"
              w={320}
              allowDeselect={false}
              value={shownPool ?? ALL_POOLS}
              onChange={(v) => setHeatmapPool(v === ALL_POOLS || v === null ? null : v)}
              data={[
                { value: ALL_POOLS, label: 'All pools' },
                ...pools.map((p) => ({ value: p.partNumber, label: `${p.productName} (${p.partNumber})` })),
              ]}
            />
          ) : null}
        </Group>
        {heatmap.isError ? (
          <Alert color="red">{errorText(heatmap.error)}</Alert>
        ) : heatmap.data ? (
          <UsageHeatmap cells={heatmap.data} />
        ) : (
          <Spinner text="Getting sessions by hour..." />
        )}
      </Stack>
      <Stack gap="xs">
        <Title order={2} size="h4">
          Denials
        </Title>
        {denials.data ? <Denials pools={denials.data} /> : <Spinner text="Getting denials..." />}
      </Stack>
      <Reclaim customerNumber={customerNumber} />
    </Stack>
  );
}

/**
 * /web-reporting (decision 071): utilisation of the account's web seat pools, sessions by weekday and hour, denials
 * and the seats that would have avoided them, and the named seats nobody uses with one-click unassign. Routed
 * inside RequireCustomer.
 */
export default function WebReportingPage() {
  const { customer } = useCustomer();
  if (!customer) return null;
  return (
    <Stack data-testid="web-reporting-page" gap="sm">
      <Title order={1} size="h2">
        Web Reporting
      </Title>
      <Reports key={customer.customerNumber} customerNumber={customer.customerNumber} />
    </Stack>
  );
}
