import { afterEach, describe, expect, it, vi } from "vitest";
import { useRef } from "react";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { useFormOnFirstUse, useTakeOver, type Handover } from "./form-on-first-use";

afterEach(cleanup);

/** A real form of two boxes, as a lazily loaded module would give it. */
function makeModule(onSubmit: (values: Record<string, string>) => void) {
  function RealForm({ handover }: { handover: Handover }) {
    const formRef = useRef<HTMLFormElement>(null);
    const submit = () => {
      const form = formRef.current!;
      onSubmit({ name: (form.elements.namedItem("name") as HTMLInputElement).value });
    };
    useTakeOver(formRef, handover, submit);
    return (
      <form ref={formRef} data-real onSubmit={(event) => (event.preventDefault(), submit())}>
        <input aria-label="Name" name="name" defaultValue={handover.values.name} />
        <input aria-label="City" name="city" defaultValue={handover.values.city} />
        <button type="submit">Send</button>
      </form>
    );
  }
  return { RealForm };
}

function Harness({ load }: { load: () => Promise<ReturnType<typeof makeModule>> }) {
  const { loaded, plainForm } = useFormOnFirstUse(load);
  if (loaded) return <loaded.module.RealForm handover={loaded.handover} />;
  return (
    <form {...plainForm}>
      <input aria-label="Name" name="name" defaultValue="" />
      <input aria-label="City" name="city" defaultValue="" />
      <button type="submit">Send</button>
    </form>
  );
}

/** A load whose module arrives when the test says so. */
function heldBack(onSubmit: (values: Record<string, string>) => void) {
  let arrive!: () => void;
  const load = () =>
    new Promise<ReturnType<typeof makeModule>>((resolve) => (arrive = () => resolve(makeModule(onSubmit))));
  return { load, arrive: () => arrive() };
}

const real = () => document.querySelector("form[data-real]");
const nameBox = () => screen.getByRole("textbox", { name: "Name" }) as HTMLInputElement;

describe("useFormOnFirstUse", () => {
  it("loads nothing until the visitor types, then hands over the text, the focus and the caret", async () => {
    const load = vi.fn(() => Promise.resolve(makeModule(vi.fn())));
    render(<Harness load={load} />);
    expect(load).not.toHaveBeenCalled();

    const plain = nameBox();
    plain.focus();
    fireEvent.input(plain, { target: { value: "María José" } });
    plain.setSelectionRange(2, 5);
    await waitFor(() => expect(real()).not.toBeNull());
    expect(load).toHaveBeenCalledTimes(1);
    expect(nameBox()).not.toBe(plain);
    expect(nameBox().value).toBe("María José");
    expect(document.activeElement).toBe(nameBox());
    expect([nameBox().selectionStart, nameBox().selectionEnd]).toEqual([2, 5]);
  });

  it("submits once with the real form what was submitted before its code came", async () => {
    const onSubmit = vi.fn();
    render(<Harness load={() => Promise.resolve(makeModule(onSubmit))} />);
    fireEvent.input(nameBox(), { target: { value: "Ana" } });
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ name: "Ana" }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  /** "Ana" typed and a pointer pressed on the plain Send button while the real form's code is held back. */
  const pressSendBeforeCode = () => {
    const onSubmit = vi.fn();
    const { load, arrive } = heldBack(onSubmit);
    render(<Harness load={load} />);
    fireEvent.input(nameBox(), { target: { value: "Ana" } });
    fireEvent.pointerDown(screen.getByRole("button", { name: "Send" }));
    return { onSubmit, arrive };
  };

  it("submits a press on the plain button that the real form interrupted, whose click never comes", async () => {
    // The press lands on the plain button, the code arrives, the release lands on the real one: no click.
    const { onSubmit, arrive } = pressSendBeforeCode();
    arrive();
    await waitFor(() => expect(real()).not.toBeNull());
    fireEvent.pointerUp(window);
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit).toHaveBeenCalledWith({ name: "Ana" });
  });

  it("does not submit a press released before the code came (dragged off the button)", async () => {
    const { onSubmit, arrive } = pressSendBeforeCode();
    fireEvent.pointerUp(document.body);
    arrive();
    await waitFor(() => expect(real()).not.toBeNull());
    expect(onSubmit).not.toHaveBeenCalled();
    expect(nameBox().value).toBe("Ana");
  });

  it("keeps the focus on the button and submits a Space press the real form interrupted", async () => {
    const onSubmit = vi.fn();
    const { load, arrive } = heldBack(onSubmit);
    render(<Harness load={load} />);
    fireEvent.input(nameBox(), { target: { value: "Ana" } });
    const plainButton = screen.getByRole("button", { name: "Send" });
    plainButton.focus();
    fireEvent.keyDown(plainButton, { key: " " });
    arrive();
    await waitFor(() => expect(real()).not.toBeNull());
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Send" }));
    expect(document.activeElement).not.toBe(plainButton);
    fireEvent.keyUp(window, { key: " " });
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it("asks again on the next keystroke when the code could not be loaded", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const load = vi
      .fn<() => Promise<ReturnType<typeof makeModule>>>()
      .mockRejectedValueOnce(new Error("offline"))
      .mockResolvedValue(makeModule(vi.fn()));
    render(<Harness load={load} />);
    fireEvent.input(nameBox(), { target: { value: "A" } });
    await waitFor(() => expect(console.error).toHaveBeenCalled());
    expect(real()).toBeNull();
    fireEvent.input(nameBox(), { target: { value: "An" } });
    await waitFor(() => expect(real()).not.toBeNull());
    expect(load).toHaveBeenCalledTimes(2);
    expect(nameBox().value).toBe("An");
  });
});
