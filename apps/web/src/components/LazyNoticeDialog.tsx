import { lazy, Suspense } from "react";
import type { NoticeDialogProps } from "./NoticeDialog";

const NoticeDialog = lazy(() => import("./NoticeDialog"));

/** Fetches the dialog code the first time a notice opens, not with the page. */
export function LazyNoticeDialog(props: NoticeDialogProps) {
  if (!props.open) return null;
  return (
    <Suspense fallback={null}>
      <NoticeDialog {...props} />
    </Suspense>
  );
}
