import { authApi } from '@lp/contract/auth/api';
import { escapeHtml } from '../../../platform/escape-html.ts';

/**
 * Server-rendered pages of the built-in IdP. No inline scripts (the CSP allows scripts from 'self'
 * only); the one script, which auto-submits the sign-out form, is served from /api/auth.
 */

const autoSubmitScriptPath = authApi.autoSubmitScript.path;
export const autoSubmitScript =
  "document.addEventListener('DOMContentLoaded',function(){var f=document.getElementById('auto-submit');if(f)f.submit();});\n";

export const wrongCredentialsMessage = 'Username or password is incorrect';
export const tooManyAttemptsMessage = 'Too many sign-in attempts. Wait a minute and try again.';
/** Shown for a locked e-mail address, whether or not an account has it (the text reveals nothing). */
export const lockedOutMessage = (minutes: number) =>
  `Too many failed sign-in attempts for this email address. Wait ${minutes} minutes and try again.`;
/** Shown to one client address after its own failures for an e-mail (decision 017, revised): its own wait. */
export const addressLockedOutMessage = (minutes: number) =>
  `Too many failed sign-in attempts for this email address from your network. Wait ${minutes === 1 ? 'a minute' : `${minutes} minutes`} and try again.`;

const styles = `
body{margin:0;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;background:#f1f3f5;color:#212529}
main{max-width:420px;margin:64px auto;background:#fff;border-radius:8px;box-shadow:0 1px 3px rgba(0,0,0,.12);padding:32px}
h1{font-size:1.5rem;margin:0 0 4px}p.sub{margin:0 0 24px;color:#495057}
label{display:block;font-weight:600;margin:16px 0 4px}
input{box-sizing:border-box;width:100%;padding:8px 10px;border:1px solid #ced4da;border-radius:4px;font-size:1rem}
button{margin-top:24px;width:100%;padding:10px;border:0;border-radius:4px;background:#1864ab;color:#fff;font-size:1rem;font-weight:600;cursor:pointer}
button:hover{background:#145591}
.error{background:#fff5f5;color:#c92a2a;border:1px solid #ffc9c9;border-radius:4px;padding:8px 10px}
table{width:100%;border-collapse:collapse;font-size:.85rem;margin-top:8px}th,td{text-align:left;padding:4px 6px;border-bottom:1px solid #e9ecef}
section.demo{margin-top:32px}section.demo h2{font-size:1rem;margin:0 0 4px}a{color:#1864ab}
`;

function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<link rel="icon" type="image/svg+xml" href="/favicon.svg">
<title>${escapeHtml(title)}</title>
<style>${styles}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
}

export interface DemoUser {
  email: string;
  name: string;
  roles: string[];
}

export interface LoginPageOptions {
  action: string;
  email?: string;
  error?: string;
  /** Present only outside production. */
  demo?: { users: DemoUser[]; total: number; password: string | null };
}

export function loginPage(options: LoginPageOptions): string {
  const error = options.error ? `<p class="error" role="alert">${escapeHtml(options.error)}</p>` : '';
  const demo = options.demo ? demoSection(options.demo) : '';
  return page(
    'Licensing Portal',
    `<h1>Licensing Portal</h1>
<p class="sub">Sign in to continue</p>
${error}
<form method="post" action="${escapeHtml(options.action)}" novalidate>
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required autofocus value="${escapeHtml(options.email ?? '')}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
${demo}`,
  );
}

function demoSection(demo: NonNullable<LoginPageOptions['demo']>): string {
  const password = demo.password
    ? `Their password is <code>${escapeHtml(demo.password)}</code> (DEMO_PASSWORD).`
    : 'Their password is the configured DEMO_PASSWORD.';
  if (demo.users.length === 0) {
    return `<section class="demo"><h2>Demo users</h2><p>No demo users yet. ${password}</p></section>`;
  }
  const rows = demo.users
    .map(
      (u) =>
        `<tr><td>${escapeHtml(u.email)}</td><td>${escapeHtml(u.name)}</td><td>${escapeHtml(u.roles.join(', ') || 'customer user')}</td></tr>`,
    )
    .join('\n');
  const more = demo.total > demo.users.length ? `<p>…and ${demo.total - demo.users.length} more.</p>` : '';
  return `<section class="demo" aria-labelledby="demo-users">
<h2 id="demo-users">Demo users</h2>
<p>This is not a production environment. ${password}</p>
<table><thead><tr><th scope="col">Email</th><th scope="col">Name</th><th scope="col">Roles</th></tr></thead>
<tbody>
${rows}
</tbody></table>
${more}
</section>`;
}

export function messagePage(title: string, message: string, link?: { href: string; text: string }): string {
  const a = link ? `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.text)}</a></p>` : '';
  return page(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>\n${a}`);
}

/** The IdP's sign-out confirmation, submitted automatically: the user already chose Sign Out in the app. */
export function logoutPage(formHtml: string): string {
  // oidc-provider gives an empty form carrying the xsrf field; buttons outside it use form="op.logoutForm".
  const form = formHtml.replace('<form id="op.logoutForm"', '<form id="auto-submit" data-op="logout"');
  return `${page(
    'Signing out',
    `<h1>Signing out…</h1>
<p>You are being signed out of the Licensing Portal.</p>
${form.replace('</form>', '<input type="hidden" name="logout" value="yes"><button type="submit">Sign out</button></form>')}`,
  ).replace('</body>', `<script src="${autoSubmitScriptPath}"></script>\n</body>`)}`;
}

export const passwordMinLength = 12;

/** The operator's set-password link (decision 046): a new password, twice. */
export function setPasswordPage(options: { action: string; email: string; error?: string }): string {
  const error = options.error ? `<p class="error" role="alert">${escapeHtml(options.error)}</p>` : '';
  return page(
    'Set your password',
    `<h1>Set your password</h1>
<p class="sub">For ${escapeHtml(options.email)}. At least ${passwordMinLength} characters.</p>
${error}
<form method="post" action="${escapeHtml(options.action)}" novalidate>
<input type="email" name="email" autocomplete="username" value="${escapeHtml(options.email)}" hidden>
<label for="password">New password</label>
<input id="password" name="password" type="password" autocomplete="new-password" required autofocus minlength="${passwordMinLength}">
<label for="confirm">Repeat the new password</label>
<input id="confirm" name="confirm" type="password" autocomplete="new-password" required minlength="${passwordMinLength}">
<button type="submit">Set password</button>
</form>`,
  );
}
