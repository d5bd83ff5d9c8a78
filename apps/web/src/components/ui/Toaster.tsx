import { useEffect } from "react";
import { Toaster as Sonner } from "sonner";
import { TOAST_DURATION_MS } from "@/components/timings";
import { useTheme } from "@/components/theme";
import { toasterMounted } from "./toast";

/** docs/product-rules.md §1, §12: toasts sit bottom-left and close after 2 seconds. */
export default function Toaster() {
  const { dark } = useTheme();
  // Sonner subscribes in its own effect, which runs before this one: messages sent from now on are shown.
  useEffect(() => toasterMounted(), []);
  return (
    <Sonner
      position="bottom-left"
      duration={TOAST_DURATION_MS}
      theme={dark ? "dark" : "light"}
      richColors
      closeButton
    />
  );
}
