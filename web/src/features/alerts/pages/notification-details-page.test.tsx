import type { Alert } from '@lp/contract/alerts/schemas';
import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderScreen, serveApi, withFields } from '../../../../test/render.tsx';
import NotificationDetailsPage from './notification-details-page.tsx';

/*
 * /notification-details/{id} (spec 000 §2.12): an alert with its See More links, and the ids that name no alert.
 * The browser test (e2e/tests/alerts.spec.ts) reaches the page from the category list and the resolved grid.
 */

const openAt = (path: string) =>
  renderScreen(
    <Routes>
      <Route path="/notification-details/:id" element={<NotificationDetailsPage />} />
    </Routes>,
    path,
  );

const outage: Alert = {
  id: 7,
  category: 'CRITICAL',
  status: 'ACTIVE',
  date: '2026-01-01T08:00:00Z',
  expires: '2099-06-01T12:00:00Z',
  service: ['E2E Solver Cloud'],
  description: 'Cloud solver jobs fail to start',
  links: { 'Status page': 'https://status.example.com/e2e' },
};

describe('alert details', () => {
  it('shows the alert with its See More links, opened in a new tab', async () => {
    serveApi({ 'POST /api/notifications': withFields([{ ...outage, resolved: false }], { token: null }) });
    openAt('/notification-details/7');
    expect(await screen.findByText('Cloud solver jobs fail to start')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Alert Details' })).toBeInTheDocument();
    expect(screen.getByText('See More')).toBeInTheDocument();
    const link = screen.getByRole('link', { name: 'Status page' });
    expect(link).toHaveAttribute('href', 'https://status.example.com/e2e');
    expect(link).toHaveAttribute('target', '_blank');
    expect(screen.queryByText('This alert does not exist.')).toBeNull();
  });

  it('says so for an id no alert has', async () => {
    serveApi({ 'POST /api/notifications': withFields([], { token: null }) });
    openAt('/notification-details/987654321');
    expect(await screen.findByText('This alert does not exist.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Alert Details' })).toBeInTheDocument();
  });

  it('says so for an id that is not a number, without asking the server', async () => {
    const calls = serveApi({});
    openAt('/notification-details/abc');
    expect(await screen.findByText('This alert does not exist.')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });
});
