/**
 * The Add New Host dialog of /activations (spec 002 §2 "Add New Host dialog", §4 "Add-host flow", §5): a new host, or
 * in rehost mode the host the source's activations move to. The rules live in ../add-host-rules.ts.
 *
 * Accessible names (for browser tests; match exactly, since 'Host ID' is part of 'Host ID type'):
 * - the dialog: role dialog named by its title, 'Add New Host' (rehost mode: 'Rehost {name} ({identifier}) to a new host');
 * - one host: 'Host name', 'Host ID', 'Host ID type' (the type select's input); 'Port' (one for the host or triad);
 * - a triad: the same labels numbered by server: 'Host name 1', 'Host ID 1', 'Host ID type 1', ... 'Host ID type 3';
 * - switch 'Triad'; buttons 'Import from file', 'Cancel', 'Save';
 * - the hidden file input behind 'Import from file': data-testid 'host-file-input' (or wait for the file chooser);
 * - while uploading: role status 'Uploading Host Information...'; an upload refusal: role alert, data-testid
 *   'host-upload-error', the server's err text; a triad or server-check problem: role alert, data-testid 'host-problem'.
 */

import { licenseServersApi } from '@lp/contract/license-servers/api';
import type { LicenseServer } from '@lp/contract/license-servers/schemas';
import { DEFAULT_HOST_PORT } from '@lp/domain/host-ids';
import {
  Alert,
  Box,
  Button,
  FileButton,
  Group,
  Loader,
  LoadingOverlay,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useEffect, useMemo, useRef, useState } from 'react';
import { errorText } from '../../../lib/api-client.ts';
import { callMultipart } from '../../../lib/upload.ts';
import {
  type AddHostMode,
  checkHost,
  type HostRow,
  hostIdTypeOptions,
  initialRows,
  isOfferedType,
  type NewHost,
  type RowProblems,
  rowsForTriad,
  rowsFromUpload,
  visibleRows,
} from '../add-host-rules.ts';

export type { NewHost } from '../add-host-rules.ts';

export interface AddHostDialogProps {
  opened: boolean;
  mode: AddHostMode;
  customerNumber: string;
  /** The account's known hosts, for the server checks. */
  hosts: LicenseServer[];
  /** Rehost: the host being moved away from (shown in the title). */
  source?: LicenseServer;
  onCancel: () => void;
  /** Only called with a valid host. */
  onSave: (host: NewHost) => void;
}

/** Spec 002 §2 "Spinner text during upload". */
const UPLOADING_TEXT = 'Uploading Host Information...';

/** The rehost title is ours: the spec does not show it. */
function dialogTitle(mode: AddHostMode, source: LicenseServer | undefined) {
  return mode === 'rehost' && source
    ? `Rehost ${source.name} (${source.hostIdentifier}) to a new host`
    : 'Add New Host';
}

export function AddHostDialog(props: AddHostDialogProps): React.JSX.Element {
  const { opened, mode, source, onCancel } = props;
  // A new form each time the dialog opens (the page may keep it mounted between uses).
  const [session, setSession] = useState(0);
  const [wasOpened, setWasOpened] = useState(opened);
  if (opened !== wasOpened) {
    setWasOpened(opened);
    if (opened) setSession((n) => n + 1);
  }
  return (
    <Modal
      opened={opened}
      onClose={onCancel}
      title={dialogTitle(mode, source)}
      // Spec 002 §9: 1200 px for the rehost dialog; the new-host width is not shown.
      size={mode === 'rehost' ? 1200 : 'xl'}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <HostForm key={session} {...props} />
    </Modal>
  );
}

/** Which fields show their message: those typed in (or filled by an upload), so an empty form is not all red. */
type Shown = Record<string, boolean>;
const fieldKey = (index: number, field: 'name' | 'id') => `${index}.${field}`;

function HostForm({ mode, customerNumber, hosts, source, onCancel, onSave }: AddHostDialogProps) {
  const [rows, setRows] = useState<HostRow[]>(initialRows);
  const [triad, setTriad] = useState(false);
  // A rehost keeps the source's port unless the user types or imports another.
  const [port, setPort] = useState(String(source?.portNumber ?? DEFAULT_HOST_PORT));
  const [shown, setShown] = useState<Shown>({});
  const [uploading, setUploading] = useState(false);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const upload = useRef<AbortController | null>(null);
  const resetFile = useRef<() => void>(null);
  // A late upload answer must not fill a form the user has closed.
  useEffect(() => () => upload.current?.abort(), []);

  const check = useMemo(
    () => checkHost(rows, triad, mode, hosts, { port, source }),
    [rows, triad, mode, hosts, port, source],
  );

  const edit = (index: number, change: Partial<HostRow>) => {
    setRows((current) => current.map((row, i) => (i === index ? { ...row, ...change } : row)));
    const fields = (['name', 'id'] as const).filter((field) => field in change);
    if (fields.length)
      setShown((s) => ({ ...s, ...Object.fromEntries(fields.map((f) => [fieldKey(index, f), true])) }));
  };

  const toggleTriad = (on: boolean) => {
    if (on) setRows(rowsForTriad);
    setTriad(on);
  };

  const importFile = async (file: File | null) => {
    // Choosing the same file again must upload again.
    resetFile.current?.();
    if (!file) return;
    upload.current?.abort();
    const controller = new AbortController();
    upload.current = controller;
    setUploading(true);
    setUploadError(null);
    try {
      const answer = await callMultipart(
        licenseServersApi.upload,
        { customerNumber },
        { file },
        { signal: controller.signal },
      );
      const filled = rowsFromUpload(answer.data);
      setRows(filled.rows);
      setTriad(filled.triad);
      setPort(filled.port);
      // What the file filled is judged at once; a field it left empty (lmhostid output names no host) waits for
      // the user's typing like a new form, so no message shows before anything was typed.
      setShown(
        Object.fromEntries(
          visibleRows(filled.rows, filled.triad).flatMap((row, i) => [
            [fieldKey(i, 'name'), !!row.name.trim()],
            [fieldKey(i, 'id'), !!row.id.trim()],
          ]),
        ),
      );
    } catch (e) {
      if (!controller.signal.aborted) setUploadError(errorText(e));
    } finally {
      if (upload.current === controller) {
        upload.current = null;
        setUploading(false);
      }
    }
  };

  const cancel = () => {
    upload.current?.abort();
    onCancel();
  };

  const save = (event: React.FormEvent) => {
    event.preventDefault();
    if (check.value && !uploading) onSave(check.value);
  };

  return (
    // Mantine's error red (shade 6) is 3.3:1 on white, below the 4.5:1 AA asks of the typed text and messages.
    <form
      onSubmit={save}
      noValidate
      style={{ '--mantine-color-error': 'var(--mantine-color-red-9)' } as React.CSSProperties}
    >
      <Stack gap="sm">
        <Group justify="space-between">
          <Switch
            label="Triad"
            checked={triad}
            onChange={(event) => toggleTriad(event.currentTarget.checked)}
            disabled={uploading}
          />
          <FileButton
            onChange={importFile}
            resetRef={resetFile}
            disabled={uploading}
            inputProps={{ 'data-testid': 'host-file-input' } as React.ComponentProps<'input'>}
          >
            {(buttonProps) => (
              <Button {...buttonProps} variant="default" disabled={uploading}>
                Import from file
              </Button>
            )}
          </FileButton>
        </Group>
        {uploadError ? (
          <Alert color="red" variant="light" role="alert" data-testid="host-upload-error">
            {uploadError}
          </Alert>
        ) : null}
        <Box pos="relative">
          <LoadingOverlay
            visible={uploading}
            loaderProps={{
              children: (
                <Group gap="xs" role="status">
                  <Loader size="sm" />
                  <Text size="sm">{UPLOADING_TEXT}</Text>
                </Group>
              ),
            }}
          />
          <Stack gap="xs">
            {visibleRows(rows, triad).map((row, index) => (
              <HostRowFields
                // The rows are positions (server 1, 2, 3), never reordered.
                // biome-ignore lint/suspicious/noArrayIndexKey: see above
                key={index}
                row={row}
                suffix={triad ? ` ${index + 1}` : ''}
                problems={check.rows[index]}
                showName={!!shown[fieldKey(index, 'name')]}
                showId={!!shown[fieldKey(index, 'id')]}
                onChange={(change) => edit(index, change)}
              />
            ))}
            <TextInput
              label="Port"
              value={port}
              onChange={(event) => setPort(event.currentTarget.value)}
              error={check.port}
              inputMode="numeric"
              autoComplete="off"
              w={160}
            />
          </Stack>
        </Box>
        {check.host ? (
          <Alert color="red" variant="light" role="alert" data-testid="host-problem">
            {check.host}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={cancel}>
            Cancel
          </Button>
          <Button type="submit" disabled={!check.value || uploading}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

interface HostRowFieldsProps {
  row: HostRow;
  /** '' for a single host, ' 1' to ' 3' for a triad's servers (part of each label). */
  suffix: string;
  problems: RowProblems;
  showName: boolean;
  showId: boolean;
  onChange: (change: Partial<HostRow>) => void;
}

function HostRowFields({ row, suffix, problems, showName, showId, onChange }: HostRowFieldsProps) {
  const nameError = showName ? problems.name : null;
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm" verticalSpacing="xs">
      {/* Spec: a red border and a tooltip; the same text is also the input's error, readable without hovering. */}
      <Tooltip
        label={nameError}
        disabled={!nameError}
        events={{ hover: true, focus: true, touch: true }}
        multiline
        w={260}
        withinPortal
      >
        <TextInput
          label={`Host name${suffix}`}
          value={row.name}
          onChange={(event) => onChange({ name: event.currentTarget.value })}
          error={nameError}
          autoComplete="off"
          spellCheck={false}
        />
      </Tooltip>
      <TextInput
        label={`Host ID${suffix}`}
        value={row.id}
        onChange={(event) => onChange({ id: event.currentTarget.value })}
        error={showId ? problems.id : null}
        autoComplete="off"
        spellCheck={false}
      />
      <Select
        label={`Host ID type${suffix}`}
        data={hostIdTypeOptions}
        value={isOfferedType(row.type) ? row.type : null}
        onChange={(value) => value && onChange({ type: value })}
        allowDeselect={false}
        error={problems.type}
      />
    </SimpleGrid>
  );
}
