import { useId, useState } from "react";
import { ArrowDown, ArrowUp, Plus, X } from "lucide-react";
import { useTranslation } from "@/i18n";
import { Button } from "@/components/ui/Button";
import { IconButton } from "@/components/ui/IconButton";
import { useUploadImage } from "../upload";
import { Field } from "../Field";
import { Fieldset, inputClass } from "./ProductFormControls";

/** Images by URL or upload (several at once, each with its progress), reordered with arrows, removed with x. */
export function ImagePicker({
  images,
  update,
  error,
}: {
  images: string[];
  /** A change to the images as they are when it lands: uploads finish in any order. */
  update: (change: (images: string[]) => string[]) => void;
  error?: string;
}) {
  const { t } = useTranslation();
  const urlId = useId();
  const fileId = useId();
  const [url, setUrl] = useState("");
  const [uploads, setUploads] = useState<{ name: string; progress: number; error?: string }[]>([]);

  const addUrl = () => {
    const trimmed = url.trim();
    if (trimmed) update((current) => (current.includes(trimmed) ? current : [...current, trimmed]));
    setUrl("");
  };
  const uploadImage = useUploadImage();
  const upload = (files: FileList | null) => {
    for (const file of Array.from(files ?? [])) {
      setUploads((current) => [...current, { name: file.name, progress: 0 }]);
      const track = (change: Partial<{ progress: number; error: string }>) =>
        setUploads((current) =>
          current.map((item) => (item.name === file.name ? { ...item, ...change } : item)),
        );
      uploadImage
        .mutateAsync({ file, onProgress: (progress) => track({ progress }) })
        .then((uploaded) => {
          update((current) => [...current, uploaded]);
          setUploads((current) => current.filter((item) => item.name !== file.name));
        })
        .catch((caught: Error) => track({ error: caught.message }));
    }
  };
  const move = (index: number, by: -1 | 1) =>
    update((current) => {
      const next = [...current];
      [next[index], next[index + by]] = [next[index + by]!, next[index]!];
      return next;
    });

  return (
    <Fieldset legend={t("admin.form.images")} error={error}>
      <ol className="flex flex-col gap-2">
        {images.map((image, index) => (
          <li key={image} className="flex items-center gap-2 rounded-xl border border-line p-2">
            <img
              src={image}
              alt=""
              width={48}
              height={48}
              className="h-12 w-12 rounded-lg bg-accent-soft object-contain"
            />
            <span className="min-w-0 flex-1 truncate text-xs text-muted">{image}</span>
            <IconButton
              label={t("admin.form.moveUp")}
              icon={<ArrowUp size={16} aria-hidden />}
              size="sm"
              disabled={index === 0}
              onClick={() => move(index, -1)}
            />
            <IconButton
              label={t("admin.form.moveDown")}
              icon={<ArrowDown size={16} aria-hidden />}
              size="sm"
              disabled={index === images.length - 1}
              onClick={() => move(index, 1)}
            />
            <IconButton
              label={t("admin.form.removeImage")}
              icon={<X size={16} aria-hidden />}
              size="sm"
              onClick={() => update((current) => current.filter((_, i) => i !== index))}
            />
          </li>
        ))}
      </ol>
      {uploads.map((item) => (
        <div key={item.name} className="flex flex-col gap-1 text-xs text-muted">
          <label>
            {item.error ? t("admin.form.uploadFailed", { name: item.name, error: item.error }) : item.name}
            <progress value={item.progress} max={1} className="ml-2 align-middle" />
          </label>
        </div>
      ))}
      <div className="grid gap-2 sm:grid-cols-2">
        <Field small id={urlId} label={t("admin.form.imageUrl")}>
          <div className="flex gap-2">
            <input
              id={urlId}
              value={url}
              onChange={(event) => setUrl(event.target.value)}
              className={`${inputClass()} h-11`}
            />
            <Button variant="secondary" onClick={addUrl}>
              <Plus size={16} aria-hidden />
              {t("admin.form.add")}
            </Button>
          </div>
        </Field>
        <Field small id={fileId} label={t("admin.form.upload")}>
          <input
            id={fileId}
            type="file"
            accept="image/jpeg,image/png,image/webp,image/gif,image/avif"
            multiple
            onChange={(event) => {
              upload(event.target.files);
              event.target.value = "";
            }}
            className="w-full min-w-0 text-sm text-ink file:mr-3 file:rounded-lg file:border-0 file:bg-accent-soft file:px-3 file:py-2 file:text-accent-strong"
          />
        </Field>
      </div>
    </Fieldset>
  );
}
