import {
  useCallback,
  useLayoutEffect,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEvent,
  type PointerEvent,
  type RefObject,
} from "react";
import { flushSync } from "react-dom";

/** What the plain form held when the real one took over. */
export interface Handover {
  /** Each named box's text. */
  values: Record<string, string>;
  /**
   * What had the focus (a box or the button, by its place among the form's controls: the real form has the
   * same markup), with a box's caret.
   */
  focused: { index: number; start: number | null; end: number | null } | null;
  /** The visitor submitted the plain form: the real one submits as soon as it is drawn. */
  submitted: boolean;
}

/** Reads a plain form's boxes, what had the focus and a box's caret. */
export function handoverOf(form: HTMLFormElement, submitted: boolean): Handover {
  const values: Record<string, string> = {};
  let focused: Handover["focused"] = null;
  for (const [index, element] of Array.from(form.elements).entries()) {
    const box = element instanceof HTMLInputElement ? element : null;
    if (box?.name) values[box.name] = box.value;
    if (element === document.activeElement)
      focused = { index, start: box?.selectionStart ?? null, end: box?.selectionEnd ?? null };
  }
  return { values, focused, submitted };
}

/**
 * The form's library code (react-hook-form, zod and the form's schema: ~40 KB gzipped) is fetched when the
 * visitor first types in the form or submits it, not with the page. Until then the page draws the
 * same markup with plain boxes (`plainForm` goes on its <form>); once the code is here, `Form` replaces it in
 * one synchronous render, so no keystroke falls between reading the boxes and drawing the real ones.
 */
export function useFormOnFirstUse<Module>(load: () => Promise<Module>) {
  const [loaded, setLoaded] = useState<{ module: Module; handover: Handover } | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const loading = useRef<Promise<Module | null> | null>(null);
  const submitted = useRef(false);
  /** A pointer or Space is down on the submit button: its click has not come yet. */
  const pressing = useRef(false);

  const start = useCallback(() => {
    loading.current ??= load().then(
      (module) => {
        const form = formRef.current;
        if (form) {
          // A button pressed as the real form replaces it never gets its click (the press and the release
          // land on different buttons): the real form makes that submit.
          const handover = handoverOf(form, submitted.current || pressing.current);
          flushSync(() => setLoaded({ module, handover }));
        }
        return module;
      },
      (error: unknown) => {
        // Offline for a moment: the next keystroke or submit asks again.
        loading.current = null;
        console.error("The form's code could not be loaded", error);
        return null;
      },
    );
  }, [load]);

  /** A press on the submit button lasts until one of `ends` anywhere: its click, if any, comes by then. */
  const press = (target: EventTarget, ends: string[]) => {
    if (!(target as Element).closest("button[type=submit]")) return;
    pressing.current = true;
    const listening = new AbortController();
    const released = () => {
      pressing.current = false;
      listening.abort();
    };
    for (const type of ends)
      window.addEventListener(type, released, { capture: true, signal: listening.signal });
  };

  const plainForm = {
    ref: formRef,
    onInput: start,
    onSubmit: (event: FormEvent) => {
      event.preventDefault();
      submitted.current = true;
      start();
    },
    onPointerDown: (event: PointerEvent) => press(event.target, ["pointerup", "pointercancel"]),
    // Space clicks a button when it is let go.
    onKeyDown: (event: KeyboardEvent) => {
      if (event.key === " ") press(event.target, ["keyup", "blur"]);
    },
  };
  return { loaded, plainForm };
}

/**
 * In the real form, on its first render: the focus (and a box's caret) back where it was in the plain form,
 * and the submit the visitor made before the code arrived.
 */
export function useTakeOver(
  formRef: RefObject<HTMLFormElement | null>,
  handover: Handover,
  submit: () => void,
) {
  useLayoutEffect(() => {
    const { focused } = handover;
    const control = focused && formRef.current?.elements[focused.index];
    if (control instanceof HTMLElement) {
      control.focus();
      // E-mail boxes have no caret position to read or set.
      if (control instanceof HTMLInputElement && focused!.start !== null)
        control.setSelectionRange(focused!.start, focused!.end);
    }
    if (handover.submitted) submit();
    // Once, as the real form first appears.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}
