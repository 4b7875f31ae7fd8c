import { bannerFor, categoryColor, categoryLabel } from '@lp/domain/alerts';
import { Alert, Anchor, Group, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { activeAlertsQuery } from '../api/alerts.ts';

/**
 * The shell's alerts banner (spec 000 §2.5, §4.3): nothing for no alerts, the alert itself for one,
 * "Multiple alerts" with a See All link for more. Closing hides it until its text changes.
 */
export function AlertsBanner() {
  const queryClient = useQueryClient();
  const { data } = useQuery(activeAlertsQuery());
  const { pathname } = useLocation();
  const [closedText, setClosedText] = useState<string | null>(null);

  // Navigation asks for fresh alerts; the query's staleTime turns asks within a minute into no-ops.
  useEffect(() => {
    void pathname;
    void queryClient.prefetchQuery(activeAlertsQuery());
  }, [pathname, queryClient]);

  const banner = bannerFor(data ?? []);
  if (!banner || closedText === banner.text) return null;
  const single = banner.kind === 'single';
  const color = single ? categoryColor(banner.category) : 'orange';
  return (
    <Alert
      role="region"
      aria-label="Service alerts"
      color={color}
      variant="light"
      mb="md"
      title={single ? categoryLabel(banner.category) : banner.title}
      withCloseButton
      closeButtonLabel="Close alerts banner"
      onClose={() => setClosedText(banner.text)}
      data-testid="alerts-banner"
      // The category colour is the tint; the text stays near-black for contrast.
      styles={{ title: { color: 'var(--mantine-color-dark-9)' } }}
      data-category={single ? banner.category : 'MULTIPLE'}
    >
      <Group gap="sm" wrap="wrap">
        <Text size="sm" c="dark.9">
          {banner.text}
        </Text>
        <Anchor component={Link} to="/notifications" size="sm" c="dark.9" underline="always">
          {single ? 'View alerts' : 'See All'}
        </Anchor>
      </Group>
    </Alert>
  );
}
