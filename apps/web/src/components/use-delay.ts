import { startTransition, useEffect, useState } from "react";

/**
 * True once `ms` have passed since `start` became true. SPEC.md §2 times the home skeleton and the listing
 * grid from the moment the categories have loaded. The switch is a transition: the rows of cards it reveals
 * render in slices that leave the browser responsive.
 */
export function useElapsedSince(start: boolean, ms: number): boolean {
  const [elapsed, setElapsed] = useState(false);
  useEffect(() => {
    if (!start || elapsed) return;
    const timer = setTimeout(() => startTransition(() => setElapsed(true)), ms);
    return () => clearTimeout(timer);
  }, [start, ms, elapsed]);
  return elapsed;
}
