import { messages } from '@lp/contract/common/errors';
import type { ElasticDevice } from '@lp/contract/credentials/schemas';
import { pinActions, usernameActions, usernamesToText } from '@lp/domain/credentials';
import { Alert, Button, Group, Paper, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useRef, useState } from 'react';
import { confirmDialog } from '../../../components/confirm-dialog.tsx';
import { LeaveGuard } from '../../../components/leave-guard.tsx';
import { usePanels } from '../../../components/panels.tsx';
import { useGoToNoPermissions } from '../../../lib/no-permissions.ts';
import { saveTextFile } from '../../../lib/save-file.ts';
import { changePin, saveUsers } from '../api/credentials.ts';
import { credentialsFile } from '../export-file.ts';

/** Spec 001 §2.4, §5: texts shown verbatim. */
export const credentialTexts = {
  saving: 'Saving Elastic License Server information...',
  confirmPin: 'Are you sure you want to change the PIN for this Elastic License Server?',
  confirmUsers: 'Are you sure you want to change the allowed usernames for this Elastic License Server?',
  exportInvalidPin: 'PIN number is not valid. Please enter a 6 digits number and save it before exporting.',
  aliasEmpty: 'Alias should not be empty.',
  allowAll: 'Allowing all users with current PIN',
  blockOthers: 'Blocking all other users',
} as const;

const withServerId = (question: string, elasticServerId: string) => (
  <>
    {question}
    <br />
    <strong>{elasticServerId}</strong>
  </>
);

/** A field's rule message, announced as soon as the field breaks the rule. */
const RuleAlert = ({ testId, children }: { testId: string; children: React.ReactNode }) => (
  <Alert color="red" variant="light" role="alert" data-testid={testId}>
    {children}
  </Alert>
);

/** One titled section of the page; the heading names the section for assistive technology. */
const Section = ({ id, title, children }: { id: string; title: string; children: React.ReactNode }) => (
  <Paper withBorder p="md" component="section" aria-labelledby={id}>
    <Stack gap="sm">
      <Title order={2} size="h4" id={id}>
        {title}
      </Title>
      {children}
    </Stack>
  </Paper>
);

interface Props {
  customerNumber: string;
  server: ElasticDevice;
  initialPin: string;
  initialUsers: string[];
  viewOnly: boolean;
}

/** The PIN, export and allowed-usernames sections of /clscredentials, with the enable rules of spec 001 §4. */
export function CredentialsForm({ customerNumber, server, initialPin, initialUsers, viewOnly }: Props) {
  const goToNoPermissions = useGoToNoPermissions();
  const panels = usePanels();
  const [savedPin, setSavedPin] = useState(initialPin);
  const [pin, setPin] = useState(initialPin);
  const [savedUsers, setSavedUsers] = useState(initialUsers);
  const [usersText, setUsersText] = useState(() => usernamesToText(initialUsers));
  const [alias, setAlias] = useState(server.alias);
  const [saving, setSaving] = useState(false);
  // Two quick clicks must not send two saves: state updates are not visible to the second click yet.
  const busy = useRef(false);

  const pinState = pinActions(pin, savedPin, viewOnly);
  const userState = usernameActions(usersText, savedUsers, viewOnly);
  const aliasValid = alias.trim() !== '';

  /** Asks, then saves under the spinner; any failure goes to /nopermissions (spec 001 §6). */
  const save = async (question: string, write: () => Promise<unknown>, done: () => void) => {
    if (busy.current) return;
    if (!(await confirmDialog(withServerId(question, server.deviceId)))) return;
    busy.current = true;
    setSaving(true);
    panels.showSpinner(credentialTexts.saving);
    try {
      await write();
      done();
      setSaving(false);
    } catch (e) {
      // The guard is off while saving, so leaving for the notice page is not blocked.
      goToNoPermissions(e);
    } finally {
      busy.current = false;
      panels.hideSpinner();
    }
  };

  const changePinClicked = () =>
    save(
      credentialTexts.confirmPin,
      () => changePin(customerNumber, server.deviceId, pin),
      () => setSavedPin(pin),
    );

  const saveUsersClicked = () => {
    const users = userState.users;
    return save(
      credentialTexts.confirmUsers,
      () => saveUsers(customerNumber, server.deviceId, users),
      () => {
        setSavedUsers(users);
        setUsersText(usernamesToText(users));
      },
    );
  };

  const exportClicked = () => {
    const file = credentialsFile(server.deviceId, alias.trim(), savedPin);
    saveTextFile(file.text, file.name, 'application/json');
  };

  return (
    <Stack>
      <LeaveGuard when={(pinState.changed || userState.changed) && !saving} />
      <TextInput label="Server ID" value={server.deviceId} readOnly variant="filled" maw={420} />

      <Section id="pin-heading" title="PIN">
        <Text size="sm">Users of the elastic license server need this 6-digit PIN.</Text>
        <TextInput
          label="PIN"
          value={pin}
          onChange={(e) => setPin(e.currentTarget.value)}
          disabled={viewOnly || saving}
          inputMode="numeric"
          autoComplete="off"
          maxLength={20}
          maw={200}
          aria-invalid={!pinState.valid}
        />
        {pinState.valid ? null : <RuleAlert testId="pin-alert">{messages.invalidPin}</RuleAlert>}
        <Group>
          <Button variant="default" disabled={!pinState.cancel || saving} onClick={() => setPin(savedPin)}>
            Cancel
          </Button>
          <Button disabled={!pinState.change || saving} onClick={changePinClicked}>
            Change PIN
          </Button>
        </Group>
      </Section>

      <Section id="export-heading" title="Export">
        <Text size="sm">Export the server id, alias and PIN to a JSON file for configuring clients.</Text>
        <TextInput
          label="Alias"
          value={alias}
          onChange={(e) => setAlias(e.currentTarget.value)}
          maxLength={200}
          maw={420}
          aria-invalid={!aliasValid}
        />
        {aliasValid ? null : <RuleAlert testId="alias-alert">{credentialTexts.aliasEmpty}</RuleAlert>}
        {pinState.exportFile ? null : (
          <Alert color="yellow" variant="light" data-testid="export-alert">
            {credentialTexts.exportInvalidPin}
          </Alert>
        )}
        <Group>
          <Button disabled={!pinState.exportFile || !aliasValid || saving} onClick={exportClicked}>
            Export to JSON file
          </Button>
        </Group>
      </Section>

      <Section id="access-heading" title="Access restrictions">
        {userState.users.length === 0 ? (
          <Alert color="green" variant="light" data-testid="users-banner">
            {credentialTexts.allowAll}
          </Alert>
        ) : (
          <Alert color="red" variant="light" data-testid="users-banner">
            {credentialTexts.blockOthers}
          </Alert>
        )}
        <Text size="sm" id="users-help">
          One username per line, case insensitive, without spaces or non-ASCII characters. Leave the list
          empty to allow all users with the current PIN.
        </Text>
        <Textarea
          label="Allowed usernames"
          aria-describedby="users-help"
          value={usersText}
          onChange={(e) => setUsersText(e.currentTarget.value)}
          disabled={viewOnly || saving}
          autosize
          minRows={5}
          maxRows={15}
          maw={420}
          spellCheck={false}
          aria-invalid={!userState.valid}
        />
        {userState.valid ? null : <RuleAlert testId="users-alert">{messages.invalidUsernames}</RuleAlert>}
        <Group>
          <Button
            variant="default"
            disabled={!userState.cancel || saving}
            onClick={() => setUsersText(usernamesToText(savedUsers))}
          >
            Cancel
          </Button>
          <Button disabled={!userState.save || saving} onClick={saveUsersClicked}>
            Save
          </Button>
        </Group>
      </Section>
    </Stack>
  );
}
