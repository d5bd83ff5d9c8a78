import { lazyDialog } from "./lazy-dialog";

/** ConfirmDialog, fetched when it first opens: pages that merely offer a confirmation don't carry it. */
export const LazyConfirmDialog = lazyDialog(() =>
  import("./ConfirmDialog").then((module) => module.ConfirmDialog),
);
