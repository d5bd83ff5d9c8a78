import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { ReactNode } from "react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { MemoryRouter, Route, Routes } from "react-router";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import type { User } from "@voltio/domain/account";
import { loadTexts } from "@/i18n";
import { fakeSignedInApi, jsonReply as json } from "@/test/fake-api";
import { EmailRow } from "./EmailRow";
import { EmailLinkPage } from "./EmailLinkPage";

// The router loads the page with its texts (app/router.tsx); rendered alone, the test loads them.
beforeAll(() => loadTexts("account", "security"));

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
});

const shopper: User = {
  id: 5,
  firstName: "Ada",
  lastName: "Lovelace",
  email: "ada@example.com",
  rol: "user",
  profilePicture: "",
  googleUser: false,
  newsletterSubscription: false,
  directions: [],
};

function wrapper(path = "/user") {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(["user", "me"], shopper);
  return ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>{children}</MemoryRouter>
    </QueryClientProvider>
  );
}

const box = (name: string) => screen.getByLabelText(name, { selector: "input" }) as HTMLInputElement;

describe("the profile's e-mail row", () => {
  it("asks for the current password, shows the server's refusal on its box, then says where the link went", async () => {
    const bodies: unknown[] = [];
    const requests = fakeSignedInApi((url, init) => {
      if (url === "/api/auth/options") return json(200, { googleClientId: null });
      const body = JSON.parse(String(init.body)) as { currentPassword?: string; email: string };
      bodies.push(body);
      return body.currentPassword === "right-password-1"
        ? json(200, { ...shopper, msg: "We sent a link", pendingEmail: body.email })
        : json(400, {
            error: "currentPassword: The password is incorrect",
            details: [{ field: "currentPassword", reason: "The password is incorrect" }],
          });
    });
    render(<EmailRow user={shopper} />, { wrapper: wrapper() });
    expect(box("E-mail").disabled).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: "Edit E-mail" }));

    fireEvent.input(box("E-mail"), { target: { value: "ada.new@example.com" } });
    fireEvent.click(screen.getByRole("button", { name: "Confirm E-mail" }));
    // No password, no request: the rule shows under its box, and the address typed stays.
    expect(await screen.findByText("Type your current password to change the e-mail")).toBeTruthy();
    expect(box("Current password").getAttribute("aria-invalid")).toBe("true");
    expect(box("E-mail").value).toBe("ada.new@example.com");
    expect(requests.filter((request) => request.startsWith("PUT"))).toEqual([]);

    fireEvent.input(box("Current password"), { target: { value: "wrong-password-1" } });
    fireEvent.click(screen.getByRole("button", { name: "Confirm E-mail" }));
    expect(await screen.findByText("The password is incorrect")).toBeTruthy();

    fireEvent.input(box("Current password"), { target: { value: "right-password-1" } });
    fireEvent.click(screen.getByRole("button", { name: "Confirm E-mail" }));
    await waitFor(() =>
      expect(screen.getByRole("status").textContent).toBe(
        "We sent a link to ada.new@example.com. Open it within 30 minutes to change your e-mail; until then it stays ada@example.com.",
      ),
    );
    expect(bodies.at(-1)).toEqual({ email: "ada.new@example.com", currentPassword: "right-password-1" });
    // Locked again, showing the e-mail the account still has.
    expect(box("E-mail").value).toBe("ada@example.com");
    expect(box("E-mail").disabled).toBe(true);
    expect(screen.queryByLabelText("Current password")).toBeNull();
  });

  it("a Google account confirms with Google instead of a password, and keeps its e-mail where Google is off", async () => {
    fakeSignedInApi(() => json(200, { googleClientId: null }));
    render(<EmailRow user={{ ...shopper, googleUser: true }} />, { wrapper: wrapper() });
    expect(await screen.findByText("Managed by Google")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Edit E-mail" })).toBeNull();
    cleanup();

    fakeSignedInApi(() => json(200, { googleClientId: "client.apps.googleusercontent.com" }));
    render(<EmailRow user={{ ...shopper, googleUser: true }} />, { wrapper: wrapper() });
    fireEvent.click(await screen.findByRole("button", { name: "Edit E-mail" }));
    expect(screen.getByRole("button", { name: "Confirm with Google" })).toBeTruthy();
    expect(screen.queryByLabelText("Current password")).toBeNull();
  });
});

describe("the e-mail links' page", () => {
  const renderAt = (path: string) =>
    render(
      <Routes>
        <Route path="/user/email/confirm" element={<EmailLinkPage />} />
        <Route path="/user/email/revert" element={<EmailLinkPage />} />
      </Routes>,
      { wrapper: wrapper(path) },
    );
  const TOKEN = "T".repeat(43);

  it("puts the e-mail back when its button is pressed, and says to reset the password", async () => {
    const requests = fakeSignedInApi(() => json(200, { msg: "E-mail put back", email: "ada@example.com" }));
    renderAt(`/user/email/revert?token=${TOKEN}`);
    expect(screen.getByRole("heading", { name: "Put your e-mail back" })).toBeTruthy();
    // Nothing is used until the button is pressed: a mail scanner opening the link changes nothing.
    expect(requests).toEqual([]);
    fireEvent.click(screen.getByRole("button", { name: "Put my e-mail back" }));
    await waitFor(() =>
      expect(screen.getByRole("status").textContent).toContain(
        "ada@example.com is your account's e-mail again, and every session of the account ended.",
      ),
    );
    expect(requests).toEqual(["POST /api/user/email/revert"]);
    expect(screen.getByText("Whoever changed it may know your password: reset it now.")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Reset my password" }).getAttribute("href")).toBe(
      "/password/forgot",
    );
    // This browser's login was one of the sessions that ended.
    expect(localStorage.getItem("access")).toBeNull();
  });

  it("says why a link didn't work, in the shopper's language", async () => {
    fakeSignedInApi(() =>
      json(400, {
        error: "token: This link was already used",
        details: [{ field: "token", reason: "This link was already used" }],
      }),
    );
    renderAt(`/user/email/confirm?token=${TOKEN}`);
    fireEvent.click(screen.getByRole("button", { name: "Confirm the new e-mail" }));
    await waitFor(() => expect(screen.getByRole("alert").textContent).toBe("This link was already used"));
    cleanup();

    renderAt("/user/email/confirm?token=broken");
    expect(screen.getByRole("alert").textContent).toBe("This link is not valid");
    expect(screen.queryByRole("button", { name: "Confirm the new e-mail" })).toBeNull();
  });
});
