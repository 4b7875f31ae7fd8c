import type { ElasticDevice } from '@lp/contract/credentials/schemas';
import { Stack, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useCustomer } from '../../../app/customer-context.tsx';
import { useViewOnly } from '../../../app/use-view-only.ts';
import { Spinner } from '../../../components/spinner.tsx';
import { useGoToNoPermissions } from '../../../lib/no-permissions.ts';
import { getElasticDevice, getOrCreatePin, getUsers } from '../api/credentials.ts';
import { CredentialsForm } from '../components/credentials-form.tsx';
import { ServerCredentials } from '../components/server-credentials.tsx';

const LOADING = 'Getting Elastic License Server information...';

interface Loaded {
  server: ElasticDevice;
  pin: string;
  users: string[];
}

/**
 * /clscredentials (spec 001 §2.4): the PIN and allowed usernames of the account's elastic license server.
 * Shown once the server id and a PIN are known; a new customer remounts the page (the shell keys the outlet),
 * which reloads server, PIN and users.
 */
export default function CredentialsPage() {
  const { customer } = useCustomer();
  const viewOnly = useViewOnly();
  const goToNoPermissions = useGoToNoPermissions();
  const [loaded, setLoaded] = useState<Loaded | null>(null);

  useEffect(() => {
    if (!customer) return;
    let live = true;
    const { customerNumber, customerName } = customer;
    (async () => {
      const server = await getElasticDevice(customerNumber, customerName);
      const [pin, users] = await Promise.all([
        getOrCreatePin(customerNumber, customerName, server.deviceId),
        getUsers(customerNumber, customerName, server.deviceId),
      ]);
      if (live) setLoaded({ server, pin, users });
    })().catch((e) => {
      // Spec 001 §6: any failure (other than sign-in, handled by the client) goes to /nopermissions.
      if (live) goToNoPermissions(e);
    });
    return () => {
      live = false;
    };
  }, [customer, goToNoPermissions]);

  if (!customer) return null;
  return (
    <Stack data-testid="credentials-page">
      <Title order={1} size="h2">
        Elastic Credentials
      </Title>
      {loaded ? (
        <CredentialsForm
          customerNumber={customer.customerNumber}
          server={loaded.server}
          initialPin={loaded.pin}
          initialUsers={loaded.users}
          viewOnly={viewOnly}
        />
      ) : (
        <Spinner text={LOADING} />
      )}
      {loaded ? (
        <ServerCredentials
          customerNumber={customer.customerNumber}
          elasticServerId={loaded.server.deviceId}
        />
      ) : null}
    </Stack>
  );
}
