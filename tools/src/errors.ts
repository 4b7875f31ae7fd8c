/** Bad command-line arguments: usage is printed, exit code 2. */
export class UsageError extends Error {}
/** The command ran but could not do its job (unknown user, database in use...): message only, exit code 1. */
export class CommandError extends Error {}
