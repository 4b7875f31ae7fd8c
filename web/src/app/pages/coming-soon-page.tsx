import { Alert, Stack, Title } from '@mantine/core';
import { useLocation } from 'react-router';

/** Page titles of the menu paths not built yet (spec 000 §2.1 route table). */
const titles: Array<[RegExp, string]> = [
  [/^\/ssl/, 'Leases/Perpetuals'],
  [/^\/web-transactions/, 'Web Transactions'],
  [/^\/web-reporting/, 'Web Reporting'],
  [/^\/transactions/, 'Usage Transactions'],
  [/^\/statementv2/, 'Elastic Statements'],
  [/^\/clscredentials/, 'Elastic Credentials'],
];

/** A plain notice for areas of later releases: it says so, and shows no data, real or invented. */
export function Component() {
  const { pathname } = useLocation();
  const title = titles.find(([re]) => re.test(pathname))?.[1] ?? 'Licensing Portal';
  return (
    <Stack>
      <Title order={1} size="h2">
        {title}
      </Title>
      <Alert variant="light" color="blue" title="Coming soon">
        This page is not available in this version of the portal yet.
      </Alert>
    </Stack>
  );
}
