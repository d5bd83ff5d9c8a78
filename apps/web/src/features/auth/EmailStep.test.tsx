import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { EmailStep } from "./EmailStep";
import { loadTexts } from "@/i18n";

// The router loads the page with its texts (app/router.tsx); rendered alone, the test loads them.
beforeAll(() => loadTexts("account"));

afterEach(cleanup);

const box = () => screen.getByRole("textbox", { name: "E-mail" });

describe("the login screen's e-mail step (docs/product-rules.md §1)", () => {
  it("offers 'Login with Google' only when the store has a Google client id", () => {
    const { rerender } = render(<EmailStep onChecked={vi.fn()} google={undefined} />);
    expect(screen.getByText("Put you mail to register or login")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Login with Google" })).toBeNull();
    const google = vi.fn();
    rerender(<EmailStep onChecked={vi.fn()} google={google} />);
    fireEvent.click(screen.getByRole("button", { name: "Login with Google" }));
    expect(google).toHaveBeenCalledTimes(1);
  });

  it("needs an e-mail: a red box with the rule in its placeholder, even when continued before its code came", async () => {
    const onChecked = vi.fn();
    render(<EmailStep onChecked={onChecked} google={undefined} />);
    fireEvent.click(screen.getByRole("button", { name: "Continue" }));
    await waitFor(() => expect(box().getAttribute("placeholder")).toBe("E-mail is required"));
    expect(box().getAttribute("aria-invalid")).toBe("true");
    expect(onChecked).not.toHaveBeenCalled();

    fireEvent.input(box(), { target: { value: "sam@voltio.test" } });
    fireEvent.click(screen.getByRole("button", { name: "Continue" }));
    await waitFor(() => expect(onChecked).toHaveBeenCalledWith("sam@voltio.test"));
  });

  it("keeps what was typed, and the focus, when its form's code takes over; Continue checks that e-mail once", async () => {
    const onChecked = vi.fn(() => Promise.resolve());
    render(<EmailStep onChecked={onChecked} google={undefined} />);
    const plain = box();
    plain.focus();
    fireEvent.input(plain, { target: { value: "ana@voltio.test" } });
    await waitFor(() => expect(box()).not.toBe(plain));
    expect((box() as HTMLInputElement).value).toBe("ana@voltio.test");
    expect(document.activeElement).toBe(box());
    fireEvent.click(screen.getByRole("button", { name: "Continue" }));
    await waitFor(() => expect(onChecked).toHaveBeenCalledWith("ana@voltio.test"));
    expect(onChecked).toHaveBeenCalledTimes(1);
  });
});
