import { csvInvites, type InviteRow, webDirectoryMessages } from '@lp/domain/web-directory';
import Papa from 'papaparse';

/**
 * The people of a CSV file's text (header `email,name[,groups]`), read with the CSV library the web app uses, then
 * checked by the directory's rules: every problem is named by its row, so a file is fixed in one go.
 */
export function csvCells(text: string): { invites: InviteRow[]; problems: string[] } {
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { delimiter: ',', skipEmptyLines: false });
  const broken = parsed.errors.map((e) =>
    webDirectoryMessages.row((e.row ?? 0) + 1, `${e.message.replace(/\.?$/, '.')}`),
  );
  if (broken.length) return { invites: [], problems: broken };
  return csvInvites(parsed.data);
}
