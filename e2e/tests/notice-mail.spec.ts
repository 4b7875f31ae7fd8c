import { header, parseMime } from '@lp/server/test/mime';
import { expect, test } from './fixtures.ts';
import { signIn } from './helpers.ts';

/*
 * Issue 22 §6 (decision 060): the notice digest names where the notices are chosen, in its text and as
 * List-Unsubscribe. This file's server runs the notices job over the demo world at start and delivers to a real
 * SMTP server; the administrator follows the link from the received message, signs in, and lands on the choices
 * of the account the digest is about.
 */
// Runs on a server with the jobs and real SMTP delivery (playwright.config.ts, project 'jobs-smtp').

const ACME = '1000123';

test("the digest's List-Unsubscribe link opens the account's notice choices after sign-in", async ({
  page,
  mailbox,
  baseURL,
}) => {
  const digest = () =>
    mailbox?.mail.find(
      (m) =>
        m.to.includes('admin@acme.example') && m.subject.startsWith(`Licensing notices for account ${ACME}`),
    );
  await expect.poll(digest, { timeout: 60_000 }).toBeTruthy();
  const mail = parseMime(digest()?.raw ?? '');
  const link = /^<(.+)>$/.exec(header(mail, 'List-Unsubscribe') ?? '')?.[1] ?? '';
  expect(link).toBe(`${baseURL}/emails?account=${ACME}&notices=choose`);
  const text = mail.parts.find((p) => p.type === 'text/plain')?.content.toString('utf8') ?? '';
  expect(text.replace(/\s+/g, ' ')).toContain(`choose your notices [${link}]`);

  await signIn(page, 'admin@acme.example', link.slice(baseURL?.length ?? 0));
  const dialog = page.getByRole('dialog', { name: `Notices for ${ACME}` });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('checkbox', { name: '30 days' })).toBeVisible();
  // Closed, the address no longer asks for it: a reload shows the page alone.
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`/emails\\?account=${ACME}$`));
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(dialog).toHaveCount(0);
});
