import { messages } from '@lp/contract/common/errors';
import { useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { noticeState } from '../../../app/customer-context.tsx';
import { SavedViewGrid } from '../../../components/saved-view-grid/saved-view-grid.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { type ApiClient, ApiError, api } from '../../../lib/api-client.ts';
import { type LeaseGridRow, type LeaseSplit, LeasesDataService } from '../api/leases.ts';
import { leaseColumnDefs } from './lease-columns.tsx';

/** Spec 002 §2 spinner text. */
export const LEASES_SPINNER = 'Getting Leases/Perpetuals Entitlements...';

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
  const navigateRef = useRef(navigate);
  navigateRef.current = navigate;
  const [loading, setLoading] = useState(0);

  const dataService = useMemo(() => {
    const client: ApiClient = async <T,>(path: string, options?: Parameters<ApiClient>[1]) => {
      setLoading((n) => n + 1);
      try {
        return await api<T>(path, options);
      } catch (e) {
        if (e instanceof ApiError && e.status === 403) {
          const to = e.err === messages.exportDenied ? '/noaccess' : '/nopermissions';
          navigateRef.current(to, { replace: true, state: noticeState(version, customerNumber) });
        }
        throw e;
      } finally {
        setLoading((n) => n - 1);
      }
    };
    return new LeasesDataService(customerNumber, split, client);
  }, [customerNumber, split, version]);

  return (
    <div style={{ position: 'relative' }} aria-busy={loading > 0}>
      {loading > 0 ? <Spinner text={LEASES_SPINNER} overlay /> : null}
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
