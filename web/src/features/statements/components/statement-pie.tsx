import { formatAmount } from '@lp/domain/amounts';
import type { PieSlice } from '@lp/domain/statement';
import { PieChart } from '@mantine/charts';
import { ColorSwatch, Group, Stack, Text } from '@mantine/core';

const COLOURS = [
  'blue.6',
  'orange.6',
  'teal.6',
  'grape.6',
  'cyan.6',
  'red.6',
  'yellow.6',
  'indigo.6',
  'lime.7',
  'gray.6',
];

/**
 * A statement pie (spec 001 §2.2) with its legend (name, amount, share) as text beside it; the slices come from
 * pieSlices, which has already dropped the negative totals.
 */
export function StatementPie({ title, slices }: { title: string; slices: PieSlice[] }) {
  const total = slices.reduce((s, p) => s + p.value, 0);
  const data = slices.map((s, i) => ({ ...s, color: COLOURS[i % COLOURS.length] }));
  return (
    <figure aria-label={title} style={{ margin: 0 }}>
      <Group align="center" gap="lg" wrap="nowrap">
        {total > 0 ? (
          <PieChart
            data={data}
            size={160}
            withTooltip
            tooltipDataSource="segment"
            valueFormatter={formatAmount}
          />
        ) : null}
        <Stack gap={4} component="figcaption">
          <Text fw={600} size="sm">
            {title}
          </Text>
          {total > 0 ? (
            data.map((s) => (
              <Group key={s.name} gap={6} wrap="nowrap">
                <ColorSwatch
                  color={`var(--mantine-color-${s.color.replace('.', '-')})`}
                  size={12}
                  aria-hidden
                />
                <Text size="sm">
                  {s.name}: {formatAmount(s.value)} ({((s.value / total) * 100).toFixed(1)} %)
                </Text>
              </Group>
            ))
          ) : (
            <Text size="sm">No usage in this period.</Text>
          )}
        </Stack>
      </Group>
    </figure>
  );
}
