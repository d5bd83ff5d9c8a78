import { useRef, type ReactNode } from "react";
import * as Dialog from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import { IconButton } from "./IconButton";

export interface ModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Names the dialog for screen readers (aria-labelledby). */
  title: ReactNode;
  description?: ReactNode;
  /** alertdialog: a question that needs an answer (Accept / Cancel). */
  role?: "dialog" | "alertdialog";
  /** The close (X) button's name; without it the dialog closes by Escape, the overlay or its own buttons. */
  closeLabel?: string;
  /**
   * centered: a short message, title on top and centred (close button in the corner).
   * panel: a header bar (start slot, title, close) over a body that scrolls.
   */
  layout?: "centered" | "panel";
  /** panel only: what comes before the title in the header bar, e.g. a 'Return' button. */
  headerStart?: ReactNode;
  size?: "sm" | "lg";
  /** The body's padding and alignment. */
  className?: string;
  children?: ReactNode;
}

/**
 * The store's dialog, on Radix: focus moves in and stays in, Escape and the overlay close it, the title
 * labels it, and focus returns to whatever opened it. Radix is ~10 KB gzipped: import Modal only from code
 * that is itself loaded lazily (see LazyNoticeDialog), never from a page's first paint (ADR 0006).
 */
export function Modal({
  open,
  onOpenChange,
  title,
  description,
  role = "dialog",
  closeLabel,
  layout = "centered",
  headerStart,
  size = "sm",
  className = "",
  children,
}: ModalProps) {
  // Radix returns focus only to a Dialog.Trigger; our dialogs open from state, so remember the opener.
  const opener = useRef<HTMLElement | null>(null);
  const close = closeLabel && (
    <Dialog.Close asChild>
      <IconButton
        label={closeLabel}
        icon={<X size={18} aria-hidden />}
        size="sm"
        className={layout === "centered" ? "absolute top-3 right-3" : ""}
      />
    </Dialog.Close>
  );
  const descriptionNode = description && (
    <Dialog.Description className="mt-2 text-sm text-muted">{description}</Dialog.Description>
  );
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-950/50 backdrop-blur-sm" />
        <Dialog.Content
          role={role}
          onOpenAutoFocus={() => {
            // Runs before focus moves in: the active element is still what opened the dialog.
            opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
          }}
          onCloseAutoFocus={(event) => {
            if (!opener.current?.isConnected) return;
            event.preventDefault();
            opener.current.focus();
          }}
          // Radix warns when no description is wired; a dialog without one says so.
          {...(description ? {} : { "aria-describedby": undefined })}
          className={`fixed top-1/2 left-1/2 z-50 -translate-x-1/2 -translate-y-1/2 border border-line bg-card shadow-2xl ${
            size === "lg"
              ? "w-[calc(100%-1.5rem)] max-w-lg rounded-3xl"
              : "w-[calc(100%-2rem)] max-w-sm rounded-2xl"
          } ${layout === "panel" ? "flex max-h-[calc(100dvh-2rem)] flex-col" : className}`}
        >
          {layout === "panel" ? (
            <>
              <div className="flex items-center gap-3 border-b border-line px-5 py-4">
                {headerStart}
                <Dialog.Title className="flex-1 text-lg font-semibold text-ink">{title}</Dialog.Title>
                {close}
              </div>
              {descriptionNode}
              <div className={`overflow-y-auto ${className}`}>{children}</div>
            </>
          ) : (
            <>
              <Dialog.Title className="text-lg font-semibold text-ink">{title}</Dialog.Title>
              {descriptionNode}
              {children}
              {close}
            </>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
