import type { ProgressColour } from '@lp/domain/entitlements';
import { Progress, Stack, Text } from '@mantine/core';

/** The remaining-days fields every dated entitlement row carries (leases, activations). */
export interface RemainingDaysValue {
  /** Days left counting the last day, or PERMANENT, EXPIRED, NOT STARTED */
  remainingdays: number | string;
  usedDaysPercentage: number;
  remainingdayscolor: ProgressColour;
}

/** '{n} day(s)', or the state text as it is. */
export const remainingDaysText = (days: RemainingDaysValue['remainingdays']) =>
  typeof days === 'number' ? `${days} ${days === 1 ? 'day' : 'days'}` : days;

/**
 * A grid cell's remaining days (spec 002 §4): the elapsed share of the period as a bar coloured by the days
 * left, over the days-left text. `name` is what the bar belongs to (an activation id), so each bar in a table
 * has its own accessible name.
 */
export function RemainingDaysBar({ value, name }: { value: RemainingDaysValue; name: string }) {
  const text = remainingDaysText(value.remainingdays);
  return (
    <Stack gap={2} justify="center" h="100%" data-colour={value.remainingdayscolor}>
      <Progress
        value={value.usedDaysPercentage}
        color={value.remainingdayscolor}
        size="sm"
        aria-label={`Remaining days of ${name}: ${text}`}
      />
      <Text size="xs" lh={1.2}>
        {text}
      </Text>
    </Stack>
  );
}
