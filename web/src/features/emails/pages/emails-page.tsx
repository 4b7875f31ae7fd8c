import type { EmailRow } from '@lp/contract/emails/schemas';
import { Button, Stack, Title } from '@mantine/core';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { useMemo } from 'react';
import { Link, useNavigate } from 'react-router';
import { noticeState, useCustomer, useCustomerOfType } from '../../../app/customer-context.tsx';
import { useSavedView } from '../../../components/saved-view-grid/use-saved-view.ts';
import { useServerRows } from '../../../components/saved-view-grid/use-server-rows.ts';
import { ViewGrid } from '../../../components/saved-view-grid/view-grid.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useCountingClient } from '../../../lib/counting-client.ts';
import { createEmailsDataService } from '../api/emails.ts';
import { emailsAllowedFor } from '../emails-rules.ts';

export const EMAILS_SPINNER = 'Getting Emails...';

function ViewButton(props: ICellRendererParams<EmailRow>) {
  if (!props.data) return null;
  return (
    <Button
      component={Link}
      to={`/emails/${props.data.id}`}
      size="compact-xs"
      variant="light"
      aria-label={`View e-mail: ${props.data.subject}`}
    >
      View
    </Button>
  );
}

/** One text condition per column, contains or equals (spec 000 §2.7). */
const textFilter = {
  filter: 'agTextColumnFilter',
  filterParams: { filterOptions: ['contains', 'equals'], maxNumConditions: 1, buttons: ['reset'] },
} as const;

const columnDefs: ColDef<EmailRow>[] = [
  // The server's 'YYYY-MM-DD HH:mm:ss' is the dash-separated form the spec asks for.
  { colId: 'date', field: 'date', headerName: 'Date', sort: 'desc', minWidth: 170, ...textFilter },
  { colId: 'subject', field: 'subject', headerName: 'Subject', flex: 3, ...textFilter },
  { colId: 'to', field: 'to', headerName: 'To', flex: 2, ...textFilter },
  {
    colId: 'view',
    headerName: 'View',
    cellRenderer: ViewButton,
    sortable: false,
    filter: false,
    flex: 0,
    width: 100,
    minWidth: 90,
  },
];

function EmailsList({ customerNumber, version }: { customerNumber: string; version: number }) {
  const navigate = useNavigate();
  // Counts calls in flight for the spinner; a FAILURE answer means no access: /nopermissions (spec 000 §6, §8).
  const { client, inFlight } = useCountingClient((e) => {
    if (e instanceof ApiError && e.status >= 400 && e.status !== 401) {
      navigate('/nopermissions', { replace: true, state: noticeState(version, customerNumber) });
    }
  });
  const dataService = useMemo(
    () => createEmailsDataService(customerNumber, client),
    [customerNumber, client],
  );
  const view = useSavedView({ customerNumber, tableName: 'emailList' });
  const rows = useServerRows(view.api, view.applied, { dataService });

  return (
    <div style={{ position: 'relative' }}>
      {inFlight > 0 ? <Spinner text={EMAILS_SPINNER} overlay /> : null}
      <ViewGrid<EmailRow>
        view={view}
        rowModel={{ kind: 'infinite', source: rows }}
        columnDefs={columnDefs}
        ariaLabel="Emails"
        height={520}
      />
    </div>
  );
}

function EmailsScreen() {
  const { version } = useCustomer();
  const customer = useCustomerOfType((info) => emailsAllowedFor(info?.orgType));
  if (!customer) return null;
  return (
    <Stack data-testid="emails-page">
      <Title order={1} size="h2">
        Emails
      </Title>
      <EmailsList customerNumber={customer.customerNumber} version={version} />
    </Stack>
  );
}

/** Routed at /emails inside RequireCustomer (web/src/app/router.tsx). */
export default EmailsScreen;
