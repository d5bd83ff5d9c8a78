/**
 * Toasts without putting the toast library on the first paint: sonner loads with the first message
 * (a toast always follows a click), and its Toaster mounts before the message is sent.
 */
let requestHost: (() => void) | null = null;
let markReady: () => void = () => {};
const hostReady = new Promise<void>((resolve) => {
  markReady = resolve;
});

/** Called by ToastHost: how to mount the Toaster, and the signal that it listens. */
export function registerToastHost(request: () => void) {
  requestHost = request;
  return () => {
    if (requestHost === request) requestHost = null;
  };
}

export function toasterMounted() {
  markReady();
}

export function showToast(message: string, kind: "success" | "error" = "success") {
  requestHost?.();
  void Promise.all([import("sonner"), hostReady]).then(([{ toast }]) => toast[kind](message));
}
