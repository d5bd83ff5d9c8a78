import { useCallback, useRef, useState } from "react";

/** A promise that says when it has settled, as React's `use` reads it: a settled one doesn't suspend. */
type Signal = Promise<void> & { status?: "fulfilled"; value?: undefined; settle(): void };

function signal(): Signal {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done)) as Signal;
  promise.settle = () => {
    promise.status = "fulfilled";
    resolve();
  };
  return promise;
}

/**
 * Settles once the element given to `ref` comes within `margin` px of the viewport: a section below the
 * fold (components/lazy-section.tsx `until`) loads its code when the shopper scrolls towards it, not with the
 * page. Settled from the start on the server, which renders every section. No state changes: a re-render
 * would reach server-rendered sections still waiting to hydrate.
 */
export function useNearViewport(margin = 600): [ref: (element: HTMLElement | null) => void, near: Signal] {
  const [near] = useState(() => {
    const near = signal();
    if (typeof window === "undefined") near.settle();
    return near;
  });
  const observer = useRef<IntersectionObserver | null>(null);
  const ref = useCallback(
    (element: HTMLElement | null) => {
      observer.current?.disconnect();
      if (!element || near.status === "fulfilled") return;
      observer.current = new IntersectionObserver(
        (entries) => {
          if (!entries.some((entry) => entry.isIntersecting)) return;
          near.settle();
          observer.current?.disconnect();
        },
        { rootMargin: `${margin}px 0px` },
      );
      observer.current.observe(element);
    },
    [near, margin],
  );
  return [ref, near];
}
