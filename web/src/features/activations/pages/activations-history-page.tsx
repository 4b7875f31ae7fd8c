import { Title } from '@mantine/core';

/** Spec 002 §2 (being built in issue 11). */
export default function ActivationsHistoryPage() {
  return (
    <Title order={1} size="h2">
      Manage Activations
    </Title>
  );
}
