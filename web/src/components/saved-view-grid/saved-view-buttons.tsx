import { Button } from '@mantine/core';
import type { useSavedView } from './use-saved-view.ts';

export interface SavedViewButtonsProps {
  view: Pick<ReturnType<typeof useSavedView>, 'buttons' | 'clearFilters' | 'resetView'>;
  /** Also clears the table's own filter state (e.g. the date range). */
  onClearFilters?: () => void;
  /** Also resets the table's own state (e.g. the date range). */
  onResetView?: () => void;
  /** The buttons' names where a spec writes them otherwise (spec 001: 'Clear Filters' / 'Reset View'). */
  labels?: { clearFilters: string; resetView: string };
}

const defaultLabels = { clearFilters: 'Clear filters', resetView: 'Reset view' };

/** The Clear filters / Reset view buttons of a saved view, enabled by its rules (spec 000 §4.4). */
export function SavedViewButtons({
  view,
  onClearFilters,
  onResetView,
  labels = defaultLabels,
}: SavedViewButtonsProps) {
  return (
    <>
      <Button
        variant="default"
        size="xs"
        disabled={!view.buttons.clearFilters}
        onClick={() => {
          view.clearFilters();
          onClearFilters?.();
        }}
      >
        {labels.clearFilters}
      </Button>
      <Button
        variant="default"
        size="xs"
        disabled={!view.buttons.resetView}
        onClick={() => {
          void view.resetView();
          onResetView?.();
        }}
      >
        {labels.resetView}
      </Button>
    </>
  );
}
