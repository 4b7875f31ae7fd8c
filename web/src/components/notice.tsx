import { Alert, Container, Title } from '@mantine/core';

/** A notice page body: the spec's sentence, nothing else (spec 000 §2.6). */
export function NoticePage({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Container size="sm" py="xl">
      <Title order={1} size="h3" mb="md">
        {title}
      </Title>
      <Alert color="yellow" variant="light">
        {children}
      </Alert>
    </Container>
  );
}
