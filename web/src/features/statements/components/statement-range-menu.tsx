import { nextRangeClick, type RangeSelection, statementDatePresets } from '@lp/domain/dates';
import { Button, Group, Menu, Modal, Stack, Text } from '@mantine/core';
import { DatePicker } from '@mantine/dates';
import { useState } from 'react';
import { rangeDays, rangeLabel, type StatementRange } from '../statement-view.ts';

/** The month before today's, so the two-month calendar shows last month and this month. */
const previousMonth = () => {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1)).toISOString().slice(0, 10);
};

/**
 * Spec 001 §2.2, §4: the statement's date-range menu (Last month … Yesterday, Custom). Custom opens a two-month
 * calendar: the first click sets from, a later day sets to, any other click restarts; Okay needs both days.
 */
export function StatementRangeMenu({
  value,
  onChange,
}: {
  value: StatementRange;
  onChange: (range: StatementRange) => void;
}) {
  const [customOpen, setCustomOpen] = useState(false);
  const [selection, setSelection] = useState<RangeSelection>({ from: null, to: null });

  const openCustom = () => {
    setSelection('preset' in value ? { from: null, to: null } : { from: value.from, to: value.to });
    setCustomOpen(true);
  };
  const days = rangeDays(value);

  return (
    <>
      <Menu position="bottom-start" withinPortal>
        <Menu.Target>
          <Button variant="default" size="xs" aria-label={`Date range: ${rangeLabel(value)}`}>
            {rangeLabel(value)}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {statementDatePresets.map((preset) => (
            <Menu.Item
              key={preset}
              onClick={() => onChange({ preset })}
              aria-current={'preset' in value && value.preset === preset ? 'true' : undefined}
            >
              {preset}
            </Menu.Item>
          ))}
          <Menu.Item onClick={openCustom} aria-current={'preset' in value ? undefined : 'true'}>
            Custom
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <Text size="sm">
        {days.from} to {days.to}
      </Text>
      <Modal opened={customOpen} onClose={() => setCustomOpen(false)} title="Custom date range" size="auto">
        <Stack>
          <DatePicker
            type="range"
            numberOfColumns={2}
            defaultDate={selection.from ?? previousMonth()}
            value={[selection.from, selection.to]}
            // The click rules are ours (nextRangeClick), so the picker's own range logic is ignored.
            onChange={() => {}}
            getDayProps={(day) => ({ onClick: () => setSelection((s) => nextRangeClick(s, day)) })}
          />
          <Text size="sm" aria-live="polite">
            {selection.from ? `From ${selection.from}` : 'Pick the first day'}
            {selection.from ? (selection.to ? ` to ${selection.to}` : ', then a later last day') : ''}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setCustomOpen(false)}>
              Cancel
            </Button>
            <Button
              disabled={!selection.from || !selection.to}
              onClick={() => {
                if (selection.from && selection.to) onChange({ from: selection.from, to: selection.to });
                setCustomOpen(false);
              }}
            >
              Okay
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
