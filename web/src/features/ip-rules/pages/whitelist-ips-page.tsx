import type { ElasticServer, IpRuleDto } from '@lp/contract/ip-rules/schemas';
import { checkIpRules, type IpRule, sameIpRules } from '@lp/domain/ip-rules';
import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useCustomer } from '../../../app/customer-context.tsx';
import { useViewOnly } from '../../../app/use-view-only.ts';
import { LeaveGuard } from '../../../components/leave-guard.tsx';
import { usePanels } from '../../../components/panels.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { useRowEditor } from '../../../components/use-row-editor.ts';
import { ApiError } from '../../../lib/api-client.ts';
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
  const goToNoPermissions = useGoToNoPermissions();
  const panels = usePanels();
  const [baseline, setBaseline] = useState<IpRuleDto[] | null>(null);
  const editor = useRowEditor<IpRule, Field>(blankRule);
  const { rows, reset } = editor;
  const [saving, setSaving] = useState(false);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    getIpRules(customerNumber, server.DeviceID)
      .then((rules) => {
        if (!mounted.current) return;
        setBaseline(rules);
        reset(rules);
      })
      .catch((e) => {
        // Spec 000 §6, §8: a failed read of the IP settings goes to /nopermissions.
        if (mounted.current) goToNoPermissions(e);
      });
    return () => {
      mounted.current = false;
    };
  }, [customerNumber, server.DeviceID, goToNoPermissions, reset]);

  const check = useMemo(() => checkIpRules(rows), [rows]);
  const changed = baseline !== null && !sameIpRules(rows, baseline);

  if (!baseline) return <Spinner text={LOADING} />;

  const { touch, update } = editor;
  const shown = (id: number, index: number, field: Field) =>
    editor.isTouched(id, field) ? check.rows[index]?.[field] : undefined;

  const save = async () => {
    setSaving(true);
    panels.showSpinner(SAVING);
    try {
      const stored = await setIpRules(customerNumber, server.DeviceID, check.normalised);
      if (!mounted.current) return;
      // Spec 000 §4.6: after a successful save the baseline is the list as stored.
      setBaseline(stored);
      reset(stored);
      panels.showSuccess('IP settings saved.');
    } catch (e) {
      panels.showError(e instanceof ApiError ? e.err : String(e));
    } finally {
      panels.hideSpinner();
      if (mounted.current) setSaving(false);
    }
  };

  const locked = viewOnly || saving;
  return (
    <Stack>
      <LeaveGuard when={changed && !saving} />
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
      <Table withTableBorder verticalSpacing="xs" aria-label="IP rules">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Rule Name</Table.Th>
            <Table.Th>IP Address</Table.Th>
            <Table.Th>
              <VisuallyHidden>Remove</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row, index) => (
            <Table.Tr key={row.id} data-testid="ip-rule-row">
              <Table.Td>
                <TextInput
                  aria-label={`Rule Name of rule ${index + 1}`}
                  value={row.rulename}
                  disabled={locked}
                  maxLength={200}
                  onChange={(e) => update(row.id, 'rulename', e.currentTarget.value)}
                  onBlur={() => touch(row.id, 'rulename')}
                  error={shown(row.id, index, 'rulename')}
                />
              </Table.Td>
              <Table.Td>
                <TextInput
                  aria-label={`IP Address of rule ${index + 1}`}
                  placeholder="203.0.113.0/24"
                  value={row.ipaddress}
                  disabled={locked}
                  onChange={(e) => update(row.id, 'ipaddress', e.currentTarget.value)}
                  onBlur={() => touch(row.id, 'ipaddress')}
                  error={shown(row.id, index, 'ipaddress')}
                />
              </Table.Td>
              <Table.Td>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={`Remove rule ${index + 1}`}
                  disabled={locked}
                  onClick={() => editor.remove(row.id)}
                >
                  <span aria-hidden="true">✕</span>
                </ActionIcon>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Group justify="space-between">
        <Button variant="light" disabled={locked} onClick={editor.add}>
          Add Rule
        </Button>
        <Group>
          <Button variant="default" disabled={!changed || saving} onClick={() => reset(baseline)}>
            Cancel
          </Button>
          <Button onClick={save} disabled={viewOnly || !changed || !check.valid || saving}>
            Save
          </Button>
        </Group>
      </Group>
    </Stack>
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
