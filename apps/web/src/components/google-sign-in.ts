/**
 * Google Identity Services, loaded only when 'Login with Google' is used: Google's script shows its own
 * sign-in prompt and hands back an ID token, which the server verifies (POST /google/login).
 */
interface GoogleId {
  initialize(options: {
    client_id: string;
    callback: (response: { credential?: string }) => void;
    use_fedcm_for_prompt?: boolean;
    cancel_on_tap_outside?: boolean;
  }): void;
  prompt(
    listener?: (notification: { isNotDisplayed?: () => boolean; isSkippedMoment?: () => boolean }) => void,
  ): void;
}

declare global {
  interface Window {
    google?: { accounts: { id: GoogleId } };
  }
}

const SCRIPT = "https://accounts.google.com/gsi/client";
let loading: Promise<GoogleId> | null = null;

function loadGoogle(): Promise<GoogleId> {
  loading ??= new Promise<GoogleId>((resolve, reject) => {
    const script = document.createElement("script");
    script.src = SCRIPT;
    script.async = true;
    script.onload = () =>
      window.google ? resolve(window.google.accounts.id) : reject(new Error("No Google"));
    script.onerror = () => {
      loading = null;
      reject(new Error("Google's sign-in script could not load"));
    };
    document.head.appendChild(script);
  });
  return loading;
}

/** Asks Google for the shopper's ID token; rejects when the prompt can't show or is dismissed. */
export async function requestGoogleCredential(clientId: string): Promise<string> {
  const google = await loadGoogle();
  return new Promise<string>((resolve, reject) => {
    google.initialize({
      client_id: clientId,
      use_fedcm_for_prompt: true,
      cancel_on_tap_outside: true,
      callback: ({ credential }) => (credential ? resolve(credential) : reject(new Error("No credential"))),
    });
    google.prompt((notification) => {
      if (notification.isNotDisplayed?.() || notification.isSkippedMoment?.()) {
        reject(new Error("Google sign-in was not shown or was dismissed"));
      }
    });
  });
}
