import type { AccountRow } from '@lp/contract/accounts/schemas';
import type { LicenseServer } from '@lp/contract/license-servers/schemas';
import { Button, Checkbox, Group, Loader, Select, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { getAccounts } from '../../accounts/api/accounts.ts';
import { AssociatedAccounts } from './associated-accounts.tsx';

/**
 * The host row of /activations (spec 002 §2): the Server autocomplete (name and host id, 'No Server Found'), or
 * the pending new / rehost host; Borrowable; Add server; for a saved host View activations and Rehost; and the
 * Associated Accounts search when the user has more than one account.
 */
export function ServerBar(props: {
  servers: LicenseServer[];
  loading: boolean;
  /** The chosen saved host's ids */
  value: string | null;
  /** A host typed in the Add New Host dialog and not saved yet */
  pendingLabel: string | null;
  busy: boolean;
  hasHost: boolean;
  borrowable: boolean;
  tabCustomers: string[];
  onChoose: (host: LicenseServer | null) => void;
  onBorrowable: (on: boolean) => void;
  onAdd: () => void;
  onView: () => void;
  onRehost: () => void;
  onAssociate: (account: AccountRow) => void;
}) {
  const saved = props.servers.find((s) => s.serverId === props.value) ?? null;
  return (
    <Group align="flex-end">
      {props.pendingLabel ? (
        <Text fw={600} data-testid="pending-host">
          {props.pendingLabel}
        </Text>
      ) : (
        <Select
          label="Server"
          placeholder={props.loading ? 'Loading servers...' : 'Select a server'}
          searchable
          clearable
          nothingFoundMessage="No Server Found"
          data={props.servers.map((s) => ({
            value: s.serverId,
            label: `${s.serverName} (${s.hostIdentifier}) ${s.state}`,
          }))}
          value={props.value}
          disabled={props.busy}
          onChange={(value) => props.onChoose(props.servers.find((s) => s.serverId === value) ?? null)}
          w={420}
          rightSection={props.loading ? <Loader size="xs" /> : undefined}
        />
      )}
      <Checkbox
        label="Borrowable"
        checked={props.borrowable}
        disabled={props.busy || !props.hasHost}
        onChange={(e) => props.onBorrowable(e.currentTarget.checked)}
      />
      <Button variant="light" disabled={props.busy || !!props.pendingLabel} onClick={props.onAdd}>
        Add server
      </Button>
      {saved && !props.pendingLabel ? (
        <>
          <Button variant="light" disabled={props.busy} onClick={props.onView}>
            View activations
          </Button>
          <Button variant="light" disabled={props.busy} onClick={props.onRehost}>
            Rehost
          </Button>
        </>
      ) : null}
      <AssociatedAccountsWhenSeveral
        exclude={props.tabCustomers}
        disabled={props.busy || !props.hasHost}
        onPick={props.onAssociate}
      />
    </Group>
  );
}

/** Spec 002 §2 and §7: only when the user has more than one account (the account check asks for 2). */
function AssociatedAccountsWhenSeveral(props: Parameters<typeof AssociatedAccounts>[0]) {
  const several = useQuery({
    queryKey: ['activations', 'several-accounts'],
    queryFn: async () => (await getAccounts({ limit: 2 })).length > 1,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return several.data ? <AssociatedAccounts {...props} /> : null;
}
