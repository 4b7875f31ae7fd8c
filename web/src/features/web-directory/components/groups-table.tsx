import type { WebGroup } from '@lp/contract/web-directory/schemas';
import { webDirectoryMessages } from '@lp/domain/web-directory';
import { ActionIcon, Menu } from '@mantine/core';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { type ReactNode, useMemo } from 'react';
import { actionsColumn } from '../../../components/saved-view-grid/actions-column.ts';
import { ListGrid } from '../../../components/saved-view-grid/list-grid.tsx';

export const GROUPS_TITLE = 'Web groups';

/** The row's writes; absent for view-only users (the table then has no Actions). */
export interface GroupActions {
  rename: (group: WebGroup) => void;
  members: (group: WebGroup) => void;
  delete: (group: WebGroup) => void;
  /** Absent while the account has no named (shared) pool. */
  namedPools?: (group: WebGroup) => void;
  sharedTerms?: (group: WebGroup) => void;
}

const sourceText = (g: WebGroup) => (g.source === 'scim' ? 'Identity provider (SCIM)' : 'Manual');

/** "STR-SW: guaranteed 5, cap 10" per shared pool. */
const sharedTermsText = (g: WebGroup) =>
  g.sharedTerms
    .map((t) => `${t.partNumber}: guaranteed ${t.guaranteed}, ${t.cap === null ? 'no cap' : `cap ${t.cap}`}`)
    .join('; ');

function ActionsCell({ data, context }: ICellRendererParams<WebGroup, unknown, { writes?: GroupActions }>) {
  const writes = context.writes;
  if (!data || !writes) return null;
  // The identity provider owns a SCIM group's name and members (the server refuses them with this text).
  const scim = data.source === 'scim';
  const { namedPools, sharedTerms } = writes;
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="light" aria-label={`Actions for ${data.name}`}>
          <span aria-hidden="true">⋯</span>
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {scim ? (
          <Menu.Label maw={260} style={{ whiteSpace: 'normal' }}>
            {webDirectoryMessages.scimManaged}
          </Menu.Label>
        ) : (
          <>
            <Menu.Item onClick={() => writes.rename(data)}>Rename</Menu.Item>
            <Menu.Item onClick={() => writes.members(data)}>Members</Menu.Item>
          </>
        )}
        {namedPools ? <Menu.Item onClick={() => namedPools(data)}>Named pools</Menu.Item> : null}
        {sharedTerms ? <Menu.Item onClick={() => sharedTerms(data)}>Shared terms</Menu.Item> : null}
        {scim ? null : (
          <Menu.Item color="red" onClick={() => writes.delete(data)}>
            Delete
          </Menu.Item>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}

/** The groups of the account's directory (decision 071 "Pages"): members, named pools and shared terms. */
export function GroupsTable({
  customerNumber,
  groups,
  writes,
  toolbar,
  notice,
}: {
  customerNumber: string;
  groups: WebGroup[];
  writes?: GroupActions;
  toolbar?: ReactNode;
  notice?: ReactNode;
}) {
  const context = useMemo(() => ({ writes }), [writes]);
  const writable = !!writes;
  const columnDefs = useMemo<ColDef<WebGroup>[]>(
    () => [
      { colId: 'name', headerName: 'Name', field: 'name', flex: 2, minWidth: 180 },
      { colId: 'source', headerName: 'Source', valueGetter: (p) => (p.data ? sourceText(p.data) : '') },
      {
        colId: 'members',
        headerName: 'Members',
        type: 'rightAligned',
        field: 'members',
        filterValueGetter: (p) => String(p.data?.members ?? ''),
        minWidth: 100,
      },
      {
        colId: 'namedPools',
        headerName: 'Named pools',
        valueGetter: (p) => p.data?.namedPools.join(', ') ?? '',
        flex: 2,
        minWidth: 180,
      },
      {
        colId: 'sharedTerms',
        headerName: 'Shared terms (guaranteed / cap)',
        valueGetter: (p) => (p.data ? sharedTermsText(p.data) : ''),
        flex: 2,
        minWidth: 240,
      },
      ...(writable ? [actionsColumn<WebGroup>(ActionsCell, 64)] : []),
    ],
    [writable],
  );
  return (
    <ListGrid<WebGroup>
      customerNumber={customerNumber}
      tableName="webGroups"
      title={GROUPS_TITLE}
      rows={groups}
      columnDefs={columnDefs}
      getRowId={(p) => p.data.id}
      fileName={`WebGroups_${customerNumber}.csv`}
      context={context}
      toolbar={toolbar}
      notice={notice}
    />
  );
}
