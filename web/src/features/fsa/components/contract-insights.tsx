import '@mantine/charts/styles.css';
import type { FsaContract } from '@lp/contract/fsa/schemas';
import { formatDate } from '@lp/domain/dates';
import { formatMoney } from '@lp/domain/fsa-pricing';
import { burnDown, type RunOutForecast } from '@lp/domain/spend-forecast';
import { AreaChart } from '@mantine/charts';
import { Alert, Box, Paper, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import {
  balanceSummary,
  contractForecast,
  forecastText,
  lowBalanceWarnings,
  projectedBalance,
} from '../spend-insights.ts';

const money = (units: number) => formatMoney(Math.round(units * 100));

const CHART_HEIGHT = 220;

interface ChartPoint {
  day: string;
  remaining?: number;
  forecast?: number;
}

/** The burn-down series and, from today on, the forecast series (today is in both, so the lines meet). */
function chartPoints(contract: FsaContract, forecast: RunOutForecast, today: string): ChartPoint[] {
  const points = new Map<string, ChartPoint>();
  const history = burnDown({
    budgetCents: contract.budgetCents,
    spend: contract.dailySpend,
    startDate: contract.startDate,
    today,
    endDate: contract.endDate,
  });
  for (const p of history) points.set(p.day, { day: p.day, remaining: p.remainingCents / 100 });
  for (const p of projectedBalance(contract.remainingCents, forecast, today, contract.endDate))
    points.set(p.day, { day: p.day, ...points.get(p.day), forecast: p.remainingCents / 100 });
  return [...points.values()].sort((a, b) => (a.day < b.day ? -1 : 1));
}

/**
 * The burn-down of one contract: the remaining balance per day against the budget, then the forecast, with its
 * numbers as text too.
 */
function SpendingChart({
  contract,
  forecast,
  today,
  withChart,
}: {
  contract: FsaContract;
  forecast: RunOutForecast;
  today: string;
  withChart: boolean;
}) {
  const points = chartPoints(contract, forecast, today);
  const budget = contract.budgetCents / 100;
  const lowest = Math.min(0, ...points.map((p) => p.remaining ?? 0));
  let remaining = contract.budgetCents;
  return (
    <figure aria-label={`Remaining balance of ${contract.entitlementId} over time`} style={{ margin: 0 }}>
      {/* Until the chart's turn (the tab mounts its parts one task after another), its box keeps its place. */}
      {withChart ? (
        <AreaChart
          h={CHART_HEIGHT}
          data={points}
          dataKey="day"
          series={[
            { name: 'remaining', label: `Remaining (${contract.currency})`, color: 'blue.6' },
            { name: 'forecast', label: 'Forecast', color: 'orange.7', strokeDasharray: '5 5' },
          ]}
          connectNulls={false}
          curveType="linear"
          withDots={false}
          valueFormatter={money}
          yAxisProps={{ domain: [lowest, budget], width: 90 }}
          // Darker than Mantine's defaults: axis and line labels are text and need 4.5:1 contrast.
          textColor="gray.7"
          referenceLines={[{ y: budget, label: 'Budget', color: 'gray.7' }]}
        />
      ) : (
        <Box h={CHART_HEIGHT} />
      )}
      <Text component="figcaption" size="sm" mt="xs" data-testid="fsa-balance-summary">
        {balanceSummary(contract, today)}
      </Text>
      {contract.dailySpend.length > 0 ? (
        <details>
          <summary>
            <Text span size="sm">
              Orders by day
            </Text>
          </summary>
          <Table
            striped
            withTableBorder
            mt="xs"
            maw={480}
            aria-label={`Orders by day of ${contract.entitlementId}`}
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Day</Table.Th>
                <Table.Th ta="right">Ordered ({contract.currency})</Table.Th>
                <Table.Th ta="right">Remaining ({contract.currency})</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {contract.dailySpend.map((d) => {
                remaining -= d.cents;
                return (
                  <Table.Tr key={d.day}>
                    <Table.Td>{d.day}</Table.Td>
                    <Table.Td ta="right">{formatMoney(d.cents)}</Table.Td>
                    <Table.Td ta="right">{formatMoney(remaining)}</Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </details>
      ) : null}
    </figure>
  );
}

/**
 * Issue 12 §4 on the Entitlements tab (decision 037): low-balance warnings for the active contracts at 80 % and
 * 95 % used, and a Spending panel with one active contract's burn-down and its run-out forecast.
 */
export function ContractInsights({
  customerNumber,
  contracts,
  withChart,
}: {
  customerNumber: string;
  contracts: FsaContract[];
  /** False in the tab's first task: the chart's box is kept empty (see useStagedMount) */
  withChart: boolean;
}) {
  const active = contracts.filter((c) => c.active);
  const [chosen, setChosen] = useState<string | null>(null);
  const contract = active.find((c) => c.entitlementId === chosen) ?? active[0];
  if (!contract) return null;
  const today = formatDate(new Date());
  const forecast = contractForecast(contract, today);
  const selectId = `fsa-spending-contract-${customerNumber}`;
  return (
    <Stack gap="sm" mb="md">
      {lowBalanceWarnings(active).map((w) => (
        <Alert
          key={w.entitlementId}
          color={w.level === 95 ? 'red' : 'orange'}
          title={w.level === 95 ? 'Budget almost used up' : 'Low balance'}
          data-level={w.level}
          data-testid="fsa-low-balance"
        >
          {w.text}
        </Alert>
      ))}
      <Paper withBorder p="md" component="section" aria-labelledby="fsa-spending-title">
        <Stack gap="sm">
          <Title order={2} size="h4" id="fsa-spending-title">
            Spending
          </Title>
          <Select
            id={selectId}
            label="Contract"
            data={active.map((c) => c.entitlementId)}
            value={contract.entitlementId}
            onChange={(v) => setChosen(v)}
            allowDeselect={false}
            maw={320}
          />
          <SpendingChart contract={contract} forecast={forecast} today={today} withChart={withChart} />
          <Text data-testid="fsa-forecast">{forecastText(forecast, contract)}</Text>
        </Stack>
      </Paper>
    </Stack>
  );
}
