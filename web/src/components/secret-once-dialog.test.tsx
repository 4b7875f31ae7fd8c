import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderScreen } from '../../test/render.tsx';
import { SecretOnceDialog } from './secret-once-dialog.tsx';

/*
 * The secret shown once (a personal API token, a license-server credential): the browser tests
 * (api-tokens.spec.ts, staff-elastic.spec.ts) take it from a real issue and use it; its dialog's rules live here.
 */
describe('secret shown once', () => {
  const shown = {
    fields: [{ label: 'Name', value: 'ci export' }],
    secret: { label: 'Token', value: 'lp_secret_value' },
  };

  it('shows the notice, the facts and the secret read-only, and copies it', async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderScreen(
      <SecretOnceDialog shown={shown} title="New API token" notice="Copy it now." onClose={() => {}} />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'New API token' });
    expect(dialog).toHaveTextContent('Copy it now.');
    expect(screen.getByLabelText('Name')).toHaveValue('ci export');
    const token = screen.getByLabelText('Token');
    expect(token).toHaveValue('lp_secret_value');
    expect(token).toHaveAttribute('readonly');
    await userEvent.click(screen.getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith('lp_secret_value');
    expect(await screen.findByRole('button', { name: 'Copied' })).toBeInTheDocument();
  });

  it('closes with Close only: a click outside keeps the only copy of the secret', async () => {
    const onClose = vi.fn();
    renderScreen(
      <SecretOnceDialog shown={shown} title="New API token" notice="Copy it now." onClose={onClose} />,
    );
    await screen.findByRole('dialog', { name: 'New API token' });
    const overlay = document.querySelector('.mantine-Modal-overlay');
    expect(overlay).not.toBeNull();
    await userEvent.click(overlay as Element);
    expect(onClose).not.toHaveBeenCalled();
    // The text button (the corner's × is also named Close).
    const close = screen.getAllByRole('button', { name: 'Close' }).find((b) => b.textContent === 'Close');
    await userEvent.click(close as HTMLElement);
    expect(onClose).toHaveBeenCalled();
  });
});
