import type { ComponentProps, ReactNode } from "react";
import { focusRingClass } from "./focus-ring";

const VARIANTS = {
  /** Quiet, on a card or a dialog: a close button. */
  ghost: "text-muted hover:bg-accent-soft hover:text-ink",
  /** The header's controls: ink that turns accent on hover. */
  toolbar: "text-ink hover:bg-accent-soft hover:text-accent-strong",
  /** Outlined, for form rows and form rows; aria-pressed shows as selected. */
  outline:
    "border border-line text-ink hover:bg-accent-soft hover:text-accent-strong disabled:hover:bg-transparent disabled:hover:text-ink aria-pressed:border-accent aria-pressed:bg-accent-soft aria-pressed:text-accent-strong",
  /** Raised over content: carousel arrows. */
  floating: "border border-line bg-card text-ink shadow-sm hover:border-accent hover:text-accent-strong",
} as const;

const SIZES = {
  sm: "h-9 w-9",
  md: "h-10 w-10",
  lg: "h-11 w-11",
  /** The header's size: narrower on phones (a signed-in row holds six controls), lg from 640 px. */
  toolbar: "h-10 w-9 sm:h-11 sm:w-11",
} as const;

export type IconButtonProps = Omit<ComponentProps<"button">, "aria-label" | "children" | "className"> & {
  /** The accessible name, also shown as a tooltip: an icon alone tells a screen reader nothing. */
  label: string;
  icon: ReactNode;
  variant?: keyof typeof VARIANTS;
  size?: keyof typeof SIZES;
  shape?: "round" | "square";
  /** Layout only (position, margins). */
  className?: string;
};

/** A button that shows only an icon; its name comes from `label`. */
export function IconButton({
  label,
  icon,
  variant = "ghost",
  size = "md",
  shape = "round",
  className = "",
  type = "button",
  ...props
}: IconButtonProps) {
  return (
    <button
      type={type}
      aria-label={label}
      title={label}
      className={`grid shrink-0 place-items-center transition ${focusRingClass} disabled:cursor-not-allowed disabled:opacity-40 ${shape === "round" ? "rounded-full" : "rounded-xl"} ${VARIANTS[variant]} ${SIZES[size]} ${className}`}
      {...props}
    >
      {icon}
    </button>
  );
}
