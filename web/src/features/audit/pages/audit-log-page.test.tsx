import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderAccountPage, testAccount } from '../../../../test/account-page.tsx';
import AuditLogPage from './audit-log-page.tsx';

/*
 * /audit-log (issue 13 §1): a viewer does not open the Audit Log (the menu without it: web/src/app/left-menu.test.tsx).
 * The browser test (e2e/tests/audit-log.spec.ts) keeps the log of a real change, the export, the staff's
 * every-account view and the checkpoint. That the server answers a viewer 403 is an API test
 * (server/src/features/audit/audit-read.api.test.ts, "who may read" and "the cross-account view").
 */

describe('audit log page', () => {
  it('a viewer opening the page goes to /nopermissions and nothing is read', async () => {
    const view = renderAccountPage(<AuditLogPage />, { path: '/audit-log', account: testAccount() });
    expect(
      await screen.findByText('You do not have enough permissions to view this page.'),
    ).toBeInTheDocument();
    expect(view.location()).toBe('/nopermissions');
    expect(view.calls.filter((c) => c.includes('/api/audit'))).toEqual([]);
  });
});
