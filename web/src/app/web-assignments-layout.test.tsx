import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderAccountPage, testAccount } from '../../test/account-page.tsx';
import { Component as WebAssignmentsLayout } from './web-assignments-layout.tsx';

/* /web-assignments' tabs are its sub-paths (spec 000 §2.4: the crumbs follow them); the index is Entitlements. */

const account = testAccount({ hasNamedLicense: 1 });

const open = (path: string, answers: Record<string, unknown> = {}) =>
  renderAccountPage(
    <Routes>
      <Route path="/web-assignments" element={<WebAssignmentsLayout />}>
        <Route index element={<p>pools</p>} />
        <Route path="entitlements/*" element={<p>pools</p>} />
        <Route path="users/*" element={<p>people</p>} />
        <Route path="groups/*" element={<p>groups</p>} />
      </Route>
    </Routes>,
    { path, route: '*', account, answers },
  );

describe('web assignments tabs', () => {
  it('shows Entitlements at the index and goes to a tab sub-path', async () => {
    const view = open('/web-assignments');
    expect(await screen.findByRole('tab', { name: 'Entitlements', selected: true })).toBeInTheDocument();
    expect(screen.getByText('pools')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('tab', { name: 'Groups' }));
    await expect.poll(() => view.location()).toBe('/web-assignments/groups');
    expect(screen.getByRole('tab', { name: 'Groups', selected: true })).toBeInTheDocument();
    expect(screen.getByText('groups')).toBeInTheDocument();
  });

  it('selects the tab of a deeper sub-path, and Users carries the SCIM provisioning of its directory', async () => {
    const view = open('/web-assignments/users/more', { 'POST /api/scim/tokens': [] });
    expect(await screen.findByRole('tab', { name: 'Users', selected: true })).toBeInTheDocument();
    expect(screen.getByText('people')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'SCIM provisioning' })).toBeInTheDocument();
    expect(view.calls.includes('POST /api/scim/tokens')).toBe(true);
  });

  it('shows no provisioning beside Entitlements or Groups', async () => {
    const view = open('/web-assignments/groups');
    expect(await screen.findByRole('tab', { name: 'Groups', selected: true })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'SCIM provisioning' })).toBeNull();
    expect(view.calls.includes('POST /api/scim/tokens')).toBe(false);
  });
});
