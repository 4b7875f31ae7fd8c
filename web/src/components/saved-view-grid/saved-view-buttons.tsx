import { Button } from '@mantine/core';
import type { useSavedView } from './use-saved-view.ts';

export interface SavedViewButtonsProps {
  view: Pick<ReturnType<typeof useSavedView>, 'buttons' | 'clearFilters' | 'resetView'>;
  /** Also clears the table's own filter state (e.g. the date range). */
  onClearFilters?: () => void;
  /** Also resets the table's own state (e.g. the date range). */
  onResetView?: () => void;
}

/** The Clear filters / Reset view buttons of a saved view, enabled by its rules (spec 000 §4.4). */
export function SavedViewButtons({ view, onClearFilters, onResetView }: SavedViewButtonsProps) {
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
        Clear filters
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
        Reset view
      </Button>
    </>
  );
}
