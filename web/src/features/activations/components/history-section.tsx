import { messages } from '@lp/contract/common/errors';
import type { LicenseServer } from '@lp/contract/license-servers/schemas';
import { Button, Group, Stack } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { SavedViewButtons } from '../../../components/saved-view-grid/saved-view-buttons.tsx';
import { useSavedView } from '../../../components/saved-view-grid/use-saved-view.ts';
import { Spinner } from '../../../components/spinner.tsx';
import { saveTextFile } from '../../../lib/save-file.ts';
import { fetchExportHistory, useSectionHistory } from '../api/history.ts';
import { historyCsv, historyCsvFileName } from '../history-csv.ts';
import { flattenTree, type HostSection, hostKeyOf } from '../history-tree.ts';
import { HistoryGrid, type HostActions } from './history-grid.tsx';

/** Spec 002 §2: the sections' saved views. */
const tableNames = { active: 'manageActivationsActive', inactive: 'manageActivationsInActive' } as const;

export interface HistorySectionProps {
  customerNumber: string;
  section: HostSection;
  title: string;
  /** The section's hosts in the page's order (name, id, type) */
  hosts: LicenseServer[];
  /** The host buttons other than expand (the page runs them) */
  actions: Omit<HostActions, 'toggle'>;
  /** A failed history fetch or export (the page's error banner) */
  onError: (message: string) => void;
}

/**
 * One collapsible section of /activations-history: its Export as csv, Clear filters and Reset view buttons and
 * its tree grid. Expanding a host fetches its history lazily; the first hosts are pre-fetched (spec 002 §9).
 */
export function HistorySection({
  customerNumber,
  section,
  title,
  hosts,
  actions,
  onError,
}: HistorySectionProps) {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const [exporting, setExporting] = useState(false);
  const view = useSavedView({ customerNumber, tableName: tableNames[section] });
  const { history, failed } = useSectionHistory(customerNumber, hosts, expanded);
  const rows = useMemo(() => flattenTree(hosts, expanded, history), [hosts, expanded, history]);

  useEffect(() => {
    if (failed) onError(messages.errorHistory);
  }, [failed, onError]);

  const gridActions = useMemo<HostActions>(
    () => ({
      ...actions,
      toggle: (host) =>
        setExpanded((open) => {
          const next = new Set(open);
          const key = hostKeyOf(host);
          if (!next.delete(key)) next.add(key);
          return next;
        }),
    }),
    [actions],
  );

  const exportCsv = async () => {
    setExporting(true);
    try {
      const data = await fetchExportHistory(customerNumber, hosts);
      saveTextFile(historyCsv(data), historyCsvFileName(section, customerNumber), 'text/csv');
    } catch (e) {
      console.warn('History export failed', e);
      onError(messages.errorHistory);
    } finally {
      setExporting(false);
    }
  };

  return (
    <Stack gap="xs">
      <Group justify="flex-end" gap="xs">
        <Button
          variant="default"
          size="xs"
          onClick={() => void exportCsv()}
          loading={exporting}
          disabled={hosts.length === 0}
        >
          Export as csv
        </Button>
        <SavedViewButtons view={view} />
      </Group>
      <div style={{ position: 'relative' }}>
        {view.busy ? <Spinner text={view.busy} overlay /> : null}
        <HistoryGrid title={title} rows={rows} actions={gridActions} gridEvents={view.gridEvents} />
      </div>
    </Stack>
  );
}
