/**
 * What other features may use of sign-in (decision 026: a feature imports another feature's service, never its
 * internals). The built-in provider's users are stored with these password hashes.
 */
export { hashPassword, verifyPassword } from './password.ts';
/** Operators' user commands (the CLI, and later provisioning): every feature disables and removes users this way. */
export { disableUser, enableUser, relinkUsers, removeUser } from './user-admin.ts';
