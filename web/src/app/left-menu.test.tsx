import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderAccountPage, type TestAccount, testAccount } from '../../test/account-page.tsx';
import { withFields } from '../../test/render.tsx';
import { LeftMenu } from './left-menu.tsx';

/*
 * The left menu (spec 000 §2.3) for the selected account: a viewer has no Audit Log entry (issue 13 §1). The browser
 * test (e2e/tests/shell-menu.spec.ts) keeps the groups and entries following the account's flags.
 */

const features = { features: [], enabled: [], overridable: false };

const menuOf = async (account: TestAccount) => {
  const view = renderAccountPage(<LeftMenu />, {
    path: '/portalaccess',
    account,
    answers: {
      'GET /api/featureflag/features': features,
      'GET /api/getBuildInfo': withFields('', { err: null }),
    },
  });
  const menu = await screen.findByRole('navigation', { name: 'Main menu' });
  expect(await within(menu).findByRole('link', { name: 'Licensing Portal Access' })).toBeInTheDocument();
  return { ...view, menu };
};

describe('left menu', () => {
  it('a viewer has no Audit Log; an administrator has', async () => {
    const admin = await menuOf(testAccount({ isPortalEdit: true }));
    expect(within(admin.menu).getByRole('link', { name: 'Audit Log' })).toBeInTheDocument();
    admin.unmount();

    const viewer = await menuOf(testAccount());
    expect(within(viewer.menu).queryByRole('link', { name: 'Audit Log' })).toBeNull();
  });
});
