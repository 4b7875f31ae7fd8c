import type { NoticeChoicesBody, NoticeTypeName } from '@lp/contract/notices/schemas';
import { Alert, Button, Checkbox, Group, Modal, Stack, Switch, Text } from '@mantine/core';
import { useState } from 'react';

const TYPE_LABELS: Record<NoticeTypeName, string> = {
  'lease-ending': 'Leases ending',
  'maintenance-ending': 'Maintenance ending',
  'evaluation-ending': 'Evaluation licenses ending',
  'elastic-usage': 'Elastic usage',
  'fsa-usage': 'FSA contract usage',
  'elastic-run-out': 'Elastic run-out forecast',
  'fsa-run-out': 'FSA run-out forecast',
  'web-seats-inactive': 'Unused named web seats',
};
const TYPES = Object.keys(TYPE_LABELS) as NoticeTypeName[];

export interface ChoicesSave {
  choices: NoticeChoicesBody;
  /** Only for users who may switch types off for the account */
  disabledTypes?: NoticeTypeName[];
}

/**
 * "Choose notices" (issue 13 §2): the thresholds this user receives for the account, by e-mail and here, and for
 * the account's administrators the notice types switched off for everyone.
 */
export function NoticeChoicesDialog({
  opened,
  customerNumber,
  choices,
  disabledTypes,
  canChangeTypes,
  onClose,
  onSave,
}: {
  opened: boolean;
  customerNumber: string;
  choices: NoticeChoicesBody;
  disabledTypes: NoticeTypeName[];
  canChangeTypes: boolean;
  onClose: () => void;
  onSave: (save: ChoicesSave) => Promise<void>;
}) {
  const [expiry, setExpiry] = useState(choices.expiryDays.map(String));
  const [usage, setUsage] = useState(choices.usagePercents.map(String));
  const [runOut, setRunOut] = useState(choices.runOut);
  const [off, setOff] = useState<NoticeTypeName[]>(disabledTypes);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const save = async () => {
    setSaving(true);
    setError(null);
    try {
      await onSave({
        choices: {
          expiryDays: expiry.map(Number) as NoticeChoicesBody['expiryDays'],
          usagePercents: usage.map(Number) as NoticeChoicesBody['usagePercents'],
          runOut,
        },
        ...(canChangeTypes ? { disabledTypes: off } : {}),
      });
      onClose();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={`Notices for ${customerNumber}`}
      size={560}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack>
        <Checkbox.Group label="Ends within" value={expiry} onChange={setExpiry}>
          <Group mt={4}>
            <Checkbox value="90" label="90 days" />
            <Checkbox value="30" label="30 days" />
            <Checkbox value="7" label="7 days" />
          </Group>
        </Checkbox.Group>
        <Checkbox.Group label="Budget used" value={usage} onChange={setUsage}>
          <Group mt={4}>
            <Checkbox value="80" label="80%" />
            <Checkbox value="95" label="95%" />
          </Group>
        </Checkbox.Group>
        <Checkbox
          label="Budget forecast to run out before the term ends"
          checked={runOut}
          onChange={(e) => setRunOut(e.currentTarget.checked)}
        />
        {canChangeTypes ? (
          <Stack gap={6}>
            <Text size="sm" fw={500}>
              Notice types for this account (everyone)
            </Text>
            {TYPES.map((t) => (
              <Switch
                key={t}
                label={TYPE_LABELS[t]}
                checked={!off.includes(t)}
                onChange={(e) => {
                  const on = e.currentTarget.checked;
                  setOff((list) => (on ? list.filter((x) => x !== t) : [...list, t]));
                }}
              />
            ))}
          </Stack>
        ) : null}
        {error ? <Alert color="red">{error}</Alert> : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button onClick={() => void save()} loading={saving}>
            Save
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
