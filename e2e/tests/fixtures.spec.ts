import { expect, test } from './fixtures.ts';
import { expectNoSeriousViolations } from './helpers.ts';

/*
 * The shared fixture (developer guide): a console error or an uncaught page error fails the test. `test.fail`
 * turns these around: each passes only because the fixture failed it.
 */

test.fail('a console.error fails the test', async ({ page }) => {
  await page.setContent('<p>page</p>');
  await page.evaluate(() => console.error('something went wrong'));
  await expect(page.getByText('page')).toBeVisible();
});

test.fail('an uncaught page error fails the test', async ({ page }) => {
  const thrown = page.waitForEvent('pageerror');
  await page.setContent('<script>setTimeout(() => { throw new Error("uncaught"); })</script><p>page</p>');
  await thrown;
});

test.fail('a console.error in a context the test opens itself fails the test', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.evaluate(() => console.error('something went wrong'));
  await context.close();
});

test('console warnings and error answers of the server do not fail the test', async ({ page }) => {
  await page.route('http://app.test/', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<p>page</p>' }),
  );
  await page.route('http://app.test/refused', (route) => route.fulfill({ status: 400, body: '{}' }));
  await page.goto('http://app.test/');
  const logged = page.waitForEvent('console', (m) => m.type() === 'error');
  expect(await page.evaluate(async () => (await fetch('/refused')).status)).toBe(400);
  expect((await logged).text()).toMatch(/^Failed to load resource/);
  await page.evaluate(() => console.warn('only a warning'));
});

test('the accessibility sweep names a serious violation of the page and of a same-origin frame', async ({
  page,
}) => {
  await page.route('http://app.test/', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<html lang="en"><title>t</title><main><h1>page</h1><iframe title="inner" src="/inner"></iframe></main></html>',
    }),
  );
  await page.route('http://app.test/inner', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<html lang="en"><title>inner</title><main><button class="nameless"></button></main></html>',
    }),
  );
  await page.goto('http://app.test/');
  await expect(page.frameLocator('iframe').locator('button.nameless')).toHaveCount(1);
  await expect(expectNoSeriousViolations(page)).rejects.toThrow(/button-name: .*nameless/);
  await page.route('http://app.test/', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<html lang="en"><title>t</title><main><h1>page</h1><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></main></html>',
    }),
  );
  await page.goto('http://app.test/');
  await expect(expectNoSeriousViolations(page)).rejects.toThrow(/image-alt/);
});
