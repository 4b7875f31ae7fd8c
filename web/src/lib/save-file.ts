/** Hands a blob made or fetched in the browser to the user as a download with this file name. */
export function saveFile(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked on the next task: the click has started the download by then.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Text as a UTF-8 download (CSV, JSON). */
export const saveTextFile = (text: string, fileName: string, type: string) =>
  saveFile(new Blob([text], { type: `${type};charset=utf-8` }), fileName);
