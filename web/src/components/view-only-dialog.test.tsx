import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderScreen } from '../../test/render.tsx';
import { showViewOnlyNotice } from './view-only-dialog.tsx';

/*
 * The one view-only notice (spec 000 §2.6): every screen shows it instead of an edit or confirm dialog. The
 * browser tests open it once per screen kind (activations, history, FSA order); its wording and closing live here.
 */
describe('view-only notice', () => {
  it('names the customer, says the user may not do this, and closes with Ok', async () => {
    renderScreen(null);
    let closed = false;
    act(() => {
      void showViewOnlyNotice('1000123').then(() => {
        closed = true;
      });
    });
    const dialog = await screen.findByRole('dialog', { name: 'Customer 1000123' });
    expect(dialog).toHaveTextContent('You do not have enough permissions for such operation.');
    await userEvent.click(screen.getByRole('button', { name: 'Ok' }));
    await expect.poll(() => closed).toBe(true);
    await expect.poll(() => screen.queryByRole('dialog')).toBeNull();
  });
});
