import type { UseMutationOptions } from "@tanstack/react-query";

/**
 * A screen's own answer to a mutation (its toasts, its dialog state), handed to the mutation hook. The hook
 * runs the screen's onSuccess or onError as soon as the server has answered, then refreshes its queries, then
 * runs the screen's onSettled: the order the screens kept when they made the calls themselves. Unlike
 * mutate()'s callbacks these also run when the screen has gone meanwhile.
 */
export type ScreenCallbacks<TData, TVariables> = Pick<
  UseMutationOptions<TData, Error, TVariables>,
  "onSuccess" | "onError" | "onSettled"
>;
