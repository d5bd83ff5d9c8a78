import type { UseMutationOptions } from "@tanstack/react-query";

/**
 * A screen's own answer to a mutation (its toasts, its dialog state), handed to the mutation hook, which
 * runs it before refreshing its queries: the screen answers as soon as the server has, as it did when it
 * made the call itself. Unlike mutate()'s callbacks these also run when the screen has gone meanwhile.
 */
export type ScreenCallbacks<TData, TVariables> = Pick<
  UseMutationOptions<TData, Error, TVariables>,
  "onSuccess" | "onError" | "onSettled"
>;
