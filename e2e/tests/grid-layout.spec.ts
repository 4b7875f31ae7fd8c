import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { expectSavedView, filterColumn, isDefaultView, openAccountPage } from './helpers.ts';

/*
 * Grid layout on a 1366 × 768 and a 1920 × 1080 screen (issue 8 §3, issue 21 §3, decisions 024 and 052): on every
 * page with a table, no header or cell text is clipped (truncated, or under the grid's vertical scrollbar), no
 * header breaks inside a word, the key columns lie in the grid's visible area (left of the scrollbar, outside the
 * pinned columns), numbers are right-aligned under right-aligned headers and amounts carry two decimals. One sign-in
 * per role; each page is loaded once and measured at both sizes. Demo world: Acme Aerospace Inc.
 */

const SIZES = [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
] as const;

interface GridCheck {
  /** The grid's region name. */
  region: string;
  /** Columns that may lie outside the visible area: they scroll sideways (decision 024). */
  sideways?: string[];
  /** Free text that may end in an ellipsis (decision 024); its cell is still in view. */
  freeText?: string[];
  /** Right-aligned numbers under right-aligned headers. */
  numeric?: string[];
  /** Amounts with two decimals and thousands separators. */
  amounts?: string[];
  /** The grid may be empty (its rows depend on what other tests did); its headers are still checked. */
  mayBeEmpty?: boolean;
}

/**
 * The audit log's texts of any length (who, which account, which object) may end in an ellipsis: its rows have one
 * fixed height (infinite row model) and the details drawer shows each entry whole. Its fixed vocabulary (time,
 * action, object type) must show whole.
 */
const AUDIT_FREE_TEXT = ['details', 'actor', 'account', 'objectId'];

interface GridPage {
  path: string;
  /** Shows the grids once the page is loaded (a tab, a host). */
  open?: (page: Page) => Promise<void>;
  grids: GridCheck[];
}

/** Every table of one page in the grid's own viewport, measured in one pass; returns what is wrong. */
function layoutProblems(root: Locator, check: GridCheck): Promise<string[]> {
  return root.evaluate((section, c) => {
    const problems: string[] = [];
    const wrapper = section.querySelector('.ag-root-wrapper');
    if (!wrapper) return ['no grid'];
    const viewport = (wrapper.querySelector('.ag-grid-viewport') as HTMLElement).getBoundingClientRect();
    const scroll = wrapper.querySelector('.ag-body-vertical-scroll');
    const scrollWidth =
      scroll && !scroll.classList.contains('ag-hidden') ? scroll.getBoundingClientRect().width : 0;
    const pinnedWidth = (side: string) =>
      wrapper.querySelector(`.ag-header-row .ag-grid-pinned-${side}-cells`)?.getBoundingClientRect().width ??
      0;
    // What a person sees of the scrolling columns, and of the pinned ones (both left of the scrollbar).
    const right = Math.min(viewport.right - scrollWidth, window.innerWidth);
    const center = { left: viewport.left + pinnedWidth('left'), right: right - pinnedWidth('right') };
    const whole = { left: viewport.left, right };
    const boundsOf = (el: Element) =>
      el.closest('.ag-grid-pinned-left-cells, .ag-grid-pinned-right-cells') ? whole : center;

    const overflows = (el: Element) => el.scrollWidth > el.clientWidth + 1;
    const clipped = (el: Element) => overflows(el) || [...el.querySelectorAll('*')].some(overflows);
    const range = (el: Node) => {
      const r = document.createRange();
      r.selectNodeContents(el);
      return r;
    };
    /** Words split over two lines (AG Grid's break-word cut 'Expiration' into 'Expirati / on'). */
    const brokenWords = (el: Element) => {
      const broken: string[] = [];
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (const m of text.matchAll(/\S+/g)) {
          const r = document.createRange();
          r.setStart(node, m.index);
          r.setEnd(node, m.index + m[0].length);
          const tops = new Set(
            [...r.getClientRects()].filter((b) => b.width > 0).map((b) => Math.round(b.top)),
          );
          if (tops.size > 1) broken.push(m[0]);
        }
      }
      return broken;
    };
    const outside = (box: DOMRect, bounds: { left: number; right: number }) =>
      box.width === 0 || box.left < bounds.left - 1 || box.right > bounds.right + 1;
    const endsAtPadding = (cell: Element) => {
      const box = cell.getBoundingClientRect();
      const pad = Number.parseFloat(getComputedStyle(cell).paddingRight) || 0;
      return Math.abs(box.right - pad - range(cell).getBoundingClientRect().right) <= 2;
    };

    const headers = [...wrapper.querySelectorAll('.ag-header-cell[col-id]')];
    const key = (id: string) => !c.sideways?.includes(id);
    for (const header of headers) {
      const id = header.getAttribute('col-id') as string;
      // A custom header (the activations' Action with its Clear button) has no text element of AG Grid's.
      const text =
        header.querySelector('.ag-header-cell-text') ?? header.querySelector('.ag-header-cell-comp-wrapper');
      const name = `header ${id} (${text?.textContent})`;
      if (!text || clipped(text)) problems.push(`${name} is clipped`);
      else if (brokenWords(text).length) problems.push(`${name} breaks '${brokenWords(text).join("', '")}'`);
      if (key(id) && outside(header.getBoundingClientRect(), boundsOf(header)))
        problems.push(`${name} is not in view`);
      const label = header.querySelector('.ag-header-cell-label');
      if (c.numeric?.includes(id) && label && text) {
        // The label also holds the sort icon; right-aligned, AG Grid reverses it so the text ends at its right.
        if (Math.abs(label.getBoundingClientRect().right - range(text).getBoundingClientRect().right) > 2)
          problems.push(`${name} is not right-aligned`);
      }
    }
    for (const id of headers.map((h) => h.getAttribute('col-id') as string).filter(key)) {
      if (!wrapper.querySelector(`.ag-header-cell[col-id="${id}"]`))
        problems.push(`column ${id} is not shown`);
    }

    const cells = [...wrapper.querySelectorAll('.ag-row:not(.ag-row-loading) .ag-cell[col-id]')];
    if (cells.length === 0 && !c.mayBeEmpty) problems.push('no rows shown');
    for (const cell of cells) {
      const id = cell.getAttribute('col-id') as string;
      const name = `cell ${id} '${cell.textContent}'`;
      if (!c.freeText?.includes(id) && clipped(cell)) problems.push(`${name} is clipped`);
      // The cell's content (text, bar or button), not only its box: under the scrollbar "50" read "5".
      if (
        key(id) &&
        (outside(cell.getBoundingClientRect(), boundsOf(cell)) ||
          (cell.textContent &&
            !c.freeText?.includes(id) &&
            outside(range(cell).getBoundingClientRect(), boundsOf(cell))))
      )
        problems.push(`${name} is not in view`);
      if (c.numeric?.includes(id) && cell.textContent && !endsAtPadding(cell))
        problems.push(`${name} is not right-aligned`);
      if (c.amounts?.includes(id) && !/^-?\d{1,3}(,\d{3})*\.\d{2}$/.test(cell.textContent ?? ''))
        problems.push(`${name} is not an amount with two decimals`);
    }
    return problems;
  }, check);
}

async function expectPageLaidOut(page: Page, gridPage: GridPage) {
  const regions = gridPage.grids.map((g) => ({
    check: g,
    root: page.getByRole('region', { name: g.region, exact: true }),
  }));
  for (const { check, root } of regions) {
    // Loaded: rows in (or the pager's count says there are none), no block still loading.
    if (!check.mayBeEmpty)
      await expect(root.locator('.ag-row:not(.ag-row-loading) .ag-cell').first()).toBeVisible();
    else await expect(root.locator('.ag-paging-row-summary-panel')).toHaveText(/\d+ to \d+ of \d+/);
    await expect(root.locator('.ag-row-loading')).toHaveCount(0);
  }
  for (const size of SIZES) {
    await page.setViewportSize(size);
    for (const { check, root } of regions) {
      // The grid lays its columns out again a frame after the resize: poll until it settles.
      await expect
        .poll(() => layoutProblems(root, check), {
          message: `${gridPage.path} ${check.region} at ${size.width}`,
        })
        .toEqual([]);
    }
  }
}

const adminPages: GridPage[] = [
  {
    path: '/ssl',
    grids: ['Active Entitlements table', 'Inactive Entitlements table'].map((region) => ({
      region,
      numeric: ['count', 'activated'],
    })),
  },
  {
    path: '/elastic',
    grids: ['Active Entitlements table', 'Inactive Entitlements table'].map((region) => ({
      region,
      numeric: ['count', 'total', 'remaining'],
      amounts: ['total', 'remaining'],
    })),
  },
  {
    path: '/entitlementsFSA',
    grids: [
      {
        region: 'Active Entitlements table',
        numeric: ['total', 'remaining'],
        amounts: ['total', 'remaining'],
      },
      {
        region: 'Inactive Entitlements table',
        numeric: ['total', 'remaining'],
        amounts: ['total', 'remaining'],
      },
    ],
  },
  {
    path: '/entitlementsFSA',
    open: (page) => page.getByRole('tab', { name: 'History' }).click(),
    // At 1366 px the Requester scrolls sideways (decision 052).
    grids: [{ region: 'Order History table', sideways: ['requester'] }],
  },
  {
    path: '/activations',
    open: async (page) => {
      await page.getByRole('combobox', { name: 'Server', exact: true }).click();
      await page.getByRole('option', { name: /^licsrv01 / }).click();
    },
    grids: [{ region: 'Assigned Entitlements table' }, { region: 'Available Entitlements table' }],
  },
  {
    path: '/activations-history',
    grids: [{ region: 'Active Servers table' }, { region: 'Inactive Servers table', mayBeEmpty: true }],
  },
  {
    path: '/statementv2',
    grids: [
      {
        region: 'Usage by Purchase Order',
        numeric: ['BalanceBeforeStart', 'BalanceAtEnd', 'Used'],
        amounts: ['BalanceBeforeStart', 'BalanceAtEnd', 'Used'],
      },
      { region: 'Usage by Product table' },
    ],
  },
  {
    path: '/transactions',
    grids: [
      {
        region: 'Usage transactions',
        numeric: ['ProductCount', 'Hours', 'Charge'],
        // Key columns: when, what, how much (spec 001 §2.3's first seven); the rest scroll sideways.
        sideways: [
          'User',
          'Host',
          'Project',
          'DeviceID',
          'SessionStatus',
          'REFERER_IP_ADDRESS',
          'productVersion',
          'CloudJobId',
        ],
      },
    ],
  },
  { path: '/emails', grids: [{ region: 'Emails' }] },
  {
    path: '/notifications',
    open: (page) => page.getByRole('tab', { name: 'Resolved' }).click(),
    grids: [{ region: 'Resolved alerts', freeText: ['description', 'service'] }],
  },
  {
    path: '/audit-log',
    grids: [{ region: 'Audit entries', freeText: AUDIT_FREE_TEXT, mayBeEmpty: true }],
  },
];

test('every table of an administrator’s pages is laid out unclipped at 1366 and 1920 px', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await page.setViewportSize(SIZES[0]);
  await openAccountPage(page, 'admin@acme.example', 'Acme Aerospace Inc.', '/elastic');
  await expect(page).toHaveURL(/\/elastic(\?|$)/);
  for (const gridPage of adminPages) {
    await page.setViewportSize(SIZES[0]);
    await page.goto(gridPage.path);
    await gridPage.open?.(page);
    await expectPageLaidOut(page, gridPage);
  }
  // Perpetuals (filtered to them): 'Maintenance ends on {date}' shows whole, the date included (decision 052).
  // The filter is cleared again, so the saved view stays the default for the next test file on this server.
  await page.goto('/ssl');
  const leases = page.getByRole('region', { name: 'Active Entitlements table', exact: true });
  await filterColumn(leases, 'enddate', 'Contains', 'Maintenance ends on 202');
  await expect(leases.locator('.ag-cell[col-id="enddate"]').first()).toContainText('Maintenance ends on');
  await expectPageLaidOut(page, { path: '/ssl', grids: [{ region: 'Active Entitlements table' }] });
  await page
    .getByRole('region', { name: 'Active Entitlements', exact: true })
    .getByRole('button', { name: /^clear filters$/i })
    .click();
  await expectSavedView(page, '1000123', 'leaseAndPerpetualsActive', isDefaultView);

  // A purchase order's product usage (a table in the grid's full-width row) shows amounts with two decimals.
  await page.goto('/statementv2');
  const po = page.getByRole('region', { name: 'Usage by Purchase Order' });
  await po
    .getByRole('button', { name: /^Show product usage of/ })
    .first()
    .click();
  const products = po.getByRole('table', { name: /^Product usage of/ });
  for (const text of await products.locator('tbody td:nth-child(2)').allTextContents()) {
    expect(text).toMatch(/^-?\d{1,3}(,\d{3})*\.\d{2}$/);
  }
});

test('business operations see the audit log of all accounts and the FSA order lines unclipped', async ({
  page,
}) => {
  await page.setViewportSize(SIZES[0]);
  // An audited change, so the log has a row to measure.
  await openAccountPage(page, 'busops@demo.example', 'Acme Aerospace Inc.', '/whitelistips');
  await expect(page.getByTestId('ip-banner')).toBeVisible();
  const n = (await page.getByTestId('ip-rule-row').count()) + 1;
  await page.getByRole('button', { name: 'Add Rule', exact: true }).click();
  await page.getByLabel(`Rule Name of rule ${n}`, { exact: true }).fill('Layout office');
  await page.getByLabel(`IP Address of rule ${n}`, { exact: true }).fill(`198.51.100.${n}`);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId('success-panel')).toBeVisible();
  await page.goto('/audit-log');
  await page.getByRole('switch', { name: 'All accounts' }).click();
  await expectPageLaidOut(page, {
    path: '/audit-log',
    grids: [{ region: 'Audit entries', freeText: AUDIT_FREE_TEXT }],
  });

  // The order lines are a plain table: every header, Remove All included, shows whole at both sizes.
  await page.setViewportSize(SIZES[0]);
  await page.goto('/entitlementsFSA');
  await page.getByRole('tab', { name: 'Order Products' }).click();
  const order = page.getByRole('tabpanel', { name: 'Order Products' });
  await order.getByRole('button', { name: 'Add product' }).click();
  await page.getByRole('menuitem', { name: 'Manual entry' }).click();
  const lines = order.getByRole('table', { name: 'Order lines' });
  await expect(lines.getByRole('button', { name: 'Remove All' })).toBeEnabled();
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await expect
      .poll(() =>
        lines.evaluate((table) => {
          const scroller = table.closest('.mantine-ScrollArea-viewport') ?? table.parentElement;
          const view = (scroller as Element).getBoundingClientRect();
          return [...table.querySelectorAll('th')]
            .filter((th) => {
              const box = th.getBoundingClientRect();
              const content = [th, ...th.querySelectorAll('*')];
              return (
                content.some((el) => el.scrollWidth > el.clientWidth + 1) ||
                box.left < view.left - 1 ||
                box.right > Math.min(view.right, window.innerWidth) + 1
              );
            })
            .map((th) => th.textContent);
        }),
      )
      .toEqual([]);
  }
});
