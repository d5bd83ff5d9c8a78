import type { ReactNode } from "react";
import * as Dialog from "@radix-ui/react-dialog";
import { useTranslation } from "@/i18n";
import { Button, buttonClass } from "./ui/Button";
import { Modal } from "./ui/Modal";

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
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      role="alertdialog"
      title={title}
      description={description}
      className="p-6 text-center"
    >
      <div className="mt-6 flex justify-center gap-3">
        <Dialog.Close className={buttonClass({ variant: "secondary", className: "min-w-24" })}>
          {t("confirm.cancel")}
        </Dialog.Close>
        <Button onClick={onAccept} disabled={busy} className="min-w-24">
          {t("confirm.accept")}
        </Button>
      </div>
    </Modal>
  );
}
