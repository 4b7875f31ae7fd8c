import { useCallback, useMemo, useState } from 'react';

let nextRowId = 1;

export type EditorRow<T> = T & { id: number };

/**
 * The editable-list state shared by the settings forms (portal contacts, IP rules): rows with stable ids
 * for React keys, which fields the user has touched (errors show only once touched, spec 000 §5), and the
 * add / update / remove / reset operations. Validation and the saved baseline stay with each form.
 * The operations keep their identity across renders, so forms can use them in effect dependencies.
 */
export function useRowEditor<T extends Record<F, string>, F extends string>(blank: T) {
  const [rows, setRows] = useState<EditorRow<T>[]>([]);
  const [touched, setTouched] = useState<Set<string>>(() => new Set());

  const touch = useCallback(
    (id: number, field: F) =>
      setTouched((t) => (t.has(`${id}:${field}`) ? t : new Set(t).add(`${id}:${field}`))),
    [],
  );
  const clearTouched = useCallback(() => setTouched(new Set()), []);
  /** Replaces the rows (loaded or saved list, Cancel) and forgets what was touched. */
  const reset = useCallback((items: readonly T[]) => {
    setRows(items.map((item) => ({ ...item, id: nextRowId++ })));
    setTouched(new Set());
  }, []);
  const update = useCallback(
    (id: number, field: F, value: string) => {
      setRows((rs) => rs.map((r) => (r.id === id ? { ...r, [field]: value } : r)));
      touch(id, field);
    },
    [touch],
  );
  const remove = useCallback((id: number) => setRows((rs) => rs.filter((r) => r.id !== id)), []);
  const add = useCallback(() => setRows((rs) => [...rs, { ...blank, id: nextRowId++ }]), [blank]);

  return useMemo(
    () => ({
      rows,
      setRows,
      touch,
      isTouched: (id: number, field: F) => touched.has(`${id}:${field}`),
      clearTouched,
      reset,
      update,
      remove,
      add,
    }),
    [rows, touched, touch, clearTouched, reset, update, remove, add],
  );
}
