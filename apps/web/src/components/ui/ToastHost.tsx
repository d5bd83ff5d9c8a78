import { lazy, Suspense, useEffect, useState } from "react";
import { registerToastHost } from "./toast";

const Toaster = lazy(() => import("./Toaster"));

/** Mounted once in the layout; renders the real Toaster only when the first toast is asked for. */
export function ToastHost() {
  const [wanted, setWanted] = useState(false);
  useEffect(() => registerToastHost(() => setWanted(true)), []);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
