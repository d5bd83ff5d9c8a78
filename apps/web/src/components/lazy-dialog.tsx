import { lazy, Suspense, useState, type ComponentType } from "react";

/**
 * A dialog whose code (Radix and the Modal, ~13 KB gzipped) is fetched the first time it opens, not with
 * the page that offers it (ADR 0006). Until then it renders nothing, on the server too. Once opened it stays
 * mounted, so closing it is the dialog's own close: focus goes back to the control that opened it.
 */
export function lazyDialog<P extends { open: boolean }>(
  load: () => Promise<ComponentType<P>>,
): ComponentType<P> {
  const Dialog = lazy(async () => ({ default: await load() }));
  return function LazyDialog(props: P) {
    const [opened, setOpened] = useState(props.open);
    if (props.open && !opened) setOpened(true);
    if (!opened) return null;
    return (
      <Suspense fallback={null}>
        <Dialog {...props} />
      </Suspense>
    );
  };
}
