import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { act, cleanup, render, screen, waitFor } from "@testing-library/react";
import { loadTexts, setLanguage } from "@/i18n";
import { loadPasswordEstimator } from "@voltio/domain/password-strength";
import { PasswordStrengthMeter } from "./PasswordStrength";

// The dictionaries take seconds to load in a test process: once, before the first judgement is awaited.
beforeAll(() => Promise.all([loadTexts("account", "security"), loadPasswordEstimator()]), 60_000);
afterEach(cleanup);
afterAll(() => setLanguage("en"));

const ana = { firstName: "Ana", lastName: "García", email: "ana.garcia@example.com" };
const status = () => screen.getByRole("status");

describe("the password strength meter", () => {
  it("says the level and the reason in words, in a polite live region", async () => {
    const { rerender } = render(<PasswordStrengthMeter password="12345678" owner={ana} />);
    await waitFor(() =>
      expect(status().textContent).toBe(
        "Strength: very weak. This password is too common: it is on lists of leaked passwords",
      ),
    );
    expect(status().getAttribute("aria-live")).toBe("polite");
    rerender(<PasswordStrengthMeter password="anagarcia" owner={ana} />);
    await waitFor(() =>
      expect(status().textContent).toContain("The password is too close to your name or e-mail"),
    );
    rerender(<PasswordStrengthMeter password="Quartz-lantern-meadow-7" owner={ana} />);
    await waitFor(() => expect(status().textContent).toBe("Strength: strong."));
    rerender(<PasswordStrengthMeter password="" owner={ana} />);
    await waitFor(() => expect(status().textContent).toBe(""));
  });

  it("speaks Spanish", async () => {
    await act(() => setLanguage("es"));
    render(<PasswordStrengthMeter password="qwertyuiop" owner={ana} />);
    await waitFor(() =>
      expect(status().textContent).toBe(
        "Seguridad: muy débil. Esta contraseña es demasiado común: está en listas de contraseñas filtradas",
      ),
    );
  });
});
