import { lazyDialog } from "./lazy-dialog";

/** Fetches the dialog code the first time a notice opens, not with the page. */
export const LazyNoticeDialog = lazyDialog(() => import("./NoticeDialog").then((module) => module.default));
