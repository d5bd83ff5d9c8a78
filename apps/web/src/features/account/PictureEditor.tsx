import { useRef, useState, type ChangeEvent } from "react";
import { useTranslation } from "@/i18n";
import { Camera, Check, LoaderCircle, X } from "lucide-react";
import type { User } from "@voltio/domain/account";
import { ApiError } from "@/api/client";
import { useUpdateUser } from "@/api/session-mutations";
import { Avatar } from "@/components/Avatar";
import { Button } from "@/components/ui/Button";
import { Card } from "@/components/ui/Card";
import { showToast } from "@/components/ui/toast";
import { useUploadPicture } from "./api";

const ACCEPT = "image/jpeg,image/png,image/webp,image/gif,image/avif";

/**
 * The big picture and full name. Changing the picture (docs/product-rules.md §8): pick a file, it is uploaded, then
 * 'Confirm image' saves it on the profile.
 */
export function PictureEditor({ user }: { user: User }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [pending, setPending] = useState<string | null>(null);
  const [busy, setBusy] = useState<"upload" | "save" | null>(null);
  const upload = useUploadPicture();
  const updateUser = useUpdateUser();

  const pick = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    setBusy("upload");
    try {
      const { secure_url } = await upload.mutateAsync(file);
      setPending(secure_url);
    } catch (error) {
      const tooBig = error instanceof ApiError && error.status === 413;
      showToast(tooBig ? t("profile.pictureTooBig") : t("profile.pictureRefused"), "error");
    } finally {
      setBusy(null);
    }
  };

  const confirm = async () => {
    if (!pending) return;
    setBusy("save");
    try {
      await updateUser.mutateAsync({ profilePicture: pending });
      setPending(null);
      showToast(t("profile.updated"));
    } catch {
      showToast(t("auth.failed"), "error");
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card
      as="section"
      size="lg"
      raised
      aria-labelledby="profile-name"
      className="flex flex-col items-center p-6 text-center"
    >
      <div className="relative">
        <Avatar user={user} size={144} src={pending ?? undefined} />
        {busy === "upload" && (
          <span className="absolute inset-0 grid place-items-center rounded-full bg-slate-950/40 text-white">
            <LoaderCircle size={32} className="animate-spin" aria-label={t("profile.uploading")} />
          </span>
        )}
      </div>
      <h2 id="profile-name" className="mt-4 text-2xl font-bold tracking-tight break-words text-ink">
        {user.firstName} {user.lastName}
      </h2>
      <p className="mt-1 text-sm break-all text-muted">{user.email}</p>
      {user.googleUser && (
        <p className="mt-2 rounded-full bg-accent-soft px-3 py-1 text-xs font-medium text-accent-strong">
          {t("profile.googleAccount")}
        </p>
      )}
      <input
        ref={input}
        type="file"
        accept={ACCEPT}
        className="sr-only"
        tabIndex={-1}
        aria-hidden
        onChange={(event) => void pick(event)}
      />
      {pending ? (
        <div className="mt-5 flex flex-wrap justify-center gap-2">
          <Button size="md" onClick={() => void confirm()} disabled={busy !== null}>
            <Check size={18} aria-hidden />
            {t("profile.confirmImage")}
          </Button>
          <Button variant="secondary" size="md" onClick={() => setPending(null)} disabled={busy !== null}>
            <X size={18} aria-hidden />
            {t("confirm.cancel")}
          </Button>
        </div>
      ) : (
        <Button
          variant="secondary"
          size="md"
          onClick={() => input.current?.click()}
          disabled={busy !== null}
          className="mt-5"
        >
          <Camera size={18} aria-hidden />
          {t("profile.changePicture")}
        </Button>
      )}
    </Card>
  );
}
