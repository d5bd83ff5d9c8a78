import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { EmailStep } from "./EmailStep";

afterEach(cleanup);

describe("the login screen's e-mail step (SPEC.md §2)", () => {
  it("offers 'Login with Google' only when the store has a Google client id", () => {
    const { rerender } = render(<EmailStep onChecked={vi.fn()} google={undefined} />);
    expect(screen.getByText("Put you mail to register or login")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Login with Google" })).toBeNull();
    const google = vi.fn();
    rerender(<EmailStep onChecked={vi.fn()} google={google} />);
    fireEvent.click(screen.getByRole("button", { name: "Login with Google" }));
    expect(google).toHaveBeenCalledTimes(1);
  });

  it("needs an e-mail: a red box with the rule in its placeholder", async () => {
    const onChecked = vi.fn();
    render(<EmailStep onChecked={onChecked} google={undefined} />);
    fireEvent.click(screen.getByRole("button", { name: "Continue" }));
    const box = screen.getByRole("textbox", { name: "E-mail" });
    await waitFor(() => expect(box.getAttribute("placeholder")).toBe("E-mail is required"));
    expect(box.getAttribute("aria-invalid")).toBe("true");
    expect(onChecked).not.toHaveBeenCalled();

    fireEvent.input(box, { target: { value: "sam@voltio.test" } });
    fireEvent.click(screen.getByRole("button", { name: "Continue" }));
    await waitFor(() => expect(onChecked).toHaveBeenCalledWith("sam@voltio.test"));
  });
});
