import { startTransition, useEffect, useState } from 'react';

/**
 * How many of a page's parts to mount: 1 at first, then one more per task until all `parts` are in. A page whose
 * data brings several grids (and a chart) would otherwise build them all in one long task, blocking the page for
 * hundreds of ms (issue 21, decision 053); one part per task keeps each task short. Parts mount top to bottom, so
 * nothing already shown moves.
 */
export function useStagedMount(parts: number): number {
  const [mounted, setMounted] = useState(1);
  useEffect(() => {
    if (mounted >= parts) return;
    // A timer, not a microtask: the next part renders in a task of its own, after the browser could paint; as a
    // transition, so React renders it in slices and only its commit is one task.
    const timer = setTimeout(() => startTransition(() => setMounted((m) => m + 1)), 0);
    return () => clearTimeout(timer);
  }, [mounted, parts]);
  return mounted;
}
