import { Anchor, Container, Stack, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';

/** Public error pages (spec 000 §2.1): unknown paths land on /error/404. */
export function Component() {
  const { code } = useParams();
  const notFound = code === '404';
  return (
    <Container size="sm" py="xl">
      <Stack>
        <Title order={1} size="h2">
          {notFound ? 'Page not found' : 'Something went wrong'}
        </Title>
        <Text>{notFound ? 'The page you asked for does not exist.' : `Error ${code ?? ''}`.trim()}</Text>
        <Anchor component={Link} to="/elastic">
          Go to Elastic Licensing
        </Anchor>
      </Stack>
    </Container>
  );
}
