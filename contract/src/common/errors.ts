/**
 * The one error catalogue: each code has its HTTP status. The server throws AppError(code, message);
 * the single error handler answers {status: 'FAILURE', err: message, code} with this status.
 */
export const errorCatalogue = {
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  /** A thing that existed and ended (a web-license lease released or timed out). */
  GONE: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE: 422,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof errorCatalogue;

/** Texts the spec gives verbatim, kept in one place so server and client say the same thing. */
export const messages = {
  notSignedIn: 'Unauthorised',
  noPermission: 'You do not have enough permissions for such operation.',
  noPermissionPage: 'You do not have enough permissions to view this page.',
  exportDenied: 'Access to this customer is denied per Export Compliance restrictions.',
  invalidAccountFilter: 'Invalid filter text. Filter by account ID or name.',
  noAccountFound: 'No account found.',
  tooManyAccounts: 'Too many accounts found. Filter by account ID or name.',
  exceedsMaxLength: 'total number of records exceeds maximum allowed length',
  tokenNotSupported: 'fetch by continuation token is not supported',
  tooManyDistinct: 'Too many distinct values',
  dataTimeout: 'data request timeout',
  fetchFailed: (attempts: number) => `unable to fetch data after ${attempts} attempts`,
  internal: 'Internal server error',
  internalWithReference: (reference: string) => `Internal server error (reference ${reference})`,
  databaseUnavailable: 'Service temporarily unavailable: the database cannot be reached.',
  retryConflict: 'Another change to the same data was saved at the same moment. Please retry.',
  shuttingDown: 'Service temporarily unavailable: this server is shutting down. Please try again.',
  // Decision 043: a database that does not answer in time, and sealed keys this server cannot open.
  databaseTimeout: 'Service temporarily unavailable: the database did not answer in time. Please try again.',
  sealedKeysUnavailable:
    'Service temporarily unavailable: this server cannot open its encrypted keys. The operator has to correct its key setting.',
  notFound: 'Not found',
  csrf: 'Missing anti-CSRF header',
  // Decision 045: e-mails users ask for, per user and per account in the last hour.
  userMailLimit: (max: number) =>
    `You have asked for ${max} e-mails in the last hour, the most one user may send. Please try again later.`,
  accountMailLimit: (max: number) =>
    `This account has sent ${max} e-mails asked for by its users in the last hour, the most one account may send. Please try again later.`,
  // Decision 021: a user's large pages (CSV export, fetch-all) beyond the per-user limit.
  tooManyLargeRequests: 'Too many large requests at once; try again in a moment.',
  // Spec 001 §4, §5, §8: usage transactions.
  tooManyTransactions: (max: number) =>
    `Total number of available transactions exceeds ${max}. Apply filters to reduce selection.`,
  rangeClearsFilters: 'Action will clear all current filters. Do you wish to continue?',
  noMatchesFound: 'No matches found.',
  // Spec 001 §8: summary statement and its PDF.
  noActiveEntitlements: 'No active entitlements for account',
  pdfNotPdf: 'An error occurred when loading the PDF.',
  pdfExportFailed: 'An error occurred when exporting the PDF.',
  // Spec 001 §5, §7: elastic license server credentials.
  invalidPin: 'PIN number is not valid. Please enter a 6 digits number.',
  invalidUsernames: 'List of usernames is not valid. Please enter a valid list.',
  // Spec 001 §8: weekly / monthly statement e-mail of an elastic entitlement.
  emailSent: 'Email has been sent.',
  emailNotSent: 'Email has not been sent.',
  // Spec 002 §5, §8: activations, hosts and license files.
  activatedOverAvailable: 'Activated number must be less or equal to Available number.',
  activatedMinimum: 'Minimum is 1.',
  activatedMaximum: (n: number) => `Maximum is ${n}.`,
  maintenanceExpired:
    'The following products can not be activated or deactivated since their maintenance has expired.',
  unselectAndRetry: 'Please unselect them and try again.',
  noProductsChange: 'No products will be activated or deactivated on Host ID:',
  returnOverActivated: 'Returned number must be less or equal to the number activated on the host.',
  entitlementExpired: (activationId: string) =>
    `Entitlement ${activationId} has no remaining days and can not be activated.`,
  unknownActivation: (activationId: string) =>
    `No entitlement ${activationId} of this account can be activated.`,
  unknownFulfillment: (id: number) => `No fulfillment ${id} of this account is activated.`,
  errorReturning: 'Error returning fulfillments. Please clear the error and retry.',
  errorCreating: 'Error creating fulfillments. Please clear the error and retry.',
  errorSharedGroup: 'Error creating shared server group. Please clear the error and retry.',
  errorDeactivatingGroup: 'Error deactivating shared server group. Please clear the error and retry.',
  errorLicenseFile: 'Error creating license file. Please clear the error and retry.',
  // Decision 048: not in the spec (it has no Borrowable-only save); worded as the spec's step errors.
  errorBorrowable: 'Error saving the Borrowable setting. Please clear the error and retry.',
  errorEmail: 'Error sending email message. Please clear the error and retry.',
  errorRemovingServer: 'Error removing server. Please retry.',
  errorHistory: 'Error fetching fulfillment history for all the servers.',
  unableFetchServers: 'unable to fetch servers information',
  unableFetchServerEntitlements: (id: string) => `unable to fetch fulfilled entitlements for server ${id}`,
  unableFetchAvailable: 'unable to fetch available fulfilled entitlements',
  unableFetchHostCustomers: 'Unable to fetch customers for the selected server due to an exception.',
  gettingLeases: 'Getting Leases/Perpetuals Entitlements...',
  noDaemonsWithActivations: 'No daemons with activations.',
  noSupportEmail: 'No support e-mail address is on file for this account.',
  uploadNeedsFile: 'Please choose a file to upload.',
  // Decision 032: checking an uploaded license file.
  licenseFileUnreadable: (line: number, problem: string) =>
    `The file is not a license file: line ${line}: ${problem}.`,
  licenseFileNoFeatures:
    'The file has no FEATURE, INCREMENT, PACKAGE or UPGRADE line, so there is nothing to verify.',
  // Spec 002 §2, §4, §5, §8: Flexible Spending Account order lines, order and page (decision 035).
  fsaCountPositive: 'Count should be a positive number.',
  fsaStartDateInvalid: 'Start date is invalid.',
  fsaEndDateInvalid: 'End date is invalid.',
  fsaEndNotAfterStart: 'End Date can not be greater than start date',
  fsaDuplicateLine: 'Product with same attributes already exists.',
  fsaBalanceProduct: 'You do not have sufficient balance for the selected product.',
  fsaBalanceCount: 'You do not have sufficient balance for the selected count.',
  fsaBalanceStartDate: 'You do not have sufficient balance for the selected start date.',
  fsaBalanceDuration: 'You do not have sufficient balance for the selected duration.',
  fsaBalanceCost: 'You do not have sufficient balance for the entered cost.',
  fsaNoProducts: 'Error: Selected FSA Contract has no products defined',
  fsaSomeNotCreated:
    'Some entitlements were not successfully created. Please check for errors and try again.',
  fsaCreated: 'Entitlements successfully created.',
  fsaCreating: 'Creating entitlements...',
  /** Followed by the error (spec 002 §11 "FSA errors") */
  fsaOrderNetworkError: 'POST: ERROR in /api/entitlements: ',
  fsaLoading: 'Getting Flexible Spending Account Details...',
  fsaNoActiveEntitlements: 'Account does not have any active entitlements.',
  // Issue 20 §1, §3 (decision 042): sign-in refusals after the provider's sign-in, and personal API tokens.
  signInEmailUnverified:
    'Your identity provider has not verified your e-mail address, so the portal cannot tell it is yours. Verify the address with your identity provider, then sign in again.',
  signInIdentityMismatch:
    'This e-mail address is linked to a different account of your identity provider. Ask your portal administrator to re-link your user.',
  signInDisabled: 'Your access to the portal has been disabled. Ask your portal administrator.',
  signInNoEmail:
    'Your identity provider did not give an e-mail address for you, so the portal cannot tell who you are.',
  tokenNotFound: 'Token not found',
  tokenCreateNeedsSession:
    'API tokens can only be created while signed in to the portal, not with another token.',
  tokenTooLong: (max: number) => `A token can last at most ${max} days.`,
} as const;
