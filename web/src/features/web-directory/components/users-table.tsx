import type { WebUser } from '@lp/contract/web-directory/schemas';
import { formatDateTime } from '@lp/domain/dates';
import { ActionIcon, Anchor, Menu } from '@mantine/core';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { type ReactNode, useMemo } from 'react';
import { actionsColumn } from '../../../components/saved-view-grid/actions-column.ts';
import { ListGrid } from '../../../components/saved-view-grid/list-grid.tsx';
import { directSeats, inheritedSeats, userRoleText, userSourceText, userStateText } from '../user-text.ts';

export const USERS_TITLE = 'Web users';

/** What a row's controls do; the writes are absent for view-only users (the table then has no Actions). */
export interface UserActions {
  sessions: (user: WebUser) => void;
  writes?: {
    assign: (user: WebUser) => void;
    unassign: (user: WebUser) => void;
    transfer: (user: WebUser) => void;
    suspend: (user: WebUser) => void;
    reactivate: (user: WebUser) => void;
    remove: (user: WebUser) => void;
  };
}

function SessionsCell({ data, context }: ICellRendererParams<WebUser, unknown, UserActions>) {
  if (!data) return null;
  if (data.openSessions === 0) return <>0</>;
  return (
    <Anchor
      component="button"
      size="sm"
      aria-label={`Open sessions of ${data.email}`}
      onClick={() => context.sessions(data)}
    >
      {data.openSessions}
    </Anchor>
  );
}

function ActionsCell({ data, context }: ICellRendererParams<WebUser, unknown, UserActions>) {
  const writes = context.writes;
  if (!data || !writes || data.state === 'removed') return null;
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="light" aria-label={`Actions for ${data.email}`}>
          <span aria-hidden="true">⋯</span>
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={() => writes.assign(data)}>Assign seat</Menu.Item>
        <Menu.Item onClick={() => writes.unassign(data)} disabled={directSeats(data).length === 0}>
          Unassign seat
        </Menu.Item>
        <Menu.Item onClick={() => writes.transfer(data)} disabled={directSeats(data).length === 0}>
          Transfer seat
        </Menu.Item>
        {data.state === 'suspended' ? (
          <Menu.Item onClick={() => writes.reactivate(data)}>Reactivate</Menu.Item>
        ) : (
          <Menu.Item onClick={() => writes.suspend(data)}>Suspend</Menu.Item>
        )}
        <Menu.Item color="red" onClick={() => writes.remove(data)}>
          Remove
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/** The people of the account's directory (decision 071 "Pages"), with the row's actions. */
export function UsersTable({
  customerNumber,
  users,
  actions,
  toolbar,
  notice,
}: {
  customerNumber: string;
  users: WebUser[];
  actions: UserActions;
  toolbar?: ReactNode;
  notice?: ReactNode;
}) {
  const writable = !!actions.writes;
  const columnDefs = useMemo<ColDef<WebUser>[]>(
    () => [
      { colId: 'email', headerName: 'E-mail', field: 'email', flex: 2, minWidth: 220 },
      { colId: 'name', headerName: 'Name', field: 'name', flex: 1.5, minWidth: 150 },
      { colId: 'source', headerName: 'Source', valueGetter: (p) => (p.data ? userSourceText(p.data) : '') },
      { colId: 'state', headerName: 'State', valueGetter: (p) => (p.data ? userStateText(p.data) : '') },
      { colId: 'role', headerName: 'Role', valueGetter: (p) => (p.data ? userRoleText(p.data) : '') },
      {
        colId: 'groups',
        headerName: 'Groups',
        valueGetter: (p) => p.data?.groups.map((g) => g.name).join(', ') ?? '',
        flex: 1.5,
        minWidth: 150,
      },
      {
        colId: 'directSeats',
        headerName: 'Seats (direct)',
        valueGetter: (p) => (p.data ? directSeats(p.data).join(', ') : ''),
        flex: 1.5,
        minWidth: 150,
      },
      {
        colId: 'inheritedSeats',
        headerName: 'Seats (through groups)',
        valueGetter: (p) => (p.data ? inheritedSeats(p.data).join(', ') : ''),
        flex: 1.5,
        minWidth: 180,
      },
      {
        colId: 'lastSeen',
        headerName: 'Last seen',
        valueGetter: (p) => (p.data?.lastSeenAt ? formatDateTime(p.data.lastSeenAt) : ''),
        minWidth: 160,
      },
      {
        colId: 'openSessions',
        headerName: 'Open sessions',
        type: 'rightAligned',
        valueGetter: (p) => p.data?.openSessions ?? 0,
        filterValueGetter: (p) => String(p.data?.openSessions ?? 0),
        cellRenderer: SessionsCell,
        minWidth: 110,
      },
      ...(writable ? [actionsColumn<WebUser>(ActionsCell, 64)] : []),
    ],
    [writable],
  );
  return (
    <ListGrid<WebUser>
      customerNumber={customerNumber}
      tableName="webUsers"
      title={USERS_TITLE}
      rows={users}
      columnDefs={columnDefs}
      getRowId={(p) => p.data.id}
      fileName={`WebUsers_${customerNumber}.csv`}
      context={actions}
      toolbar={toolbar}
      notice={notice}
    />
  );
}
