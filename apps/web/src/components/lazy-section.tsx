import { lazy, Suspense, type ComponentType } from "react";

type Loaded<P> = { default: ComponentType<P> };

export type LazySection<P> = ComponentType<P> & {
  /** Starts fetching the code ahead of the first render. A failed fetch is tried again by the render. */
  preload(): Promise<void>;
};

/** Every section's loader, for the server to load them all before its first render. */
const loaders: (() => Promise<void>)[] = [];

/**
 * A part of a server-rendered page (below the fold, or shown only sometimes) whose code is a chunk of its own,
 * fetched after the page's (ADR 0006): the page's first script is lighter and hydrates sooner. In the
 * browser, React keeps the server's HTML of a Suspense boundary until the chunk has arrived, then hydrates
 * it: nothing flashes or moves. So a section must hydrate from what the server rendered, whenever its code
 * comes (the session, for one, reads as a guest's while hydrating: api/session.ts).
 * The server must render the real content, never the fallback (renderToString sends the fallback when a lazy
 * component suspends): it awaits `loadLazySections()` before rendering, and a lazy whose code is loaded
 * resolves synchronously (React reads a thenable that calls back at once without suspending). On a page the
 * browser draws itself, the section renders nothing until its code has arrived.
 */
export function lazySection<P extends object>(load: () => Promise<ComponentType<P>>): LazySection<P> {
  let loaded: Loaded<P> | undefined;
  let loading: Promise<void> | undefined;
  const loadOnce = () =>
    (loading ??= load().then(
      (component) => void (loaded = { default: component }),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  loaders.push(loadOnce);
  const Section = lazy(() =>
    loaded
      ? // Not a Promise, whose callbacks always run later: this one calls back at once.
        ({ then: (resolve: (value: Loaded<P>) => void) => resolve(loaded!) } as unknown as Promise<Loaded<P>>)
      : loadOnce().then(() => loaded!),
  );
  function LazySection(props: P) {
    return (
      <Suspense fallback={null}>
        <Section {...props} />
      </Suspense>
    );
  }
  return Object.assign(LazySection, { preload: () => loadOnce().catch(() => {}) });
}

/** Loads the code of every section defined so far: the server's pages are all imported by then. */
export async function loadLazySections(): Promise<void> {
  await Promise.all(loaders.map((loadOnce) => loadOnce()));
}
