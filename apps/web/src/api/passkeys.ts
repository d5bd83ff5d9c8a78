import { useEffect, useState } from "react";
import type { QueryClient } from "@tanstack/react-query";
import type { SessionReply } from "@voltio/domain/account";
import type { Passkey, PasskeyLoginOptionsReply, WebauthnOptions } from "@voltio/domain/passkeys";
import { apiFetch } from "./client";
import { signInWithTokens } from "./session";

/*
 * The browser's side of passkeys. @simplewebauthn/browser is fetched only when a screen offers a passkey
 * (the login page, the profile), so the storefront's pages don't carry it.
 */
const webauthn = () => import("@simplewebauthn/browser");

/** Whether this browser can use passkeys; false until known, and on the server. */
export function usePasskeySupport(): boolean {
  const [supported, setSupported] = useState(false);
  useEffect(() => {
    let live = true;
    // Without the API at all there is nothing to load.
    if (typeof window === "undefined" || !("PublicKeyCredential" in window)) return;
    void webauthn().then(({ browserSupportsWebAuthn }) => {
      if (live) setSupported(browserSupportsWebAuthn());
    });
    return () => {
      live = false;
    };
  }, []);
  return supported;
}

/** The person closed the browser's passkey prompt, or it timed out: nothing to report. */
export function passkeyCancelled(error: unknown): boolean {
  return error instanceof Error && (error.name === "NotAllowedError" || error.name === "AbortError");
}

type RequestOptions = Parameters<
  Awaited<ReturnType<typeof webauthn>>["startAuthentication"]
>[0]["optionsJSON"];
type CreationOptions = Parameters<
  Awaited<ReturnType<typeof webauthn>>["startRegistration"]
>[0]["optionsJSON"];

const post = <T>(path: string, body?: unknown) =>
  apiFetch<T>(path, { method: "POST", body: body === undefined ? undefined : JSON.stringify(body) });

/** Asks the browser for a passkey's signature of the step's challenge. */
async function signChallenge(options: WebauthnOptions) {
  const { startAuthentication } = await webauthn();
  return startAuthentication({ optionsJSON: options as unknown as RequestOptions });
}

/** Signing in with a passkey alone: the browser offers the store's passkeys it holds. */
export async function signInWithPasskey(client: QueryClient) {
  const { token, options } = await post<PasskeyLoginOptionsReply>("/user/login/passkey/options");
  const response = await signChallenge(options);
  const reply = await post<SessionReply>("/user/login/passkey", { token, response });
  return signInWithTokens(client, reply);
}

/** The login's second step with one of the account's passkeys. */
export async function passkeySecondFactor(client: QueryClient, stepToken: string) {
  const { token, options } = await post<PasskeyLoginOptionsReply>(
    "/user/login/second-factor/passkey/options",
    {
      token: stepToken,
    },
  );
  const response = await signChallenge(options);
  const reply = await post<SessionReply>("/user/login/second-factor/passkey", { token, response });
  return signInWithTokens(client, reply);
}

/**
 * Adding a passkey to the signed-in account: the owner's proof (the current password; none for a Google
 * account that signed in lately), then the browser makes it and the server keeps its public key.
 */
export async function createPasskey(currentPassword?: string): Promise<Passkey> {
  const options = await post<WebauthnOptions>("/user/passkeys/options", { currentPassword });
  const { startRegistration } = await webauthn();
  const response = await startRegistration({ optionsJSON: options as unknown as CreationOptions });
  return post<Passkey>("/user/passkeys", { response });
}
