import type { CurrentUser } from '@lp/contract/user/schemas';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  accountBox,
  pickAccount,
  portalAccount,
  renderPortal,
  useWholeAppTimeouts,
} from '../../../../test/portal.tsx';
import { later } from '../../../../test/render.tsx';

/*
 * The top bar's account box (spec 000 §2.2, §4.2, §5) in the whole portal: text that is not an account, and the
 * automatic selection at start racing what the user does. The server's answers are held back (`later`), so each
 * order is the one the test makes. The browser keeps picking by typing (e2e/tests/shell.spec.ts).
 */

vi.mock('../../entitlements/pages/entitlements-page.tsx', () => ({
  default: () => <h1>Elastic Licensing</h1>,
}));

const busops: CurrentUser = { email: 'busops@demo.example', name: 'Busops', roles: ['busops'] };
const admin: CurrentUser = { email: 'admin@acme.example', name: 'Acme Admin', roles: ['user'] };
const aerospace = portalAccount('1000123', 'Acme Aerospace Inc.', { hasElastic: 1, isPortalEdit: true });
const energy = portalAccount('1000124', 'Acme Energy Systems Ltd.', { hasElastic: 1, isPortalEdit: true });
const infoAnswer = (a: typeof aerospace) => ({
  customerNumber: a.AccountID,
  customerName: a.AccountName,
  info: a.info,
});

/** A gate the test opens: `open()` lets a held answer go. */
function gate() {
  let open = () => {};
  const until = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, until };
}

/**
 * Marks when the app reads the answer of `key`'s call (its body), so a test can wait until a late answer was
 * handled: what the app does with it follows in the same task.
 */
function watchAnswer(path: string) {
  const served = globalThis.fetch;
  const seen = { read: false };
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const res = await served(input, init);
    if (!String(input).endsWith(path)) return res;
    const body = await res.text();
    const answer = new Response(body, { status: res.status, headers: res.headers });
    answer.text = async () => {
      seen.read = true;
      return body;
    };
    return answer;
  });
  return seen;
}

describe('account box', { timeout: 120_000 }, () => {
  useWholeAppTimeouts();

  it('text that is not an account is rejected', async () => {
    renderPortal('/elastic', { user: busops, accounts: [aerospace] });
    await expect.poll(() => accountBox().value).toBe('1000123 (Acme Aerospace Inc.)');
    await userEvent.click(accountBox());
    await userEvent.paste('12 (unclosed');
    expect(await screen.findByText('Invalid filter text. Filter by account ID or name.')).toBeInTheDocument();
  });

  it('an account picked while the automatic selection is still loading is the one that stays', async () => {
    // The automatic selection (the first account of the list) waits for its info until the user has picked.
    const held = gate();
    const view = renderPortal('/elastic', {
      user: admin,
      accounts: [aerospace, energy],
      answers: {
        [`GET /api/getaccountinfo/${aerospace.AccountID}`]: later(infoAnswer(aerospace), held.until),
      },
    });
    const late = watchAnswer(`/api/getaccountinfo/${aerospace.AccountID}`);
    await expect.poll(() => view.calls).toContain(`GET /api/getaccountinfo/${aerospace.AccountID}`);
    await pickAccount('Energy', /Acme Energy Systems Ltd\./);
    await expect.poll(() => accountBox().value).toMatch(/Acme Energy Systems Ltd\./);

    held.open();
    await expect.poll(() => late.read).toBe(true);
    expect(accountBox().value).toMatch(/Acme Energy Systems Ltd\./);
    await expect.poll(() => window.location.search).toBe(`?account=${energy.AccountID}`);
    // A reload restores the user's pick, not the late automatic one.
    view.unmount();
    renderPortal('/elastic', { user: admin, accounts: [aerospace, energy], fresh: false });
    await expect.poll(() => accountBox().value).toMatch(/Acme Energy Systems Ltd\./);
  });

  it('the automatic selection finishing while the account box has the focus does not change what the user types', async () => {
    // The automatic selection waits for its info until the user is in the box, as a quick typist would be.
    const held = gate();
    const view = renderPortal('/elastic', {
      user: admin,
      accounts: [energy, aerospace],
      answers: { [`GET /api/getaccountinfo/${energy.AccountID}`]: later(infoAnswer(energy), held.until) },
    });
    await expect.poll(() => view.calls).toContain(`GET /api/getaccountinfo/${energy.AccountID}`);
    const box = accountBox();
    await userEvent.click(box);
    held.open();
    // The selection has landed once the account is in the page's URL.
    await expect.poll(() => window.location.search).toBe(`?account=${energy.AccountID}`);
    await userEvent.keyboard('Aerospace');
    expect(box.value).toBe('Aerospace');
    await userEvent.click(await screen.findByRole('option', { name: /Acme Aerospace Inc\./, hidden: true }));
    await expect.poll(() => box.value).toBe('1000123 (Acme Aerospace Inc.)');
    // Leaving the box without typing shows the selection again.
    await userEvent.click(box);
    await userEvent.tab();
    expect(box.value).toBe('1000123 (Acme Aerospace Inc.)');
  });
});
