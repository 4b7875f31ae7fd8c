import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { refused, renderScreen, serveApi } from '../../../../test/render.tsx';
import { createUsageDataService } from '../api/usage.ts';
import { type Choice, ValuesFilterDialog } from './values-filter-dialog.tsx';

/*
 * The multi-select filter dialog of /transactions (spec 001 §2.3, §5) when the distinct values cannot be
 * searched: the server's words, no Select All, Apply disabled; Cancel applies nothing. The browser test
 * (e2e/tests/transactions.spec.ts) keeps choosing values and applying them.
 */

const usage = createUsageDataService({ customerNumber: '1000123', customerName: 'Acme Test Inc.' });
/** The distinct values of the column, as the page asks the usage API for them. */
const loadChoices = async (colId: string): Promise<Choice[]> =>
  (await usage.distinct(colId)).filter((v): v is Choice => typeof v === 'string' || typeof v === 'number');

describe('values filter dialog', () => {
  it('shows a search error, without Select All and with Apply disabled', async () => {
    const calls = serveApi({
      'POST /api/fetchUsage/distinct': refused(400, 'Too many distinct values', 'BAD_REQUEST'),
    });
    const onApply = vi.fn();
    const onClose = vi.fn();
    renderScreen(
      <ValuesFilterDialog
        column={{ colId: 'Host', title: 'Hostname' }}
        current={null}
        loadChoices={loadChoices}
        onApply={onApply}
        onClose={onClose}
      />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Filter Hostname' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Too many distinct values');
    expect(calls).toContain('POST /api/fetchUsage/distinct');
    expect(within(dialog).queryByRole('checkbox', { name: 'Select All' })).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Apply' })).toBeDisabled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(onApply).not.toHaveBeenCalled();
  });
});
