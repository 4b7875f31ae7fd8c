import { authApi } from '@lp/contract/auth/api';
import { call } from '../../../lib/call.ts';

/** Sign-out ends the server session; the browser then follows the IdP's sign-out redirect. */
export async function logout(): Promise<void> {
  // Spec 000 §4.1: logout start clears local storage.
  localStorage.clear();
  let redirect = '/';
  try {
    const answer = await call(authApi.logout);
    redirect = answer.data.redirect || '/';
  } catch (e) {
    console.warn('logout failed', e);
  }
  window.location.assign(redirect);
}
