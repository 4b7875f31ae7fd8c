/**
 * Imported first by the server and the CLI (and built as a module of its own, scripts/build-server.mjs, so it runs
 * before any npm package loads): on an older Node.js the product would start and fail later in odd ways (Debian 12
 * ships Node 18), so it stops at once and says what to install (docs/operations.md §2).
 */
export const REQUIRED_NODE_MAJOR = 24;

/** The refusal for a Node.js version string such as '20.20.2', or null when it is new enough. */
export function nodeVersionProblem(version: string): string | null {
  const major = Number(version.replace(/^v/, '').split('.')[0]);
  return major >= REQUIRED_NODE_MAJOR
    ? null
    : `Node.js ${REQUIRED_NODE_MAJOR} or newer is required; this is Node.js ${version}. Install Node.js ${REQUIRED_NODE_MAJOR} (docs/operations.md, section 2) and start again.`;
}

const problem = nodeVersionProblem(process.versions.node);
if (problem) {
  console.error(problem);
  // 2: a setting to fix, not a crash to restart (the systemd unit does not restart on 2).
  process.exit(2);
}
