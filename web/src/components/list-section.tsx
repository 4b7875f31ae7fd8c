import { Alert, Paper, Stack, Text, Title } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { errorText } from '../lib/api-client.ts';
import { Spinner } from './spinner.tsx';

/**
 * A titled section over one list the server gives (credentials, tokens): its intro, then "Loading...", the error,
 * the empty text or the list itself, then the section's actions.
 */
export function ListSection<T>({
  id,
  title,
  intro,
  query,
  empty,
  children,
  actions,
}: {
  /** The heading's id; the list's table names itself with it */
  id: string;
  title: string;
  intro: string;
  query: UseQueryResult<T>;
  /** Shown instead of the list when it says the data is empty */
  empty?: { when: (data: T) => boolean; text: string };
  children: (data: T) => ReactNode;
  actions?: ReactNode;
}) {
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={id}>
      <Stack gap="sm">
        <Title order={2} size="h4" id={id}>
          {title}
        </Title>
        <Text size="sm">{intro}</Text>
        {query.isPending ? (
          <Spinner text="Loading..." />
        ) : query.isError ? (
          <Alert color="red" variant="light" role="alert">
            {errorText(query.error)}
          </Alert>
        ) : empty?.when(query.data) ? (
          <Text size="sm" c="dimmed">
            {empty.text}
          </Text>
        ) : (
          children(query.data)
        )}
        {actions}
      </Stack>
    </Paper>
  );
}
