import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { MemoryRouter } from "react-router";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { loadTexts } from "@/i18n";
import { jsonReply } from "@/test/fake-api";
import { LoginForm } from "./LoginForm";

// The router loads the page with its texts (app/router.tsx); rendered alone, the test loads them.
beforeAll(() => loadTexts("account", "security"));

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
});

const STEP = {
  msg: "Second factor required",
  secondFactor: { token: "step-token", methods: ["totp", "recovery"] },
};
const USER = {
  id: 1,
  firstName: "Ada",
  lastName: "Admin",
  email: "admin@voltio.test",
  rol: "admin",
  directions: [],
};

/** The store's API as the login sees it: `codes` answers each second-step request in turn. */
function fakeApi(codes: (body: { token: string; code: string }) => Response) {
  const sent: { url: string; body: unknown }[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const body = init.body ? (JSON.parse(String(init.body)) as { token: string; code: string }) : undefined;
      sent.push({ url, body });
      if (url === "/api/user/login") return jsonReply(200, STEP);
      if (url === "/api/user/login/second-factor") return codes(body!);
      if (url === "/api/user") return jsonReply(200, USER);
      return jsonReply(404, { error: "Not found" });
    }),
  );
  return sent;
}

function renderLogin(onSignedIn = vi.fn()) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <LoginForm
          email="admin@voltio.test"
          password="Admin1234!"
          onSignedIn={onSignedIn}
          onOtherEmail={vi.fn()}
        />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  fireEvent.click(screen.getByRole("button", { name: "Log in" }));
  return onSignedIn;
}

const codeBox = () => screen.findByRole("textbox", { name: "Code" }) as Promise<HTMLInputElement>;

describe("the login's code step", () => {
  it("asks for the app's code after the password, says when it is wrong, and signs in with the right one", async () => {
    const sent = fakeApi(({ code }) =>
      code === "123456"
        ? jsonReply(200, { msg: "Logged in", accessToken: "a", refreshToken: "r" })
        : jsonReply(401, { error: "The code is incorrect" }),
    );
    const onSignedIn = renderLogin();
    const box = await codeBox();
    expect(screen.getByRole("heading", { name: "Two-step sign-in" })).toBeTruthy();
    expect(box.getAttribute("autocomplete")).toBe("one-time-code");
    expect(box.getAttribute("inputmode")).toBe("numeric");

    // Checked before it is sent: six digits.
    fireEvent.input(box, { target: { value: "12" } });
    fireEvent.click(screen.getByRole("button", { name: "Verify" }));
    expect(await screen.findByText("Enter the 6 digits")).toBeTruthy();
    expect(sent.some((request) => request.url === "/api/user/login/second-factor")).toBe(false);

    fireEvent.input(box, { target: { value: "654321" } });
    fireEvent.click(screen.getByRole("button", { name: "Verify" }));
    expect(await screen.findByText("The code is incorrect")).toBeTruthy();
    expect((await codeBox()).getAttribute("aria-invalid")).toBe("true");

    fireEvent.input(await codeBox(), { target: { value: "123456" } });
    fireEvent.click(screen.getByRole("button", { name: "Verify" }));
    await waitFor(() => expect(onSignedIn).toHaveBeenCalledWith("Ada"));
    expect(
      sent.filter((request) => request.url === "/api/user/login/second-factor").map((r) => r.body),
    ).toEqual([
      { token: "step-token", code: "654321" },
      { token: "step-token", code: "123456" },
    ]);
    expect(localStorage.getItem("refresh")).toBe("r");
  });

  it("takes a recovery code instead", async () => {
    const sent = fakeApi(() => jsonReply(200, { msg: "Logged in", accessToken: "a", refreshToken: "r" }));
    const onSignedIn = renderLogin();
    await codeBox();
    fireEvent.click(screen.getByRole("button", { name: "Use a recovery code" }));
    const box = screen.getByRole("textbox", { name: "Recovery code" });
    expect(box.getAttribute("autocomplete")).toBe("off");
    fireEvent.input(box, { target: { value: "abcde-fghjk" } });
    fireEvent.click(screen.getByRole("button", { name: "Verify" }));
    await waitFor(() => expect(onSignedIn).toHaveBeenCalled());
    expect(sent.find((request) => request.url === "/api/user/login/second-factor")?.body).toEqual({
      token: "step-token",
      code: "abcde-fghjk",
    });
  });

  it("goes back to the password when the step is closed", async () => {
    fakeApi(() =>
      jsonReply(401, {
        error: "The sign-in step expired: enter your password again",
        secondFactorGone: true,
      }),
    );
    const onSignedIn = renderLogin();
    fireEvent.input(await codeBox(), { target: { value: "123456" } });
    fireEvent.click(screen.getByRole("button", { name: "Verify" }));
    expect(await screen.findByLabelText("Password")).toBeTruthy();
    expect((screen.getByLabelText("Password") as HTMLInputElement).value).toBe("");
    expect(onSignedIn).not.toHaveBeenCalled();
  });
});
