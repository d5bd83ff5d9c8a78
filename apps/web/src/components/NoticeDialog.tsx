import { Link } from "react-router";
import { useTranslation } from "@/i18n";
import { buttonClass } from "./ui/Button";
import { Modal } from "./ui/Modal";

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
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={message}
      closeLabel={t("common.close")}
      className="px-8 pt-10 pb-7 text-center"
    >
      <div className="mt-6 flex flex-col gap-2">
        {action && (
          <Link to={action.to} onClick={() => onOpenChange(false)} className={buttonClass()}>
            {action.label}
          </Link>
        )}
      </div>
    </Modal>
  );
}
