import type { ElasticServer } from '@lp/contract/ip-rules/schemas';
import { checkIpRules, type IpRule, sameIpRules } from '@lp/domain/ip-rules';
import { Alert, Stack, Text, TextInput, Title } from '@mantine/core';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useCustomer } from '../../../app/customer-context.tsx';
import { useViewOnly } from '../../../app/use-view-only.ts';
import { EditableList, useEditableList } from '../../../components/editable-list.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { useGoToNoPermissions } from '../../../lib/no-permissions.ts';
import { getActivatedElasticServers, getIpRules, setIpRules } from '../api/ip-rules.ts';

const LOADING = 'Getting IP Settings...';
const SAVING = 'Saving IP Settings...';
export const noElasticServerText =
  'This customer has no activated elastic license server, so there is no IP allow-list to manage.';

type Field = 'rulename' | 'ipaddress';
const blankRule: IpRule = { rulename: '', ipaddress: '' };

function Explanation() {
  return (
    <Stack gap="xs">
      <Text>
        Limit which computers may use your elastic license server. With no rules, every IP address is allowed.
        Once you add a rule, only the addresses listed here are allowed and all others are blocked.
      </Text>
      <Text>
        Each rule allows IPv4 or IPv6 addresses, either one explicit address (for example 203.0.113.10 or
        2001:db8::10) or a range in CIDR notation (for example 203.0.113.0/24 or 2001:db8::/48). Use the
        public addresses your computers connect from.
      </Text>
    </Stack>
  );
}

function IpRulesForm({
  customerNumber,
  server,
  viewOnly,
}: {
  customerNumber: string;
  server: ElasticServer;
  viewOnly: boolean;
}) {
  const list = useEditableList<IpRule, Field>({
    blank: blankRule,
    load: useCallback(() => getIpRules(customerNumber, server.DeviceID), [customerNumber, server.DeviceID]),
    // Spec 000 §6, §8: a failed read of the IP settings goes to /nopermissions.
    onLoadError: useGoToNoPermissions(),
  });
  const { rows } = list.editor;
  const check = useMemo(() => checkIpRules(rows), [rows]);
  const changed = list.baseline !== null && !sameIpRules(rows, list.baseline);

  return (
    <EditableList<IpRule, Field>
      list={list}
      ariaLabel="IP rules"
      rowTestId="ip-rule-row"
      loadingText={LOADING}
      savingText={SAVING}
      savedText="IP settings saved."
      headers={['Rule Name', 'IP Address']}
      cells={(_row, index, input) => [
        <TextInput
          key="rulename"
          aria-label={`Rule Name of rule ${index + 1}`}
          maxLength={200}
          {...input('rulename')}
        />,
        <TextInput
          key="ipaddress"
          aria-label={`IP Address of rule ${index + 1}`}
          placeholder="203.0.113.0/24"
          {...input('ipaddress')}
        />,
      ]}
      errors={check.rows}
      valid={check.valid}
      changed={changed}
      canEdit={!viewOnly}
      removeLabel={(_row, index) => `Remove rule ${index + 1}`}
      addLabel="Add Rule"
      save={() => setIpRules(customerNumber, server.DeviceID, check.normalised)}
    >
      <Text size="sm">
        Elastic license server {server.Alias ? `${server.Alias} (${server.DeviceID})` : server.DeviceID}
      </Text>
      {rows.length === 0 ? (
        <Alert color="green" variant="light" data-testid="ip-banner">
          All IP Addresses are allowed
        </Alert>
      ) : (
        <Alert color="red" variant="light" data-testid="ip-banner">
          All other IP Addresses are blocked
        </Alert>
      )}
      {check.list ? (
        <Alert color="red" variant="light">
          {check.list}
        </Alert>
      ) : null}
    </EditableList>
  );
}

/** /whitelistips (spec 000 §2.10, §4.6): the IP allow-list of the account's elastic license server. */
export default function WhitelistIpsPage() {
  const { customer } = useCustomer();
  const viewOnly = useViewOnly();
  const goToNoPermissions = useGoToNoPermissions();
  const [servers, setServers] = useState<ElasticServer[] | null>(null);

  useEffect(() => {
    if (!customer) return;
    let live = true;
    getActivatedElasticServers(customer.customerNumber, customer.customerName)
      .then((list) => live && setServers(list))
      .catch((e) => {
        if (live) goToNoPermissions(e);
      });
    return () => {
      live = false;
    };
  }, [customer, goToNoPermissions]);

  if (!customer) return null;
  const server = servers?.[0];
  return (
    <Stack data-testid="whitelist-ips-page">
      <Title order={1} size="h2">
        Elastic IP Settings
      </Title>
      <Explanation />
      {servers === null ? (
        <Spinner text={LOADING} />
      ) : server ? (
        <IpRulesForm
          key={`${customer.customerNumber}:${server.DeviceID}`}
          customerNumber={customer.customerNumber}
          server={server}
          viewOnly={viewOnly}
        />
      ) : (
        <Alert color="yellow" variant="light" data-testid="no-elastic-server">
          {noElasticServerText}
        </Alert>
      )}
    </Stack>
  );
}

export { WhitelistIpsPage as Component };
