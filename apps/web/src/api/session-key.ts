/**
 * Every query about the signed-in user lives under this key, so signing in or out refreshes all of them at
 * once. Its own module so the order calls can use it without importing the session (which imports them).
 */
export const SESSION_KEY = ["user"] as const;
