import { api } from '../../../lib/api-client.ts';

/** POST /api/auth/logout ends the server session; the browser then follows the IdP's sign-out redirect. */
export async function logout(): Promise<void> {
  // Spec 000 §4.1: logout start clears local storage.
  localStorage.clear();
  let redirect = '/';
  try {
    const answer = await api<{ status: 'SUCCESS'; data: { redirect: string } }>('/api/auth/logout', {
      method: 'POST',
      body: {},
    });
    redirect = answer.data.redirect || '/';
  } catch (e) {
    console.warn('logout failed', e);
  }
  window.location.assign(redirect);
}
