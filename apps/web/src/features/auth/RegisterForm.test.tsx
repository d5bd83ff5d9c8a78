import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { ReactNode } from "react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render as renderAlone, screen, waitFor } from "@testing-library/react";
import { RegisterForm } from "./RegisterForm";
import { loadTexts } from "@/i18n";
import { loadPasswordEstimator } from "@voltio/domain/password-strength";

// The router loads the page with its texts (app/router.tsx); rendered alone, the test loads them, and the
// password strength dictionaries that take seconds to load in a test process.
beforeAll(() => Promise.all([loadTexts("account", "security"), loadPasswordEstimator()]), 60_000);

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const render = (form: ReactNode) =>
  renderAlone(<QueryClientProvider client={new QueryClient()}>{form}</QueryClientProvider>);

const box = (name: string) => screen.getByRole("textbox", { name }) as HTMLInputElement;
const type = (name: string, value: string) => fireEvent.input(box(name), { target: { value } });

function fill(values: { firstName: string; lastName: string; password: string }) {
  type("First name", values.firstName);
  type("Last name", values.lastName);
  fireEvent.input(screen.getByLabelText("Password"), { target: { value: values.password } });
}

describe("the Register form keeps what was typed", () => {
  it("shows a refused rule under the box and keeps every value", async () => {
    const onRegistered = vi.fn();
    render(<RegisterForm email="nina@voltio.test" onRegistered={onRegistered} onOtherEmail={vi.fn()} />);
    fill({ firstName: "Nina 2", lastName: "Núñez O'Brien", password: "nina-secret-1" });
    fireEvent.click(screen.getByRole("button", { name: "Sign up" }));
    await waitFor(() => expect(box("First name").getAttribute("aria-invalid")).toBe("true"));
    expect(screen.getByText("Only letters, no spaces or digits")).toBeTruthy();
    expect(box("First name").value).toBe("Nina 2");
    expect(box("Last name").value).toBe("Núñez O'Brien");
    expect(box("E-mail").value).toBe("nina@voltio.test");
    expect((screen.getByLabelText("Password") as HTMLInputElement).value).toBe("nina-secret-1");
    expect(onRegistered).not.toHaveBeenCalled();
  });

  it("keeps the values when the server refuses a field, and hands e-mail and password on once registered", async () => {
    let refuse = true;
    vi.stubGlobal(
      "fetch",
      vi.fn(async () =>
        refuse
          ? new Response(
              JSON.stringify({
                error: "password: At least 8 characters",
                details: [{ field: "password", reason: "At least 8 characters" }],
              }),
              { status: 400 },
            )
          : new Response(JSON.stringify({ msg: "User created", id: 9 }), { status: 201 }),
      ),
    );
    const onRegistered = vi.fn();
    render(<RegisterForm email="maria@voltio.test" onRegistered={onRegistered} onOtherEmail={vi.fn()} />);
    fill({ firstName: "María José", lastName: "Núñez O'Brien", password: "maria-secret-1" });
    fireEvent.click(screen.getByRole("button", { name: "Sign up" }));
    await waitFor(() => expect(screen.getByText("At least 8 characters")).toBeTruthy());
    expect((screen.getByLabelText("Password") as HTMLInputElement).value).toBe("maria-secret-1");
    expect(box("First name").value).toBe("María José");

    refuse = false;
    fireEvent.click(screen.getByRole("button", { name: "Sign up" }));
    await waitFor(() => expect(onRegistered).toHaveBeenCalledWith("maria@voltio.test", "maria-secret-1"));
  });

  it("refuses a weak password before sending it, with the meter's reason, and keeps it typed", async () => {
    const sent = vi.fn(
      async () => new Response(JSON.stringify({ msg: "User created", id: 9 }), { status: 201 }),
    );
    vi.stubGlobal("fetch", sent);
    const onRegistered = vi.fn();
    render(<RegisterForm email="nina@voltio.test" onRegistered={onRegistered} onOtherEmail={vi.fn()} />);
    fill({ firstName: "Nina", lastName: "Nakamura", password: "ninanakamura" });
    await waitFor(() =>
      expect(screen.getByRole("status").textContent).toBe(
        "Strength: very weak. The password is too close to your name or e-mail",
      ),
    );
    fireEvent.click(screen.getByRole("button", { name: "Sign up" }));
    await waitFor(() => expect(screen.getByLabelText("Password").getAttribute("aria-invalid")).toBe("true"));
    expect(screen.getAllByText("The password is too close to your name or e-mail")).toHaveLength(2);
    expect((screen.getByLabelText("Password") as HTMLInputElement).value).toBe("ninanakamura");
    expect(sent).not.toHaveBeenCalled();

    fireEvent.input(screen.getByLabelText("Password"), { target: { value: "Quartz-lantern-meadow-7" } });
    await waitFor(() => expect(screen.getByRole("status").textContent).toBe("Strength: strong."));
    fireEvent.click(screen.getByRole("button", { name: "Sign up" }));
    await waitFor(() =>
      expect(onRegistered).toHaveBeenCalledWith("nina@voltio.test", "Quartz-lantern-meadow-7"),
    );
  });
});
