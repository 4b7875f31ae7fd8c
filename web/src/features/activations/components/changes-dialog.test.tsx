import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { later, refused, renderScreen, serveApi } from '../../../../test/render.tsx';
import { activationRow } from '../activation-row-fixture.ts';
import { ChangesDialog } from './changes-dialog.tsx';

const ACME = '1000123';
const customers = [
  {
    customerNumber: ACME,
    customerName: 'Acme Aerospace Inc.',
    deactivate: [],
    activate: [{ row: activationRow('LEASE-A'), count: 2 }],
  },
];
const preview = [
  {
    customerNumber: ACME,
    serverId: '0a1b2c3d4e5f',
    serverIdType: 'ETHERNET' as const,
    customers: [{ customerNumber: ACME, returns: [], creates: [{ id: 'LEASE-A', count: 2 }] }],
  },
];

/** The dialog of one customer's activation on a host, open; `onOk` records its confirmations. */
async function openDialog() {
  const onOk = vi.fn();
  renderScreen(
    <ChangesDialog
      opened
      mode="default"
      hostLabel="licsrv01 (0a1b2c3d4e5f)"
      customers={customers}
      preview={preview}
      onCancel={() => {}}
      onOk={onOk}
    />,
  );
  return { dialog: await screen.findByRole('dialog', { name: 'Confirm activations' }), onOk };
}

describe('confirmation dialog', () => {
  it('holds Ok until the license file changes are shown, then confirms once', async () => {
    let answer = () => {};
    serveApi({
      'POST /api/fulfillments/license/preview': later(
        [{ customerNumber: ACME, added: ['INCREMENT solver ansyslmd 2026.0101 31-dec-2030 2'], removed: [] }],
        new Promise<void>((resolve) => {
          answer = resolve;
        }),
      ),
    });
    const { dialog, onOk } = await openDialog();
    expect(within(dialog).getByRole('status', { name: `License file changes for ${ACME}` })).toBeVisible();
    const ok = within(dialog).getByRole('button', { name: 'Ok' });
    expect(ok).toBeDisabled();
    await userEvent.click(ok, { pointerEventsCheck: 0 });
    expect(onOk).not.toHaveBeenCalled();

    answer();
    const changes = await within(dialog).findByRole('region', { name: `License file changes for ${ACME}` });
    expect(changes).toHaveTextContent('+ INCREMENT solver');
    expect(ok).toBeEnabled();
    await userEvent.click(ok);
    expect(onOk).toHaveBeenCalledTimes(1);
  });

  it('lets Ok confirm when the changes could not be computed', async () => {
    serveApi({ 'POST /api/fulfillments/license/preview': refused(400, 'Preview failed') });
    const { dialog, onOk } = await openDialog();
    expect(
      await within(dialog).findByRole('region', { name: `License file changes for ${ACME}` }),
    ).toHaveTextContent('The license file changes could not be computed: Preview failed');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Ok' }));
    expect(onOk).toHaveBeenCalledTimes(1);
  });
});
