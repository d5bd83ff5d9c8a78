import type { ComponentProps } from "react";

type CardElement = "div" | "section" | "article" | "aside";

export type CardProps<E extends CardElement> = ComponentProps<E> & {
  as?: E;
  /** md: a tile in a grid (rounded-2xl); lg: a page panel (rounded-3xl). */
  size?: "md" | "lg";
  /** A light shadow that lifts the card off the page. */
  raised?: boolean;
};

/** A bordered surface on the page's background; padding and layout come from className. */
export function Card<E extends CardElement = "div">({
  as,
  size = "md",
  raised = false,
  className = "",
  ...props
}: CardProps<E>) {
  // The element only changes the tag: its props are a div's for the type checker.
  const Element = (as ?? "div") as "div";
  return (
    <Element
      className={`${size === "lg" ? "rounded-3xl" : "rounded-2xl"} border border-line bg-card ${raised ? "shadow-sm" : ""} ${className}`}
      {...(props as ComponentProps<"div">)}
    />
  );
}
