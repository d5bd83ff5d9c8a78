import type { ComponentProps } from "react";

const VARIANTS = {
  primary:
    "bg-accent font-semibold text-on-accent shadow-sm hover:bg-accent-strong focus-visible:outline-accent",
  secondary: "border border-line bg-card font-medium text-ink hover:bg-surface focus-visible:outline-accent",
  ghost: "font-medium text-accent-strong hover:bg-accent-soft focus-visible:outline-accent",
  danger: "border border-sale/40 font-semibold text-sale hover:bg-sale/10 focus-visible:outline-sale",
} as const;

// lg inherits the text size: forms and dialogs use it at 16 px, toolbars add text-sm.
const SIZES = {
  sm: "h-9 rounded-lg px-2 text-sm",
  md: "h-10 rounded-xl px-4 text-sm",
  lg: "h-11 rounded-xl px-4",
  xl: "h-12 rounded-xl px-6 text-base",
} as const;

export type ButtonVariant = keyof typeof VARIANTS;
export type ButtonSize = keyof typeof SIZES;

export interface ButtonStyle {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Layout only (width, margins): colours, heights and paddings come from variant and size. */
  className?: string;
}

/** The button look, for the links that act as buttons (a Link styled like one). */
export function buttonClass({ variant = "primary", size = "lg", className = "" }: ButtonStyle = {}): string {
  return `inline-flex items-center justify-center gap-2 transition focus-visible:outline-2 focus-visible:outline-offset-2 disabled:cursor-not-allowed disabled:opacity-60 ${VARIANTS[variant]} ${SIZES[size]} ${className}`;
}

export type ButtonProps = Omit<ComponentProps<"button">, "className"> & ButtonStyle;

/** The store's button: a type="button" unless told otherwise, so it never submits a form by accident. */
export function Button({ variant, size, className, type = "button", ...props }: ButtonProps) {
  return <button type={type} className={buttonClass({ variant, size, className })} {...props} />;
}
