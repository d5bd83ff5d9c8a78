import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import { IconButton } from "./IconButton";

afterEach(cleanup);

describe("IconButton", () => {
  it("takes its accessible name from the label, not from the icon", () => {
    render(<IconButton label="Next slide" icon={<svg aria-hidden data-testid="icon" />} />);
    const button = screen.getByRole("button", { name: "Next slide" });
    expect(button.getAttribute("title")).toBe("Next slide");
    expect(button.getAttribute("type")).toBe("button");
    expect(button.contains(screen.getByTestId("icon"))).toBe(true);
  });

  it("keeps its name while pressed or disabled", () => {
    render(<IconButton label="Edit City" icon={<svg aria-hidden />} aria-pressed disabled />);
    const button = screen.getByRole("button", { name: "Edit City", pressed: true });
    expect((button as HTMLButtonElement).disabled).toBe(true);
  });
});
