import { messages } from '@lp/contract/common/errors';
import type { FsaContract } from '@lp/contract/fsa/schemas';
import { Accordion, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useStagedMount } from '../../../lib/use-staged-mount.ts';
import { contractColumnDefs, orderColumnDef } from './contract-columns.tsx';
import { ContractInsights } from './contract-insights.tsx';
import { FsaGrid } from './fsa-grid.tsx';

const sections = [
  { key: 'active', title: 'Active Entitlements', tableName: 'fsaActiveEntitlements' },
  { key: 'inactive', title: 'Inactive Entitlements', tableName: 'fsaInActiveEntitlements' },
] as const;

/**
 * The Entitlements tab (spec 002 §2 "FSA page"): Active and Inactive Entitlements, two collapsible grids of the
 * account's contracts split by the server's classification (§4: NOT STARTED active, EXPIRED or 100 % used inactive).
 */
export function EntitlementsTab({
  customerNumber,
  contracts,
  onOrder,
}: {
  customerNumber: string;
  contracts: FsaContract[];
  /** The Order button of an active row: order against that contract */
  onOrder: (entitlementId: string) => void;
}) {
  const columns = useMemo(
    () => ({ active: [...contractColumnDefs, orderColumnDef(onOrder)], inactive: contractColumnDefs }),
    [onOrder],
  );
  // The Spending panel, its chart, the Active grid, then the Inactive grid, each in a task of its own.
  const mounted = useStagedMount(2 + sections.length);
  const rows = {
    active: contracts.filter((c) => c.active),
    inactive: contracts.filter((c) => !c.active),
  };
  return (
    <>
      <ContractInsights customerNumber={customerNumber} contracts={contracts} withChart={mounted >= 2} />
      <Accordion multiple defaultValue={['active', 'inactive']} variant="separated" order={2}>
        {sections.slice(0, mounted - 2).map((s) => (
          <Accordion.Item key={s.key} value={s.key}>
            <Accordion.Control>{s.title}</Accordion.Control>
            <Accordion.Panel>
              {s.key === 'active' && rows.active.length === 0 ? (
                <Text mb="xs" data-testid="no-active-entitlements">
                  {messages.fsaNoActiveEntitlements}
                </Text>
              ) : null}
              <FsaGrid<FsaContract>
                customerNumber={customerNumber}
                tableName={s.tableName}
                title={s.title}
                rows={rows[s.key]}
                columnDefs={columns[s.key]}
                getRowId={(p) => p.data.entitlementId}
                rowHeight={52}
              />
            </Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
    </>
  );
}
