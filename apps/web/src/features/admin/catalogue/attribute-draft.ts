import type { Attribute, AttributeInput } from "@voltio/domain/catalog-structure";
import type { AttributeType, BetterWhen } from "@voltio/domain/specs";

/** The attribute form's fields as typed (strings), before they become what POST/PUT /attributes take. */
export interface AttributeDraft {
  key: string;
  label: string;
  type: AttributeType;
  unit: string;
  values: string;
  filterable: boolean;
  betterWhen: BetterWhen | "";
  position: string;
}

export const emptyAttributeDraft = (position: number): AttributeDraft => ({
  key: "",
  label: "",
  type: "number",
  unit: "",
  values: "",
  filterable: true,
  betterWhen: "",
  position: String(position),
});

export const draftOfAttribute = (attribute: Attribute): AttributeDraft => ({
  key: attribute.key,
  label: attribute.label,
  type: attribute.type,
  unit: attribute.unit ?? "",
  values: attribute.enumValues.join(", "),
  filterable: attribute.filterable,
  betterWhen: attribute.betterWhen ?? "",
  position: String(attribute.position),
});

/** A comma list of values, trimmed, empty ones dropped. */
export const commaList = (text: string) =>
  text
    .split(",")
    .map((value) => value.trim())
    .filter(Boolean);

/**
 * What the server takes: values only for an enum and "better when" only for a number (the server refuses
 * them elsewhere, and a type changed in the form leaves them behind); a position that is no whole number is
 * sent as typed, for the server to name.
 */
export function attributeInputOf(categoryId: number, draft: AttributeDraft): AttributeInput {
  const position = draft.position.trim() === "" ? 0 : Number(draft.position);
  return {
    categoryId,
    key: draft.key.trim(),
    label: draft.label.trim(),
    type: draft.type,
    unit: draft.unit.trim() || null,
    enumValues: draft.type === "enum" ? commaList(draft.values) : [],
    filterable: draft.filterable,
    betterWhen: draft.type === "number" && draft.betterWhen !== "" ? draft.betterWhen : null,
    position: Number.isInteger(position) ? position : (draft.position as unknown as number),
  };
}
