import { lazy, memo, Suspense, use, type ComponentType, type ReactNode } from "react";

type Loaded<P> = { default: ComponentType<P> };

/**
 * `until`: the section's code is asked for once this settles; until then the server's HTML of the section
 * stays as it is (or nothing shows, on a page the browser draws). Below the fold, a page passes a signal of
 * the shopper coming near (components/use-near-viewport.ts), so a first visit doesn't download it. A promise
 * rather than a flag: a server-rendered boundary still waiting to hydrate can't take new props (React would
 * wait for it to hydrate first), but it retries when what it waits on settles.
 */
type SectionProps<P> = P & { until?: PromiseLike<void> };

export type LazySection<P> = ComponentType<SectionProps<P>>;

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
  function LazySection({ until, ...props }: SectionProps<P>) {
    const section = <Section {...(props as P)} />;
    return <Suspense fallback={null}>{until ? <Until signal={until}>{section}</Until> : section}</Suspense>;
  }
  // A server-rendered boundary that receives new props before it has hydrated is drawn again from scratch
  // (its HTML dropped, then redrawn: a flash and a shift): the page re-rendering must not reach it.
  return memo(LazySection);
}

/** Suspends until `signal` settles: React keeps the boundary's server HTML, or its fallback, meanwhile. */
function Until({ signal, children }: { signal: PromiseLike<void>; children: ReactNode }) {
  use(signal);
  return children;
}

/** Loads the code of every section defined so far: the server's pages are all imported by then. */
export async function loadLazySections(): Promise<void> {
  await Promise.all(loaders.map((loadOnce) => loadOnce()));
}
