import { messages } from '@lp/contract/common/errors';
import { licenseFilesApi } from '@lp/contract/license-files/api';
import type { PreviewRequest } from '@lp/contract/license-files/schemas';
import { Alert, Button, Code, Group, Loader, Modal, Stack, Table, Tabs, Text, Title } from '@mantine/core';
import { type UseQueryResult, useQuery } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api-client.ts';
import { call } from '../../../lib/call.ts';
import type { ChangeLine, ChangesMode, CustomerChanges } from '../save-plan.ts';
import { EntitlementText, expirationText } from './entitlement-text.tsx';

/**
 * The activations confirmation dialog (spec 002 §2, 1200 px): one tab per customer listing the products to be
 * deactivated and activated, the shared-server warning, and the expired-maintenance refusal (Ok hidden). Modes
 * Default, Rehost, Deactivate and Delete (history page). Before Ok it previews what each customer's license file
 * gains and loses (issue 11 §3), computed by the server from the generator that writes the file.
 *
 * Accessible names: the dialog is named by its title; tabs by customer number; tables 'Products to deactivate for
 * {customer}' / 'Products to activate for {customer}'; the preview region 'License file changes for {customer}';
 * buttons 'Cancel' and 'Ok'.
 */

export interface ChangesDialogProps {
  opened: boolean;
  mode: ChangesMode;
  /** The host the changes are made on (the rehost source in Rehost mode), e.g. 'licsrv01 (0a1b2c3d4e5f)' */
  hostLabel: string;
  /** Rehost: the target host */
  targetLabel?: string;
  customers: CustomerChanges[];
  /** Other customer numbers share the server (spec 002 §2) */
  sharedWarning?: string | null;
  /** A change of the host's own settings the save makes (Borrowable, decision 048) */
  hostChange?: string | null;
  /** The same changes as the preview call takes; none: no preview (Delete) */
  preview?: PreviewRequest[] | null;
  onCancel: () => void;
  onOk: () => void;
}

// Titles are not shown in the spec; these say what Ok will do.
const titles: Record<ChangesMode, string> = {
  default: 'Confirm activations',
  rehost: 'Confirm rehost',
  deactivate: 'Confirm host deactivation',
  delete: 'Confirm host removal',
};

function LinesTable({ label, lines }: { label: string; lines: ChangeLine[] }) {
  return (
    <Table striped withTableBorder aria-label={label}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>#</Table.Th>
          <Table.Th>Entitlement</Table.Th>
          <Table.Th>Count</Table.Th>
          <Table.Th>Start Date</Table.Th>
          <Table.Th>Expiration Date</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {lines.map(({ row, count }, index) => (
          <Table.Tr key={row.activationid} c={row.maintenanceExpired ? 'red' : undefined}>
            <Table.Td>{index + 1}</Table.Td>
            <Table.Td>
              <EntitlementText row={row} />
            </Table.Td>
            <Table.Td>{Math.abs(count).toLocaleString('en-US')}</Table.Td>
            <Table.Td>{row.startdate}</Table.Td>
            <Table.Td>{expirationText(row)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * A rehost's lines leave the source's file and enter the target's unchanged (a line names no host): one list
 * under "move from A to B" instead of the same lines removed and added; what differs stays '-' / '+'.
 */
export function movedLines(removed: string[], added: string[]) {
  const left = [...added];
  const moved: string[] = [];
  const gone: string[] = [];
  for (const line of removed) {
    const at = left.indexOf(line);
    if (at < 0) gone.push(line);
    else moved.push(...left.splice(at, 1));
  }
  return { moved, removed: gone, added: left };
}

type PreviewAnswers = Awaited<ReturnType<typeof call<typeof licenseFilesApi.preview>>>[];

/** What the license files gain and lose; one call per host of the change (two in a rehost). */
function usePreview(requests: PreviewRequest[] | null | undefined) {
  return useQuery({
    queryKey: ['license-preview', requests],
    queryFn: () => Promise.all((requests ?? []).map((r) => call(licenseFilesApi.preview, r))),
    enabled: Boolean(requests?.length),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}

function FilePreview({
  query,
  customerNumber,
  move,
}: {
  query: UseQueryResult<PreviewAnswers>;
  customerNumber: string;
  /** Rehost: the source and target labels */
  move?: { from: string; to: string };
}) {
  const label = `License file changes for ${customerNumber}`;
  if (query.isPending)
    return (
      <Group gap="xs" role="status" aria-label={label}>
        <Loader size="xs" />
        <Text size="sm">Computing the license file changes...</Text>
      </Group>
    );
  if (query.isError)
    return (
      <Alert color="yellow" role="region" aria-label={label}>
        The license file changes could not be computed:{' '}
        {query.error instanceof ApiError ? query.error.err : String(query.error)}
      </Alert>
    );
  const mine = query.data.flatMap((answer) => answer.data.filter((d) => d.customerNumber === customerNumber));
  const all = { removed: mine.flatMap((d) => d.removed), added: mine.flatMap((d) => d.added) };
  const { moved, removed, added } = move ? movedLines(all.removed, all.added) : { moved: [], ...all };
  return (
    <Stack gap={4} role="region" aria-label={label}>
      <Title order={3} size="h5">
        What changes in the license file
      </Title>
      {moved.length ? (
        <>
          <Text size="sm">
            These lines move from host {move?.from} to host {move?.to}:
          </Text>
          <Code block>{moved.join('\n')}</Code>
        </>
      ) : null}
      {removed.length + added.length === 0 ? (
        moved.length ? null : (
          <Text size="sm">The license file stays the same.</Text>
        )
      ) : (
        <Code block>{[...removed.map((l) => `- ${l}`), ...added.map((l) => `+ ${l}`)].join('\n')}</Code>
      )}
    </Stack>
  );
}

export function ChangesDialog(props: ChangesDialogProps) {
  const { mode, customers, hostLabel } = props;
  const expired = customers.flatMap((c) =>
    [...c.deactivate, ...c.activate].filter((l) => l.row.maintenanceExpired),
  );
  const deactivateOn = hostLabel;
  const activateOn = mode === 'rehost' ? (props.targetLabel ?? hostLabel) : hostLabel;
  const showPreview = Boolean(props.preview?.length) && !expired.length;
  const preview = usePreview(showPreview ? props.preview : null);
  // Ok waits for the preview: it is what Ok confirms, and its arrival moves Ok down (a click aimed at it missed).
  const previewPending = showPreview && preview.isPending;
  return (
    <Modal
      opened={props.opened}
      onClose={props.onCancel}
      size={1200}
      title={titles[mode]}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack>
        {props.sharedWarning ? (
          <Alert color="yellow" title="Shared license server">
            {props.sharedWarning}
          </Alert>
        ) : null}
        {props.hostChange ? <Text fw={600}>{props.hostChange}</Text> : null}
        {mode === 'delete' ? (
          <Text>Host {hostLabel} and its activation history will be removed permanently.</Text>
        ) : (
          <Tabs defaultValue={customers[0]?.customerNumber} keepMounted={false}>
            <Tabs.List>
              {customers.map((c) => (
                <Tabs.Tab key={c.customerNumber} value={c.customerNumber}>
                  {c.customerNumber}
                </Tabs.Tab>
              ))}
            </Tabs.List>
            {customers.map((c) => (
              <Tabs.Panel key={c.customerNumber} value={c.customerNumber} pt="sm">
                <Stack>
                  <Text size="sm">{c.customerName}</Text>
                  {c.deactivate.length + c.activate.length === 0 ? (
                    <Text>
                      {messages.noProductsChange} {activateOn}
                    </Text>
                  ) : null}
                  {c.deactivate.length ? (
                    <>
                      <Text fw={600}>
                        The following products will be deactivated on Host ID: {deactivateOn}
                      </Text>
                      <LinesTable
                        label={`Products to deactivate for ${c.customerNumber}`}
                        lines={c.deactivate}
                      />
                    </>
                  ) : null}
                  {c.activate.length ? (
                    <>
                      <Text fw={600}>The following products will be activated on Host ID: {activateOn}</Text>
                      <LinesTable label={`Products to activate for ${c.customerNumber}`} lines={c.activate} />
                    </>
                  ) : null}
                  {showPreview ? (
                    <FilePreview
                      query={preview}
                      customerNumber={c.customerNumber}
                      move={mode === 'rehost' ? { from: deactivateOn, to: activateOn } : undefined}
                    />
                  ) : null}
                </Stack>
              </Tabs.Panel>
            ))}
          </Tabs>
        )}
        {expired.length ? (
          <Alert color="red" title={messages.maintenanceExpired}>
            <Stack gap={4}>
              {expired.map((l) => (
                <Text key={l.row.activationid} size="sm">
                  {l.row.ansysproduct} ({l.row.activationid})
                </Text>
              ))}
              <Text size="sm">{messages.unselectAndRetry}</Text>
            </Stack>
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onCancel}>
            Cancel
          </Button>
          {expired.length ? null : (
            <Button onClick={props.onOk} loading={previewPending}>
              Ok
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
