import { FileInput, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useImportUsersCsv, useInviteUsers } from '../api/web-directory.ts';
import { PreviewDialog } from './preview-dialog.tsx';

/** The addresses of the invite box: one or several, separated by new lines, commas, semicolons or spaces. */
export const emailsOf = (text: string) => text.split(/[\s,;]+/).filter(Boolean);

/** Invite one or several people by e-mail; the server checks the addresses and previews the invitation. */
export function InviteDialog({ customerNumber, onClose }: { customerNumber: string; onClose: () => void }) {
  const invite = useInviteUsers(customerNumber);
  const [text, setText] = useState('');
  const emails = emailsOf(text);
  return (
    <PreviewDialog
      title="Invite users"
      inputKey={emails.join('\n')}
      ready={emails.length > 0}
      run={(preview) => invite.mutateAsync({ users: emails.map((email) => ({ email })), preview })}
      onClose={onClose}
    >
      <Textarea
        label="E-mail addresses"
        description="One or several, separated by new lines, commas or spaces."
        styles={{ description: { color: 'var(--mantine-color-gray-7)' } }}
        autosize
        minRows={3}
        maxRows={10}
        data-autofocus
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
      />
    </PreviewDialog>
  );
}

/** Import a CSV file (header email,name[,groups]); the server previews the whole file before anything is saved. */
export function ImportDialog({ customerNumber, onClose }: { customerNumber: string; onClose: () => void }) {
  const importCsv = useImportUsersCsv(customerNumber);
  const [file, setFile] = useState<{ name: string; csv: string } | null>(null);
  return (
    <PreviewDialog
      title="Import users from CSV"
      inputKey={file ? `${file.name}\n${file.csv}` : ''}
      ready={file !== null}
      run={(preview) => importCsv.mutateAsync({ csv: file?.csv ?? '', preview })}
      onClose={onClose}
    >
      <Text size="sm">
        The first line is the header <code>email,name</code> or <code>email,name,groups</code> (groups
        separated by semicolons; groups that do not exist are created).
      </Text>
      <FileInput
        label="CSV file"
        accept=".csv,text/csv"
        clearable
        placeholder="Choose a file"
        onChange={(chosen) => {
          if (!chosen) return setFile(null);
          void chosen.text().then((csv) => setFile({ name: chosen.name, csv }));
        }}
      />
    </PreviewDialog>
  );
}
