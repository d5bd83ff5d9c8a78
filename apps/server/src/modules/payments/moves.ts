import { movesBetween, type Mover, type StatusOf } from "@voltio/domain/transitions";
import { Conflict } from "../../errors";

/**
 * The one gate of every checkout and payment status the store writes: a move the domain's table doesn't list
 * is refused before anything is written, so a new branch that forgets the table fails in its first test.
 * `from` null: the row is being created.
 */
export function assertMove<E extends "checkout" | "payment">(
  entity: E,
  from: string | null,
  to: StatusOf<E>,
  by?: Mover,
) {
  if (movesBetween(entity, from, to, by).length === 0)
    throw new Conflict(`A ${entity} can't go from ${from ?? "nothing"} to ${to}`);
}
