import { useId, useState } from "react";
import { Plus, X } from "lucide-react";
import { useTranslation } from "@/i18n";
import { useCategories } from "@/api/catalog";
import { Button } from "@/components/ui/Button";
import { IconButton } from "@/components/ui/IconButton";
import { Field } from "../Field";
import { Fieldset, inputClass } from "./ProductFormControls";

/** docs/product-rules.md §1: a dropdown of existing categories not yet chosen, plus a free-text 'Add' box. */
export function CategoryPicker({
  chosen,
  onChange,
  error,
}: {
  chosen: string[];
  onChange: (names: string[]) => void;
  error?: string;
}) {
  const { t } = useTranslation();
  const selectId = useId();
  const textId = useId();
  const categories = useCategories();
  const [text, setText] = useState("");
  const has = (name: string) => chosen.some((item) => item.toLowerCase() === name.toLowerCase());
  const add = (name: string) => {
    const trimmed = name.trim();
    // docs/product-rules.md §9: a category chip is added only if the text is non-empty.
    if (trimmed && !has(trimmed)) onChange([...chosen, trimmed]);
  };
  return (
    <Fieldset legend={t("admin.form.categories")} error={error}>
      <Chips
        items={chosen}
        label={(name) => t("admin.form.removeCategory", { name })}
        onRemove={(index) => onChange(chosen.filter((_, i) => i !== index))}
      />
      <div className="grid gap-2 sm:grid-cols-2">
        <Field small id={selectId} label={t("admin.form.existingCategory")}>
          <select
            id={selectId}
            value=""
            onChange={(event) => add(event.target.value)}
            className="h-11 rounded-xl border border-line bg-surface px-3 text-sm text-ink"
          >
            <option value="">{t("admin.form.pickCategory")}</option>
            {(categories.data ?? [])
              .filter((category) => !has(category.name))
              .map((category) => (
                <option key={category.id} value={category.name}>
                  {category.name}
                </option>
              ))}
          </select>
        </Field>
        <Field small id={textId} label={t("admin.form.newCategory")}>
          <div className="flex gap-2">
            <input
              id={textId}
              value={text}
              onChange={(event) => setText(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === "Enter") {
                  event.preventDefault();
                  add(text);
                  setText("");
                }
              }}
              className={`${inputClass()} h-11`}
            />
            <Button
              variant="secondary"
              onClick={() => {
                add(text);
                setText("");
              }}
            >
              <Plus size={16} aria-hidden />
              {t("admin.form.add")}
            </Button>
          </div>
        </Field>
      </div>
    </Fieldset>
  );
}

function Chips({
  items,
  onRemove,
  label,
}: {
  items: string[];
  onRemove: (index: number) => void;
  label: (item: string) => string;
}) {
  return (
    <ul className="flex flex-wrap gap-2">
      {items.map((item, index) => (
        <li
          key={item}
          className="flex items-center gap-1 rounded-full bg-accent-soft py-1 pr-1 pl-3 text-sm text-accent-strong"
        >
          {item}
          <IconButton
            label={label(item)}
            icon={<X size={14} aria-hidden />}
            size="sm"
            onClick={() => onRemove(index)}
          />
        </li>
      ))}
    </ul>
  );
}
