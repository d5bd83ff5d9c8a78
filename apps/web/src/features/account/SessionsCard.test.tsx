import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { ReactNode } from "react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import type { Session } from "@voltio/domain/sessions";
import { loadTexts, setLanguage } from "@/i18n";
import { fakeSignedInApi, jsonReply } from "@/test/fake-api";
import { SessionsCard } from "./SessionsCard";

// The router loads the page with its texts (app/router.tsx); rendered alone, the test loads them.
beforeAll(() => loadTexts("account", "security"));

afterEach(async () => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
  await setLanguage("en");
});

const HERE: Session = {
  id: "11111111-1111-4111-8111-111111111111",
  browser: "Firefox",
  system: "Windows",
  createdAt: "2026-11-20T12:00:00.000Z",
  lastUsedAt: "2026-12-01T09:30:00.000Z",
  current: true,
};
const PHONE: Session = {
  id: "22222222-2222-4222-8222-222222222222",
  browser: "Safari",
  system: "iOS",
  createdAt: "2026-11-02T08:00:00.000Z",
  lastUsedAt: "2026-11-30T12:00:00.000Z",
  current: false,
};
const UNKNOWN: Session = {
  id: "33333333-3333-4333-8333-333333333333",
  browser: null,
  system: null,
  createdAt: "2026-10-01T08:00:00.000Z",
  lastUsedAt: "2026-10-01T08:00:00.000Z",
  current: false,
};

/** The store's API as far as this card asks it: the sessions, until some are ended. */
function fakeSessions(initial: Session[]) {
  let open = initial;
  const requests = fakeSignedInApi((url, init) => {
    const id = /\/api\/user\/sessions\/(.+)$/.exec(url)?.[1];
    if (init.method === "DELETE" && id) {
      open = open.filter((session) => session.id !== id);
      return jsonReply(200, { msg: "Session ended" });
    }
    if (init.method === "DELETE") {
      const ended = open.filter((session) => !session.current).length;
      open = open.filter((session) => session.current);
      return jsonReply(200, { msg: "Other sessions ended", ended });
    }
    return jsonReply(200, open);
  });
  return requests;
}

function renderCard() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  return render(<SessionsCard />, { wrapper });
}

const list = async () => within(await screen.findByRole("list"));

describe("Your sessions", () => {
  it("lists each session with browser, system and both dates, marks this device, and offers End for the others", async () => {
    fakeSessions([HERE, PHONE, UNKNOWN]);
    renderCard();
    expect(screen.getByRole("heading", { name: "Your sessions" })).toBeTruthy();
    const items = (await list()).getAllByRole("listitem");
    expect(items).toHaveLength(3);
    expect(items[0]!.textContent).toContain("Firefox on Windows");
    expect(items[0]!.textContent).toContain("This device");
    expect(items[0]!.textContent).toContain("Signed in: November 20, 2026");
    expect(within(items[0]!).queryByRole("button")).toBeNull();
    expect(items[1]!.textContent).toContain("Safari on iOS");
    expect(items[1]!.textContent).not.toContain("This device");
    expect(items[2]!.textContent).toContain("Unknown browser on an unknown system");
    // Each End names its session for a screen reader: "End" alone would be three identical buttons.
    expect(
      within(items[1]!).getByRole("button", {
        name: /^End the session of Safari on iOS, last used November 30, 2026/,
      }),
    ).toBeTruthy();
    expect(screen.getByRole("button", { name: "End all other sessions" })).toBeTruthy();
  });

  it("ends one session and lists the rest; the focus stays in the section", async () => {
    const requests = fakeSessions([HERE, PHONE, UNKNOWN]);
    renderCard();
    fireEvent.click((await list()).getByRole("button", { name: /Safari on iOS/ }));
    await waitFor(() => expect(screen.getAllByRole("listitem")).toHaveLength(2));
    expect(requests).toContain(`DELETE /api/user/sessions/${PHONE.id}`);
    expect(screen.queryByText("Safari on iOS")).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole("heading", { name: "Your sessions" }));
  });

  it("ends every other session, keeps this one, and then has nothing left to end", async () => {
    const requests = fakeSessions([HERE, PHONE, UNKNOWN]);
    renderCard();
    await list();
    fireEvent.click(screen.getByRole("button", { name: "End all other sessions" }));
    await waitFor(() => expect(screen.getAllByRole("listitem")).toHaveLength(1));
    expect(requests).toContain("DELETE /api/user/sessions");
    expect(screen.getByText("No other session is open.")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "End all other sessions" })).toBeNull();
  });

  it("speaks Spanish, dates included", async () => {
    await setLanguage("es");
    fakeSessions([HERE, PHONE]);
    renderCard();
    const items = (await list()).getAllByRole("listitem");
    expect(screen.getByRole("heading", { name: "Tus sesiones" })).toBeTruthy();
    expect(items[0]!.textContent).toContain("Firefox en Windows");
    expect(items[0]!.textContent).toContain("Este dispositivo");
    expect(items[0]!.textContent).toContain("20 de noviembre de 2026");
    expect(screen.getByRole("button", { name: "Cerrar todas las demás sesiones" })).toBeTruthy();
  });

  it("says so when the sessions can't be loaded", async () => {
    fakeSignedInApi(() => jsonReply(500, { error: "boom" }));
    renderCard();
    expect((await screen.findByRole("alert")).textContent).toBe(
      "Your sessions couldn't be loaded. Try again later.",
    );
  });
});
