import type { ContactDto } from '@lp/contract/portal-access/schemas';
import {
  type Contact,
  checkContacts,
  isCoordinator,
  sameContactList,
  selectableContactRoles,
} from '@lp/domain/contacts';
import { isFreeMail } from '@lp/domain/free-mail';
import { contactRoles } from '@lp/domain/policy';
import {
  ActionIcon,
  Alert,
  Button,
  Group,
  NativeSelect,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useCustomer } from '../../../app/customer-context.tsx';
import { useViewOnly } from '../../../app/use-view-only.ts';
import { LeaveGuard } from '../../../components/leave-guard.tsx';
import { usePanels } from '../../../components/panels.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { useRowEditor } from '../../../components/use-row-editor.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useConfig } from '../../../lib/app-context.tsx';
import { getPortalAccess, setPortalAccess } from '../api/portal-access.ts';

export const SPINNER_TEXT = 'Manage Portal Access...';

type Field = 'email' | 'role';
const blankContact: Contact = { email: '', role: '' };

function Intro() {
  const { providerName, productName } = useConfig();
  return (
    <Stack gap="xs">
      <Text>
        The people listed here can sign in to the Licensing Portal for this customer. Every contact needs an
        active {providerName} account registered with the e-mail address given here.
      </Text>
      <Text>
        To become a Licensing Portal Administrator, contact an existing Administrator of this customer or its{' '}
        {productName} Support Coordinator. To become a Support Coordinator, contact your {providerName}{' '}
        account manager.
      </Text>
    </Stack>
  );
}

function PortalAccessForm({ customerNumber, canEdit }: { customerNumber: string; canEdit: boolean }) {
  const panels = usePanels();
  const [baseline, setBaseline] = useState<ContactDto[] | null>(null);
  const editor = useRowEditor<Contact, Field>(blankContact);
  const { rows, reset } = editor;
  const [loadError, setLoadError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [conflict, setConflict] = useState(false);
  const mounted = useRef(true);

  const load = useCallback(async () => {
    setLoadError(null);
    setBaseline(null);
    try {
      const contacts = await getPortalAccess(customerNumber);
      if (!mounted.current) return;
      setBaseline(contacts);
      reset(contacts);
      setConflict(false);
    } catch (e) {
      if (!mounted.current) return;
      setLoadError(e instanceof ApiError ? e.err : String(e));
    }
  }, [customerNumber, reset]);

  useEffect(() => {
    mounted.current = true;
    load();
    return () => {
      mounted.current = false;
    };
  }, [load]);

  const check = useMemo(() => checkContacts(rows, baseline ?? [], isFreeMail), [rows, baseline]);
  const changed = baseline !== null && !sameContactList(rows, baseline);

  if (loadError) {
    return (
      <Alert color="red" title="Error">
        {loadError}
      </Alert>
    );
  }
  if (!baseline) return <Spinner text={SPINNER_TEXT} />;

  const { touch, update, remove, add } = editor;
  const cancel = () => reset(baseline);

  const save = async () => {
    setSaving(true);
    panels.showSpinner(SPINNER_TEXT);
    try {
      const saved = check.normalised;
      await setPortalAccess(customerNumber, saved, baseline);
      if (!mounted.current) return;
      // Spec 000 §4.5: after a successful save the saved baseline becomes the current list.
      setBaseline(saved);
      editor.setRows((rs) => rs.map((r, i) => ({ ...r, ...saved[i] })));
      editor.clearTouched();
      panels.showSuccess('Portal access contacts saved.');
    } catch (e) {
      const err = e instanceof ApiError ? e.err : String(e);
      panels.showError(err);
      if (e instanceof ApiError && e.status === 409 && mounted.current) setConflict(true);
    } finally {
      panels.hideSpinner();
      if (mounted.current) setSaving(false);
    }
  };

  const shown = (id: number, index: number, field: Field) =>
    editor.isTouched(id, field) ? check.rows[index]?.[field] : undefined;

  return (
    <Stack>
      <LeaveGuard when={changed && !saving} />
      {!canEdit ? (
        <Alert color="blue" variant="light">
          You have view-only access to the contacts of customer {customerNumber}.
        </Alert>
      ) : null}
      {conflict ? (
        <Alert color="red" variant="light" title="The contact list was changed by someone else">
          <Group justify="space-between">
            <Text size="sm">Reload the saved list (your changes here are dropped) and make them again.</Text>
            <Button size="xs" variant="light" onClick={load}>
              Reload
            </Button>
          </Group>
        </Alert>
      ) : null}
      <Table withTableBorder verticalSpacing="xs" aria-label="Portal access contacts">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Email</Table.Th>
            <Table.Th>Role</Table.Th>
            <Table.Th>
              <VisuallyHidden>Remove</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row, index) => {
            const locked = isCoordinator(row) || !canEdit || saving;
            const roleOptions = isCoordinator(row)
              ? [contactRoles.coordinator]
              : [{ value: '', label: 'Select a role' }, ...selectableContactRoles];
            const label = row.email || `new contact ${index + 1}`;
            return (
              <Table.Tr key={row.id} data-testid="contact-row">
                <Table.Td>
                  <TextInput
                    aria-label={`Email of contact ${index + 1}`}
                    placeholder="name@company.com"
                    value={row.email}
                    disabled={locked}
                    onChange={(e) => update(row.id, 'email', e.currentTarget.value)}
                    onBlur={() => touch(row.id, 'email')}
                    error={shown(row.id, index, 'email')}
                  />
                </Table.Td>
                <Table.Td>
                  <NativeSelect
                    aria-label={`Role of contact ${index + 1}`}
                    data={roleOptions}
                    value={row.role}
                    disabled={locked}
                    onChange={(e) => update(row.id, 'role', e.currentTarget.value)}
                    onBlur={() => touch(row.id, 'role')}
                    error={shown(row.id, index, 'role')}
                  />
                </Table.Td>
                <Table.Td>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Remove ${label}`}
                    disabled={locked}
                    onClick={() => remove(row.id)}
                  >
                    <span aria-hidden="true">✕</span>
                  </ActionIcon>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      <Group justify="space-between">
        <Button variant="light" onClick={add} disabled={!canEdit || saving || !check.valid}>
          Add contact
        </Button>
        <Group>
          <Button variant="default" onClick={cancel} disabled={!changed || saving}>
            Cancel
          </Button>
          <Button onClick={save} disabled={!canEdit || !changed || !check.valid || saving}>
            Save
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}

/** /portalaccess (spec 000 §2.9, §4.5): the account's portal-access contacts. */
export default function PortalAccessPage() {
  const { customer } = useCustomer();
  const viewOnly = useViewOnly();
  if (!customer) return null;
  return (
    <Stack data-testid="portal-access-page">
      <Title order={1} size="h2">
        Licensing Portal Access
      </Title>
      <Intro />
      <PortalAccessForm
        key={customer.customerNumber}
        customerNumber={customer.customerNumber}
        canEdit={!viewOnly}
      />
    </Stack>
  );
}

export { PortalAccessPage as Component };
