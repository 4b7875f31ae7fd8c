import '@mantine/dates/styles.css';
import {
  addDaysUtc,
  type DateRange,
  formatDate,
  formatDateTime,
  nextRangeClick,
  type RangeSelection,
  type TransactionDatePreset,
  transactionDatePresets,
} from '@lp/domain/dates';
import { Button, Group, Menu, Modal, Stack, Text } from '@mantine/core';
import { DatePicker } from '@mantine/dates';
import { useState } from 'react';
import type { UsagePeriod } from '../usage-filter.ts';

export interface PeriodMenuProps {
  period: UsagePeriod;
  bounds: DateRange;
  onPreset: (preset: TransactionDatePreset) => void;
  onCustom: (from: string, to: string) => void;
}

const periodLabel = (p: UsagePeriod) => (p.kind === 'preset' ? p.preset : `${p.from} – ${p.to}`);

/**
 * The transactions' date-range menu (spec 001 §2.3): the named ranges and Custom, a two-month calendar with
 * Cancel and Okay that follows the spec's click rules (dates.ts nextRangeClick); Okay needs both dates.
 */
export function PeriodMenu({ period, bounds, onPreset, onCustom }: PeriodMenuProps) {
  const [custom, setCustom] = useState<RangeSelection | null>(null);
  const today = formatDate(new Date());
  const openCustom = () =>
    setCustom(period.kind === 'custom' ? { from: period.from, to: period.to } : { from: null, to: null });

  return (
    <Group gap="xs">
      <Menu position="bottom-start" withinPortal>
        <Menu.Target>
          <Button variant="default" aria-label={`Date range: ${periodLabel(period)}`}>
            {periodLabel(period)}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {transactionDatePresets.map((p) => (
            <Menu.Item key={p} onClick={() => onPreset(p)}>
              {p}
            </Menu.Item>
          ))}
          <Menu.Divider />
          <Menu.Item onClick={openCustom}>Custom</Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <Text size="sm" data-testid="period">
        {formatDateTime(bounds.from)} to {formatDateTime(bounds.to)}
      </Text>
      <Modal
        closeButtonProps={{ 'aria-label': 'Close' }}
        opened={custom !== null}
        onClose={() => setCustom(null)}
        title="Custom range"
        size="auto"
      >
        {custom ? (
          <Stack>
            <DatePicker
              type="range"
              numberOfColumns={2}
              value={[custom.from, custom.to]}
              // The click rules are the spec's, not the picker's own (which would sort an earlier second click).
              onChange={() => undefined}
              getDayProps={(day) => ({ onClick: () => setCustom((s) => (s ? nextRangeClick(s, day) : s)) })}
              getDayAriaLabel={(day) => day}
              defaultDate={custom.from ?? formatDate(addDaysUtc(new Date(), -31))}
              maxDate={today}
            />
            <Text size="sm" aria-live="polite">
              From: {custom.from ?? '—'} To: {custom.to ?? '—'}
            </Text>
            <Group justify="flex-end" gap="xs">
              <Button variant="default" onClick={() => setCustom(null)}>
                Cancel
              </Button>
              <Button
                disabled={!custom.from || !custom.to}
                onClick={() => {
                  if (custom.from && custom.to) onCustom(custom.from, custom.to);
                  setCustom(null);
                }}
              >
                Okay
              </Button>
            </Group>
          </Stack>
        ) : null}
      </Modal>
    </Group>
  );
}
