import type { HeatmapCell } from '@lp/contract/web-reporting/schemas';
import { Box, Table, Text } from '@mantine/core';

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const HOURS = Array.from({ length: 24 }, (_, h) => h);
const hh = (hour: number) => String(hour).padStart(2, '0');

/** A cell's words: what a screen reader says and the tooltip shows. */
export const cellLabel = (c: HeatmapCell) =>
  `${WEEKDAYS[c.weekday]} ${hh(c.hour)}:00–${hh(c.hour)}:59 UTC: ${c.active} ${c.active === 1 ? 'session' : 'sessions'} open, ${c.started} started`;

/**
 * Sessions by weekday and hour (UTC) as a grid of coloured cells: the darker, the more sessions were open in the
 * hour over the period; each cell names its numbers (aria-label and title), so the colour is never the only cue.
 */
export function UsageHeatmap({ cells }: { cells: readonly HeatmapCell[] }) {
  const most = Math.max(1, ...cells.map((c) => c.active));
  const at = (weekday: number, hour: number) => cells.find((c) => c.weekday === weekday && c.hour === hour);
  return (
    <Box style={{ overflowX: 'auto' }}>
      <Table
        aria-label="Sessions by weekday and hour (UTC)"
        withRowBorders={false}
        verticalSpacing={2}
        horizontalSpacing={2}
        style={{ borderCollapse: 'separate', borderSpacing: 2 }}
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">
              <Text size="xs">Day</Text>
            </Table.Th>
            {HOURS.map((h) => (
              <Table.Th key={h} scope="col">
                <Text size="xs" ta="center">
                  {hh(h)}
                </Text>
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {WEEKDAYS.map((day, weekday) => (
            <Table.Tr key={day}>
              <Table.Th scope="row">
                <Text size="xs">{day.slice(0, 3)}</Text>
              </Table.Th>
              {HOURS.map((hour) => {
                const cell = at(weekday, hour) ?? { weekday, hour, active: 0, started: 0 };
                const share = cell.active / most;
                return (
                  <Table.Td
                    key={hour}
                    aria-label={cellLabel(cell)}
                    title={cellLabel(cell)}
                    style={{
                      minWidth: 22,
                      height: 22,
                      borderRadius: 3,
                      background:
                        cell.active === 0
                          ? 'var(--mantine-color-gray-1)'
                          : `rgba(34, 139, 230, ${(0.15 + 0.85 * share).toFixed(2)})`,
                    }}
                  />
                );
              })}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Box>
  );
}
