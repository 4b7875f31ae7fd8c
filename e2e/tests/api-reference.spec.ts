import { expect, test } from './fixtures.ts';
import { signIn } from './helpers.ts';

/*
 * Issue 22 §5 (decision 058): the interactive API reference, served by the portal from its own copy of Scalar.
 * It renders the calls of /api/docs with their summaries, loads nothing from another host (a customer's network
 * may have no way out) and logs no console error, CSP refusals included (the fixture fails the test on any).
 */

test('the API tokens page links the API reference, which shows the calls and loads nothing from elsewhere', async ({
  page,
  baseURL,
}) => {
  const elsewhere: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (!['data:', 'blob:'].includes(url.protocol) && url.origin !== new URL(baseURL ?? '').origin)
      elsewhere.push(request.url());
  });
  await signIn(page, 'engineer@acme.example');
  await page.getByRole('link', { name: 'API Tokens' }).click();
  await page.getByRole('link', { name: 'API reference' }).click();
  await expect(page).toHaveURL(/\/api\/reference\/$/);
  await expect(page.getByRole('heading', { name: 'Licensing Portal API', level: 1 })).toBeVisible();
  // An operation's summary, under its feature's tag in the sidebar.
  await page.getByRole('link', { name: 'api-tokens', exact: true }).click();
  await expect(
    page.getByText("The signed-in user's personal API tokens (never the tokens themselves)").first(),
  ).toBeVisible();
  expect(elsewhere).toEqual([]);
});

test('the reference page needs no sign-in, like the document it shows', async ({ page }) => {
  await page.goto('/api/reference/');
  await expect(page.getByText('Liveness: the process answers').first()).toBeVisible();
});
