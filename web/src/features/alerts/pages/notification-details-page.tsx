import { Anchor, Button, Alert as Callout, Card, Group, List, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { Spinner } from '../../../components/spinner.tsx';
import { alertQuery } from '../api/alerts.ts';
import { AlertFacts } from '../components/alert-facts.tsx';

export const ALERT_NOT_FOUND = 'This alert does not exist.';

/** /notification-details/{id} (spec 000 §2.12, "View Alert"): one alert with its See More links. */
export default function NotificationDetailsPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const numericId = /^\d{1,15}$/.test(id) ? Number(id) : null;
  const { data, isPending, error } = useQuery({ ...alertQuery(numericId ?? 0), enabled: numericId !== null });
  const links = data ? Object.entries(data.links) : [];
  return (
    <Stack data-testid="alerts-page">
      <Group justify="space-between">
        <Title order={1} size="h2">
          Alert Details
        </Title>
        <Button variant="default" onClick={() => navigate('/notifications')}>
          Back
        </Button>
      </Group>
      {numericId !== null && isPending ? <Spinner text="Loading..." /> : null}
      {error ? <Callout color="red">{error.message}</Callout> : null}
      {numericId === null || data === null ? (
        <Callout color="yellow" title="Alert not found">
          {ALERT_NOT_FOUND}
        </Callout>
      ) : null}
      {data ? (
        <Card withBorder padding="md">
          <Stack gap="md">
            <AlertFacts alert={data} now={new Date()} />
            {links.length > 0 ? (
              <Stack gap={4}>
                <Text fw={600} size="sm">
                  See More
                </Text>
                <List size="sm">
                  {links.map(([name, url]) => (
                    <List.Item key={name}>
                      <Anchor href={url} target="_blank" rel="noopener noreferrer" c="blue.9">
                        {name}
                      </Anchor>
                    </List.Item>
                  ))}
                </List>
              </Stack>
            ) : null}
          </Stack>
        </Card>
      ) : null}
    </Stack>
  );
}

export const Component = NotificationDetailsPage;
