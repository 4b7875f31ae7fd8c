import { messages } from '@lp/contract/common/errors';
import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import { noticeState } from '../../../app/customer-context.tsx';
import { useSavedView } from '../../../components/saved-view-grid/use-saved-view.ts';
import { useServerRows } from '../../../components/saved-view-grid/use-server-rows.ts';
import { ViewGrid } from '../../../components/saved-view-grid/view-grid.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useCountingClient } from '../../../lib/counting-client.ts';
import { type LeaseGridRow, type LeaseSplit, LeasesDataService } from '../api/leases.ts';
import { leaseColumnDefs } from './lease-columns.tsx';

/** Spec 002 §2: the column order, sort and filters of each table are saved per customer under these names. */
const tableNames = {
  active: 'leaseAndPerpetualsActive',
  inactive: 'leaseAndPerpetualsInactive',
} as const;

/** Spec 002 §9: page and block size 20. */
const PAGE_SIZE = 20;

export interface LeasesTableProps {
  customerNumber: string;
  /** The customer selection the page was opened for, carried to the notice pages. */
  version: number;
  split: LeaseSplit;
  title: string;
}

/**
 * One /ssl table: the shared table shell (ViewGrid) over the leases data service. While a call is out the spec's
 * spinner covers the table; a refused permission check goes to /nopermissions and an export denial to
 * /noaccess (spec 002 §2); other failures are shown above the table by the grid.
 */
export function LeasesTable({ customerNumber, version, split, title }: LeasesTableProps) {
  const navigate = useNavigate();
  const { client, inFlight } = useCountingClient((e) => {
    if (e instanceof ApiError && e.status === 403) {
      const to = e.err === messages.exportDenied ? '/noaccess' : '/nopermissions';
      navigate(to, { replace: true, state: noticeState(version, customerNumber) });
    }
  });
  const dataService = useMemo(
    () => new LeasesDataService(customerNumber, split, client),
    [customerNumber, split, client],
  );
  const view = useSavedView({ customerNumber, tableName: tableNames[split] });
  const rows = useServerRows(view.api, view.applied, { dataService });

  return (
    <div style={{ position: 'relative' }} aria-busy={inFlight > 0}>
      {inFlight > 0 ? <Spinner text={messages.gettingLeases} overlay /> : null}
      <ViewGrid<LeaseGridRow>
        view={view}
        rowModel={{ kind: 'infinite', source: rows }}
        columnDefs={leaseColumnDefs}
        cacheBlockSize={PAGE_SIZE}
        paginationPageSize={PAGE_SIZE}
        height={640}
        ariaLabel={`${title} table`}
      />
    </div>
  );
}
