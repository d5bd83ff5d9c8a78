import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { useState } from "react";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { lazyDialog } from "./lazy-dialog";

afterEach(cleanup);
// Transformed once up front, so the tests wait on the boundary rather than on the test runner's compiler.
beforeAll(() => import("./ConfirmDialog"));

/** The real ConfirmDialog behind the boundary, with a count of how often its code was asked for. */
function countedConfirmDialog() {
  const counter = { loads: 0 };
  const Dialog = lazyDialog(() => {
    counter.loads++;
    return import("./ConfirmDialog").then((module) => module.ConfirmDialog);
  });
  function Page() {
    const [open, setOpen] = useState(false);
    return (
      <>
        <button type="button" onClick={() => setOpen(true)}>
          Delete review
        </button>
        <Dialog open={open} onOpenChange={setOpen} title="Are you sure ?" onAccept={() => setOpen(false)} />
      </>
    );
  }
  return { counter, Page };
}

describe("lazyDialog", () => {
  it("renders nothing and fetches nothing until the dialog first opens", () => {
    const { counter, Page } = countedConfirmDialog();
    const { container } = render(<Page />);
    expect(counter.loads).toBe(0);
    expect(container.textContent).toBe("Delete review");
    expect(screen.queryByRole("alertdialog")).toBeNull();
  });

  it("fetches the dialog on first open, once, and closing it returns focus to the opener", async () => {
    const { counter, Page } = countedConfirmDialog();
    render(<Page />);
    const opener = screen.getByRole("button", { name: "Delete review" });
    opener.focus();
    fireEvent.click(opener);
    const dialog = await screen.findByRole("alertdialog", { name: "Are you sure ?" });
    expect(counter.loads).toBe(1);
    fireEvent.keyDown(dialog, { key: "Escape" });
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));
    fireEvent.click(opener);
    expect(await screen.findByRole("alertdialog")).toBeTruthy();
    expect(counter.loads).toBe(1);
  });
});
