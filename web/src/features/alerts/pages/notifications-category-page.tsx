import { categoryPageFor, categoryPageOf } from '@lp/domain/alerts';
import { Anchor, Button, Alert as Callout, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { Spinner } from '../../../components/spinner.tsx';
import { activeAlertsQuery } from '../api/alerts.ts';
import { AlertFacts } from '../components/alert-facts.tsx';

/** /notifications-category/{critical|warning|info|ok} (spec 000 §2.12): the active alerts of one category. */
export default function NotificationsCategoryPage() {
  const { category = '' } = useParams();
  const page = categoryPageOf(category);
  const navigate = useNavigate();
  const { data, isPending, error } = useQuery({ ...activeAlertsQuery(), enabled: page !== null });
  if (!page) return <Navigate to="/error/404" replace />;
  const items = (data ?? []).filter((a) => categoryPageFor(a.category).slug === page.slug);
  const now = new Date();
  return (
    <Stack data-testid="alerts-page">
      <Group justify="space-between">
        <Title order={1} size="h2">
          {page.title} Alerts
        </Title>
        <Button variant="default" onClick={() => navigate('/notifications')}>
          Back
        </Button>
      </Group>
      {isPending ? <Spinner text="Loading..." /> : null}
      {error ? <Callout color="red">{error.message}</Callout> : null}
      {data && items.length === 0 ? <Text>No issues</Text> : null}
      {items.map((alert) => (
        <Card key={alert.id} withBorder padding="md" component="article" aria-label={`Alert ${alert.id}`}>
          <Stack gap="sm">
            <AlertFacts alert={alert} now={now} />
            <Anchor component={Link} to={`/notification-details/${alert.id}`} size="sm" c="blue.9">
              Details
            </Anchor>
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}

export const Component = NotificationsCategoryPage;
