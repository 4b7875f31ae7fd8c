import { type Alert, type AlertInput, alertCategoryValues } from '@lp/contract/alerts/schemas';
import { categoryLabel } from '@lp/domain/alerts';
import { Button, Group, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';

/** Form state as typed; dates are 'YYYY-MM-DDTHH:mm' in UTC (the portal shows every date in UTC). */
export interface AlertFormValues {
  category: string;
  services: string;
  description: string;
  date: string;
  expires: string;
  links: string;
}

export const emptyForm: AlertFormValues = {
  category: 'WARNING',
  services: '',
  description: '',
  date: '',
  expires: '',
  links: '',
};

const toLocalInput = (iso: string | null) => (iso ? iso.slice(0, 16) : '');

export function formFromAlert(a: Alert): AlertFormValues {
  return {
    category: a.category,
    services: a.service.join(', '),
    description: a.description,
    date: toLocalInput(a.date),
    expires: toLocalInput(a.expires),
    links: Object.entries(a.links)
      .map(([name, url]) => `${name} = ${url}`)
      .join('\n'),
  };
}

/** Builds the request body; the server validates it (zod) and answers 400 with the first problem. */
export function inputFromForm(v: AlertFormValues): AlertInput {
  const links: Record<string, string> = {};
  for (const line of v.links.split('\n')) {
    const at = line.indexOf('=');
    if (at < 0) continue;
    const name = line.slice(0, at).trim();
    const url = line.slice(at + 1).trim();
    if (name && url) links[name] = url;
  }
  return {
    category: v.category as AlertInput['category'],
    service: v.services
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    description: v.description,
    date: v.date ? `${v.date}:00Z` : undefined,
    expires: v.expires ? `${v.expires}:00Z` : null,
    links,
  };
}

export function AlertForm({
  initial,
  submitLabel,
  busy,
  onSubmit,
  onCancel,
}: {
  initial: AlertFormValues;
  submitLabel: string;
  busy: boolean;
  onSubmit: (values: AlertFormValues) => void;
  onCancel?: () => void;
}) {
  const [values, setValues] = useState(initial);
  const set = (key: keyof AlertFormValues) => (value: string) => setValues((v) => ({ ...v, [key]: value }));
  const incomplete = !values.services.trim() || !values.description.trim();
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit(values);
      }}
    >
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select
            label="Category"
            data={alertCategoryValues.map((c) => ({ value: c, label: `${c} (${categoryLabel(c)})` }))}
            value={values.category}
            onChange={(v) => set('category')(v ?? 'WARNING')}
            allowDeselect={false}
          />
          <TextInput
            label="Affected services (comma-separated)"
            value={values.services}
            onChange={(e) => set('services')(e.currentTarget.value)}
            required
          />
          <TextInput
            label="Start (UTC; empty = now)"
            type="datetime-local"
            value={values.date}
            onChange={(e) => set('date')(e.currentTarget.value)}
          />
          <TextInput
            label="Expected end (UTC; optional)"
            type="datetime-local"
            value={values.expires}
            onChange={(e) => set('expires')(e.currentTarget.value)}
          />
        </SimpleGrid>
        <Textarea
          label="Description"
          value={values.description}
          onChange={(e) => set('description')(e.currentTarget.value)}
          maxLength={2000}
          autosize
          minRows={2}
          required
        />
        <Textarea
          label="Links (one per line: Name = https://...)"
          value={values.links}
          onChange={(e) => set('links')(e.currentTarget.value)}
          autosize
          minRows={1}
        />
        <Group>
          <Button type="submit" loading={busy} disabled={incomplete}>
            {submitLabel}
          </Button>
          {onCancel ? (
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
          ) : null}
        </Group>
      </Stack>
    </form>
  );
}
