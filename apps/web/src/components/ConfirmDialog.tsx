import type { ReactNode } from "react";
import { useTranslation } from "@/i18n";
import * as Dialog from "@radix-ui/react-dialog";

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The question, e.g. the SPEC's 'Logout ?' or 'Are you sure ?'. */
  title: string;
  description?: ReactNode;
  onAccept: () => void;
  busy?: boolean;
}

/** The SPEC's Accept / Cancel confirmations. Escape and the overlay cancel; focus returns to the trigger. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  onAccept,
  busy,
}: ConfirmDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-950/50 backdrop-blur-sm" />
        <Dialog.Content
          role="alertdialog"
          {...(description ? {} : { "aria-describedby": undefined })}
          className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-sm -translate-x-1/2 -translate-y-1/2 rounded-2xl border border-line bg-card p-6 text-center shadow-2xl"
        >
          <Dialog.Title className="text-lg font-semibold text-ink">{title}</Dialog.Title>
          {description && (
            <Dialog.Description className="mt-2 text-sm text-muted">{description}</Dialog.Description>
          )}
          <div className="mt-6 flex justify-center gap-3">
            <Dialog.Close className="min-w-24 rounded-xl border border-line px-4 py-2.5 font-medium text-ink hover:bg-surface focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent">
              {t("confirm.cancel")}
            </Dialog.Close>
            <button
              type="button"
              onClick={onAccept}
              disabled={busy}
              className="min-w-24 rounded-xl bg-accent px-4 py-2.5 font-semibold text-on-accent hover:bg-accent-strong focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent disabled:opacity-60"
            >
              {t("confirm.accept")}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
