import { Button, Checkbox, Popover, Stack } from '@mantine/core';
import type { GridApi } from 'ag-grid-community';
import { useState } from 'react';

interface ColumnChoice {
  colId: string;
  title: string;
  visible: boolean;
}

const choicesOf = (api: GridApi): ColumnChoice[] =>
  api.getColumns()?.map((c) => ({
    colId: c.getColId(),
    title: c.getColDef().headerName ?? c.getColId(),
    visible: c.isVisible(),
  })) ?? [];

/**
 * Spec 002 §2: column visibility. AG Grid Community has no columns tool panel, so a popover of checkboxes shows
 * and hides the grid's columns; the grid's columnVisible event saves the view. The last shown column stays.
 */
export function ColumnsMenu({ api, title }: { api: GridApi | null; title: string }) {
  const [choices, setChoices] = useState<ColumnChoice[]>([]);
  const shown = choices.filter((c) => c.visible).length;
  return (
    <Popover position="bottom-end" shadow="md" onOpen={() => api && setChoices(choicesOf(api))}>
      <Popover.Target>
        <Button variant="default" size="xs" disabled={!api} aria-label={`Columns of ${title}`}>
          Columns
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap={6} role="group" aria-label={`Shown columns of ${title}`}>
          {choices.map((c) => (
            <Checkbox
              key={c.colId}
              label={c.title}
              checked={c.visible}
              disabled={c.visible && shown === 1}
              onChange={(e) => {
                if (!api) return;
                api.setColumnsVisible([c.colId], e.currentTarget.checked);
                setChoices(choicesOf(api));
              }}
            />
          ))}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
