import { Alert, Stack, Title } from '@mantine/core';
import { useLocation } from 'react-router';

/** Page titles of the menu paths not built yet (spec 000 §2.1 route table). */
const titles: Array<[RegExp, string]> = [
  [/^\/ssl/, 'Leases/Perpetuals'],
  [/^\/entitlementsFSA/, 'Flexible Spending Account'],
  [/^\/activations-history/, 'Manage Activations'],
  [/^\/activations/, 'Activate Entitlements'],
  [/^\/web-/, 'Web'],
  [/^\/transactions/, 'Usage Transactions'],
  [/^\/statementv2/, 'Elastic Statements'],
  [/^\/emails/, 'Emails'],
  [/^\/notification/, 'Alerts'],
  [/^\/portalaccess/, 'Licensing Portal Access'],
  [/^\/whitelistips/, 'Elastic IP Settings'],
  [/^\/clscredentials/, 'Elastic Credentials'],
];

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
