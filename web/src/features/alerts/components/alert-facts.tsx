import type { Alert } from '@lp/contract/alerts/schemas';
import {
  alertDuration,
  categoryColor,
  categoryLabel,
  formatAlertDate,
  joinWithAnd,
  relativeAge,
} from '@lp/domain/alerts';
import { Badge, SimpleGrid, Stack, Text } from '@mantine/core';

/** The category as a coloured badge with its spec label (CRITICAL red "Outage", ...). */
export function CategoryBadge({ category }: { category: string }) {
  return (
    // Light tint with near-black text: the filled colours fail the WCAG contrast ratio for white text.
    <Badge color={categoryColor(category)} variant="light" c="dark.9" data-category={category}>
      {categoryLabel(category)}
    </Badge>
  );
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="gray.7" fw={600} component="dt">
        {label}
      </Text>
      <Text size="sm" component="dd" m={0}>
        {children}
      </Text>
    </Stack>
  );
}

/** Category, service, age, description, start, expected end and duration of one alert (spec 000 §2.12). */
export function AlertFacts({ alert, now }: { alert: Alert; now: Date }) {
  return (
    <SimpleGrid component="dl" cols={{ base: 1, sm: 2, md: 4 }} spacing="sm" m={0}>
      <Fact label="Category">
        <CategoryBadge category={alert.category} />
      </Fact>
      <Fact label="Service">{joinWithAnd(alert.service)}</Fact>
      <Fact label="Age">{relativeAge(alert.date, now)}</Fact>
      <Fact label="Description">{alert.description}</Fact>
      <Fact label="Start">{formatAlertDate(alert.date)}</Fact>
      <Fact label="Expected end">{alert.expires ? formatAlertDate(alert.expires) : '-'}</Fact>
      <Fact label="Duration">{alertDuration(alert.date, alert.expires) ?? '-'}</Fact>
    </SimpleGrid>
  );
}
