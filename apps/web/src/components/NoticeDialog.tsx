import { Link } from "react-router";
import { useTranslation } from "@/i18n";
import * as Dialog from "@radix-ui/react-dialog";
import { X } from "lucide-react";

export interface NoticeDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The SPEC's message, e.g. 'You must be logged in to perform this action!'. */
  message: string;
  /** Where the shopper can fix it, e.g. 'Log in/Sign up' → /login. */
  action?: { to: string; label: string };
}

/**
 * The SPEC's small modals (login needed, address needed): a message, one way forward and a close button.
 * Loaded lazily (default export) so the dialog code is never on a page's first paint.
 */
export default function NoticeDialog({ open, onOpenChange, message, action }: NoticeDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-950/50 backdrop-blur-sm" />
        <Dialog.Content
          aria-describedby={undefined}
          className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-sm -translate-x-1/2 -translate-y-1/2 rounded-2xl border border-line bg-card px-8 pt-10 pb-7 text-center shadow-2xl"
        >
          <Dialog.Title className="text-lg font-semibold text-ink">{message}</Dialog.Title>
          <div className="mt-6 flex flex-col gap-2">
            {action && (
              <Link
                to={action.to}
                onClick={() => onOpenChange(false)}
                className="rounded-xl bg-accent px-4 py-2.5 font-semibold text-on-accent hover:bg-accent-strong focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent"
              >
                {action.label}
              </Link>
            )}
          </div>
          <Dialog.Close
            aria-label={t("common.close")}
            className="absolute top-3 right-3 grid h-9 w-9 place-items-center rounded-full text-muted hover:bg-accent-soft hover:text-ink focus-visible:outline-2 focus-visible:outline-accent"
          >
            <X size={18} aria-hidden />
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
