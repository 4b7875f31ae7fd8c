/** Spec 001 §3, §7: the credentials file {clsid, Alias, PIN}, produced in the browser and named with the server id. */
export function credentialsFile(elasticServerId: string, alias: string, pin: string) {
  // Anything beyond letters, digits, dot, dash and underscore becomes "_": server ids are normally plain anyway.
  const safeId = elasticServerId.replace(/[^A-Za-z0-9._-]/g, '_');
  return {
    name: `${safeId}.json`,
    text: `${JSON.stringify({ clsid: elasticServerId, Alias: alias, PIN: pin }, null, 2)}\n`,
  };
}
