import { conflictMessage, type Feature } from '@lp/contract/featureflags/schemas';
import { hasConflict } from '@lp/domain/feature-flags';
import { Alert, Button, Checkbox, Group, Modal, ScrollArea, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { showError } from '../../components/panels.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { saveFeatures } from './api.ts';

/**
 * Spec 000 §2.11: "Enabled Feature Flags", a checkbox per feature, Apply / Clear / Cancel. Apply is
 * disabled while two checked features conflict; after a save the page reloads so the routes and the
 * menu are evaluated again with the new set (§4.7).
 */
export function FeaturesDialog({
  opened,
  onClose,
  features,
  enabled,
}: {
  opened: boolean;
  onClose: () => void;
  features: Feature[];
  enabled: string[];
}) {
  const [checked, setChecked] = useState<string[]>(enabled);
  const [saving, setSaving] = useState(false);
  // Every opening starts from the set in force, not from an abandoned edit.
  useEffect(() => {
    if (opened) setChecked(enabled);
  }, [opened, enabled]);

  const conflict = hasConflict(features, checked);
  const apply = async () => {
    setSaving(true);
    try {
      await saveFeatures(checked);
      window.location.reload();
    } catch (e) {
      setSaving(false);
      showError(e instanceof ApiError ? e.err : 'Could not save the feature flags');
      onClose();
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Enabled Feature Flags"
      size={600}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack gap="sm">
        <ScrollArea.Autosize mah={420}>
          <Checkbox.Group value={checked} onChange={setChecked} aria-label="Feature flags">
            <Stack gap="xs">
              {features.map((f) => (
                <Checkbox
                  key={f.name}
                  value={f.name}
                  label={f.name}
                  description={f.description}
                  styles={{
                    label: { fontWeight: 600 },
                    description: { color: 'var(--mantine-color-gray-7)' },
                  }}
                />
              ))}
            </Stack>
          </Checkbox.Group>
        </ScrollArea.Autosize>
        {conflict ? (
          <Alert color="red" variant="light" role="alert">
            <Text size="sm">{conflictMessage}</Text>
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="default" onClick={() => setChecked([])}>
            Clear
          </Button>
          <Button onClick={() => void apply()} disabled={conflict} loading={saving}>
            Apply
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
