import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { QueryClient, QueryClientProvider, useQuery } from "@tanstack/react-query";
import { MemoryRouter, Route, Routes } from "react-router";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import type { SecondFactorStatus } from "@voltio/domain/second-factor";
import { loadTexts, setLanguage } from "@/i18n";
import { apiFetch } from "@/api/client";
import { SecondFactorGate } from "@/components/SecondFactorGate";
import { fakeSignedInApi, jsonReply } from "@/test/fake-api";
import { TwoStepSection } from "./TwoStepSection";

// The router loads the page with its texts (app/router.tsx); rendered alone, the test loads them.
beforeAll(() => loadTexts("account", "security"));

afterEach(async () => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
  await setLanguage("en");
});

const OFF: SecondFactorStatus = {
  totpEnabled: false,
  recoveryCodesLeft: 0,
  passkeys: 0,
  required: true,
  sessionVerified: false,
};
const CODES = Array.from({ length: 10 }, (_, index) => `abcde-fgh${String(index).padStart(2, "0")}`);

/** The store's API as the back office and the profile's section ask it. */
function fakeStore(status: SecondFactorStatus, admin: () => Response = () => jsonReply(200, [])) {
  let current = status;
  const requests = fakeSignedInApi((url, init) => {
    if (url === "/api/user/second-factor") return jsonReply(200, current);
    if (url === "/api/user/second-factor/totp" && init.method === "POST")
      return jsonReply(200, {
        otpauthUrl: "otpauth://totp/Voltio:ada%40voltio.test?secret=JBSWY3DPEHPK3PXP",
        qrCode: "data:image/svg+xml;base64,PHN2Zy8+",
        secret: "JBSWY3DPEHPK3PXP",
      });
    if (url === "/api/user/second-factor/totp/confirm") {
      const { code } = JSON.parse(String(init.body)) as { code: string };
      if (code !== "123456")
        return jsonReply(400, {
          error: "code: is incorrect",
          details: [{ field: "code", reason: "is incorrect" }],
        });
      current = { ...current, totpEnabled: true, recoveryCodesLeft: 10, sessionVerified: true };
      return jsonReply(200, { recoveryCodes: CODES });
    }
    return admin();
  });
  return requests;
}

function renderAt(path: string, admin = <p>Back office</p>) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/admin" element={<SecondFactorGate>{admin}</SecondFactorGate>} />
          <Route path="/user" element={<TwoStepSection />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe("two-step sign-in for an admin who must use it", () => {
  it("sends the admin from the back office to the profile's set-up, told why, and turns the app on", async () => {
    fakeStore(OFF);
    renderAt("/admin");
    const section = await screen.findByRole("region", { name: "Two-step sign-in" });
    expect(screen.queryByText("Back office")).toBeNull();
    expect(within(section).getByRole("alert").textContent).toBe(
      "Admins must use two-step sign-in. Set it up here to open the back office.",
    );
    await waitFor(() => expect(document.activeElement).toBe(section));

    fireEvent.click(within(section).getByRole("button", { name: "Set up" }));
    expect(
      await within(section).findByRole("img", { name: "QR code to add Voltio to your authenticator app" }),
    ).toBeTruthy();
    expect(within(section).getByText("JBSW Y3DP EHPK 3PXP")).toBeTruthy();
    const code = within(section).getByRole("textbox", { name: "Code" });
    expect(code.getAttribute("autocomplete")).toBe("one-time-code");

    fireEvent.input(code, { target: { value: "654321" } });
    fireEvent.click(within(section).getByRole("button", { name: "Turn on" }));
    expect(await within(section).findByText("The code is incorrect")).toBeTruthy();

    fireEvent.input(within(section).getByRole("textbox", { name: "Code" }), { target: { value: "123456" } });
    fireEvent.click(within(section).getByRole("button", { name: "Turn on" }));
    const codes = await within(section).findByRole("region", { name: "Your recovery codes" });
    expect(
      within(codes)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(CODES);
    const download = within(codes).getByRole("link", { name: "Download" });
    expect(download.getAttribute("download")).toBe("voltio-recovery-codes.txt");
    expect(decodeURIComponent(download.getAttribute("href")!)).toContain(CODES.join("\n"));

    fireEvent.click(within(codes).getByRole("button", { name: "I've saved them" }));
    expect(await within(section).findByText("10 recovery codes left.")).toBeTruthy();
    expect(within(section).getByText(/^On: every sign-in asks for a code\./)).toBeTruthy();
    expect(within(section).queryByRole("alert")).toBeNull();
  });

  it("lets the admin in once the session has a second factor", async () => {
    fakeStore({ ...OFF, totpEnabled: true, recoveryCodesLeft: 10, sessionVerified: true });
    renderAt("/admin");
    expect(await screen.findByText("Back office")).toBeTruthy();
  });

  it("sends the admin to the set-up when an admin call is refused for want of a second factor", async () => {
    fakeStore({ ...OFF, required: false }, () =>
      jsonReply(403, { error: "Admins must sign in with a second factor", reason: "second-factor-required" }),
    );
    renderAt("/admin", <AdminCall />);
    expect(await screen.findByRole("region", { name: "Two-step sign-in" })).toBeTruthy();
  });

  it("speaks Spanish", async () => {
    await setLanguage("es");
    fakeStore(OFF);
    renderAt("/user");
    const section = await screen.findByRole("region", { name: "Verificación en dos pasos" });
    expect(within(section).getByRole("button", { name: "Activar" })).toBeTruthy();
  });
});

/** A back-office screen's query, as any admin page makes. */
function AdminCall() {
  const { isError } = useAdminQuery();
  return <p>{isError ? "Refused" : "Back office"}</p>;
}

const useAdminQuery = () => useQuery({ queryKey: ["admin", "stats"], queryFn: () => apiFetch("/stats") });
