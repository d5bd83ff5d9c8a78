import { afterEach, describe, expect, it } from "vitest";
import { useState } from "react";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { Modal } from "./Modal";

afterEach(cleanup);

function Opener({ description }: { description?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Addresses
      </button>
      <Modal open={open} onOpenChange={setOpen} title="Adresses" description={description} closeLabel="Close">
        <input aria-label="City" />
        <button type="button">Save</button>
      </Modal>
    </>
  );
}

function openFromTrigger() {
  const trigger = screen.getByRole("button", { name: "Addresses" });
  trigger.focus();
  fireEvent.click(trigger);
  return trigger;
}

describe("Modal", () => {
  it("is a dialog named by its title, described only when it has a description", () => {
    render(<Opener description="Where we deliver" />);
    openFromTrigger();
    const dialog = screen.getByRole("dialog", { name: "Adresses" });
    expect(dialog.getAttribute("aria-describedby")).toBeTruthy();
    expect(document.getElementById(dialog.getAttribute("aria-describedby")!)?.textContent).toBe(
      "Where we deliver",
    );
    cleanup();
    render(<Opener />);
    openFromTrigger();
    expect(screen.getByRole("dialog", { name: "Adresses" }).hasAttribute("aria-describedby")).toBe(false);
  });

  it("moves focus inside, and brings it back when focus wanders out", async () => {
    render(<Opener />);
    openFromTrigger();
    const dialog = screen.getByRole("dialog");
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    expect(document.activeElement).toBe(screen.getByRole("textbox", { name: "City" }));
    // Focus leaving the dialog (a click outside, a Tab past the end) is brought back inside.
    const outside = screen.getByRole("button", { name: "Addresses", hidden: true });
    outside.focus();
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
  });

  it("Escape closes it and focus returns to the button that opened it", async () => {
    render(<Opener />);
    const trigger = openFromTrigger();
    const dialog = screen.getByRole("dialog");
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    fireEvent.keyDown(document.activeElement!, { key: "Escape" });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(trigger));
  });

  it("the close button is named and closes it", async () => {
    render(<Opener />);
    openFromTrigger();
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });
});
