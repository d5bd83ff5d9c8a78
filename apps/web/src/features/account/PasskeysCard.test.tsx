import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { ReactNode } from "react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import type { Passkey } from "@voltio/domain/passkeys";
import { loadTexts, setLanguage } from "@/i18n";
import { fakeSignedInApi, jsonReply } from "@/test/fake-api";
import { PasskeysCard } from "./PasskeysCard";

// The router loads the page with its texts (app/router.tsx); rendered alone, the test loads them.
beforeAll(() => loadTexts("account", "security"));

afterEach(async () => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
  await setLanguage("en");
});

const LAPTOP: Passkey = {
  id: 7,
  name: "Chrome on macOS",
  createdAt: "2026-11-20T12:00:00.000Z",
  lastUsedAt: "2026-12-01T09:30:00.000Z",
};
const PHONE: Passkey = {
  id: 9,
  name: "Safari on iOS",
  createdAt: "2026-11-02T08:00:00.000Z",
  lastUsedAt: null,
};

const USER = {
  id: 5,
  firstName: "Paula",
  lastName: "Keys",
  email: "paula@voltio.test",
  rol: "user",
  googleUser: false,
  profilePicture: "",
  newsletterSubscription: false,
  directions: [],
};

/** The store's API as far as this card asks it: the passkeys, until some are removed. */
function fakePasskeys(initial: Passkey[]) {
  let kept = initial;
  return fakeSignedInApi((url, init) => {
    if (url.endsWith("/api/user")) return jsonReply(200, USER);
    const id = Number(/\/api\/user\/passkeys\/(\d+)$/.exec(url)?.[1]);
    if (init.method === "DELETE") {
      kept = kept.filter((passkey) => passkey.id !== id);
      return jsonReply(200, { msg: "Passkey removed" });
    }
    return jsonReply(200, kept);
  });
}

function renderCard() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  return render(<PasskeysCard />, { wrapper });
}

describe("Passkeys on the profile", () => {
  it("lists each passkey with its name, when it was added and last used", async () => {
    fakePasskeys([LAPTOP, PHONE]);
    renderCard();
    const items = within(await screen.findByRole("list")).getAllByRole("listitem");
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^Chrome on macOSAdded: November 20, 2026.* · Last used: December 1, 2026/),
      expect.stringMatching(/^Safari on iOSAdded: November 2, 2026.* · Not used yet/),
    ]);
    expect(screen.getByRole("button", { name: "Remove the passkey Safari on iOS" })).toBeTruthy();
  });

  it("removes one only once the question is accepted", async () => {
    const requests = fakePasskeys([LAPTOP, PHONE]);
    renderCard();
    const opener = await screen.findByRole("button", { name: "Remove the passkey Chrome on macOS" });
    opener.focus();
    fireEvent.click(opener);
    const dialog = await screen.findByRole("alertdialog", { name: "Remove this passkey?" });
    expect(dialog.textContent).toContain("“Chrome on macOS” will no longer sign in to your account.");
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
    const removeLaptop = screen.getByRole("button", { name: "Remove the passkey Chrome on macOS" });
    await waitFor(() => expect(document.activeElement).toBe(removeLaptop));
    expect(requests).not.toContain("DELETE /api/user/passkeys/7");

    fireEvent.click(removeLaptop);
    fireEvent.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Accept" }));
    await waitFor(() => expect(screen.getAllByRole("listitem")).toHaveLength(1));
    expect(requests).toContain("DELETE /api/user/passkeys/7");
    // The button that opened the question is gone: the focus stays in the section.
    const heading = screen.getByRole("heading", { name: "Passkeys" });
    await waitFor(() => expect(document.activeElement).toBe(heading));
  });

  it("offers no adding where the browser has no WebAuthn, and says why", async () => {
    fakePasskeys([]);
    renderCard();
    expect(await screen.findByText("You have no passkeys yet.")).toBeTruthy();
    expect(screen.getByText(/This browser can't use passkeys\./)).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Add a passkey" })).toBeNull();
  });

  it("asks an account with a password for it before the browser makes the passkey", async () => {
    vi.stubGlobal("PublicKeyCredential", function PublicKeyCredential() {});
    const requests = fakePasskeys([]);
    renderCard();
    fireEvent.click(await screen.findByRole("button", { name: "Add a passkey" }));
    const field = await screen.findByLabelText("Current password");
    await waitFor(() => expect(document.activeElement).toBe(field));
    fireEvent.click(screen.getByRole("button", { name: "Continue" }));
    expect(await screen.findByText("Password is required")).toBeTruthy();
    expect(requests.filter((request) => request.startsWith("POST"))).toEqual([]);
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(screen.queryByLabelText("Current password")).toBeNull();
    expect(screen.getByRole("button", { name: "Add a passkey" })).toBeTruthy();
  });

  it("offers adding where it has, in Spanish too", async () => {
    vi.stubGlobal("PublicKeyCredential", function PublicKeyCredential() {});
    await setLanguage("es");
    fakePasskeys([]);
    renderCard();
    expect(await screen.findByRole("button", { name: "Añadir una llave de acceso" })).toBeTruthy();
    expect(screen.getByText("Todavía no tienes llaves de acceso.")).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Llaves de acceso (passkeys)" })).toBeTruthy();
  });
});
