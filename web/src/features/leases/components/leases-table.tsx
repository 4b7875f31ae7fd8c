import { messages } from '@lp/contract/common/errors';
import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import { noticeState } from '../../../app/customer-context.tsx';
import { SavedViewGrid } from '../../../components/saved-view-grid/saved-view-grid.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useCountingClient } from '../../../lib/counting-client.ts';
import { type LeaseGridRow, type LeaseSplit, LeasesDataService } from '../api/leases.ts';
import { leaseColumnDefs } from './lease-columns.tsx';

/** Spec 002 §2 spinner text. */

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
 * One /ssl table: the shared saved-view grid over the leases data service. While a call is out the spec's
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

  return (
    <div style={{ position: 'relative' }} aria-busy={inFlight > 0}>
      {inFlight > 0 ? <Spinner text={messages.gettingLeases} overlay /> : null}
      <SavedViewGrid<LeaseGridRow>
        customerNumber={customerNumber}
        tableName={tableNames[split]}
        columnDefs={leaseColumnDefs}
        dataService={dataService}
        blockSize={PAGE_SIZE}
        pageSize={PAGE_SIZE}
        height={640}
        ariaLabel={`${title} table`}
      />
    </div>
  );
}
