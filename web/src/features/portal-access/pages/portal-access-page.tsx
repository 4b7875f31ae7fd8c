import {
  type Contact,
  checkContacts,
  isCoordinator,
  sameContactList,
  selectableContactRoles,
} from '@lp/domain/contacts';
import { isFreeMail } from '@lp/domain/free-mail';
import { contactRoles } from '@lp/domain/policy';
import { Alert, Button, Group, NativeSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { useCallback, useMemo, useState } from 'react';
import { useCustomer } from '../../../app/customer-context.tsx';
import { useViewOnly } from '../../../app/use-view-only.ts';
import { EditableList, useEditableList } from '../../../components/editable-list.tsx';
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
  const list = useEditableList<Contact, Field>({
    blank: blankContact,
    load: useCallback(() => getPortalAccess(customerNumber), [customerNumber]),
  });
  const [conflict, setConflict] = useState(false);
  const { rows } = list.editor;
  const baseline = list.baseline ?? [];
  const check = useMemo(() => checkContacts(rows, baseline, isFreeMail), [rows, baseline]);
  const changed = list.baseline !== null && !sameContactList(rows, list.baseline);

  return (
    <EditableList<Contact, Field>
      list={list}
      ariaLabel="Portal access contacts"
      rowTestId="contact-row"
      loadingText={SPINNER_TEXT}
      savingText={SPINNER_TEXT}
      savedText="Portal access contacts saved."
      headers={['Email', 'Role']}
      cells={(row, index, input) => [
        <TextInput
          key="email"
          aria-label={`Email of contact ${index + 1}`}
          placeholder="name@company.com"
          {...input('email')}
        />,
        <NativeSelect
          key="role"
          aria-label={`Role of contact ${index + 1}`}
          data={
            isCoordinator(row)
              ? [contactRoles.coordinator]
              : [{ value: '', label: 'Select a role' }, ...selectableContactRoles]
          }
          {...input('role')}
        />,
      ]}
      errors={check.rows}
      valid={check.valid}
      changed={changed}
      canEdit={canEdit}
      rowLocked={isCoordinator}
      removeLabel={(row, index) => `Remove ${row.email || `new contact ${index + 1}`}`}
      addLabel="Add contact"
      addNeedsValid
      save={async () => {
        const saved = check.normalised;
        await setPortalAccess(customerNumber, saved, baseline);
        return saved;
      }}
      onSaveError={(e) => {
        if (e instanceof ApiError && e.status === 409) setConflict(true);
      }}
    >
      {!canEdit ? (
        <Alert color="blue" variant="light">
          You have view-only access to the contacts of customer {customerNumber}.
        </Alert>
      ) : null}
      {conflict ? (
        <Alert color="red" variant="light" title="The contact list was changed by someone else">
          <Group justify="space-between">
            <Text size="sm">Reload the saved list (your changes here are dropped) and make them again.</Text>
            <Button
              size="xs"
              variant="light"
              onClick={() => {
                setConflict(false);
                list.reload();
              }}
            >
              Reload
            </Button>
          </Group>
        </Alert>
      ) : null}
    </EditableList>
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
