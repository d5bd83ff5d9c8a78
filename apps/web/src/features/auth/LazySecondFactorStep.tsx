import { lazy, Suspense, type ComponentProps } from "react";
import { lazyWithTexts } from "@/i18n";
import type { SecondFactorStep } from "./SecondFactorStep";

type Props = ComponentProps<typeof SecondFactorStep>;

const Step = lazyWithTexts<Props>(
  () => import("./SecondFactorStep").then((module) => ({ default: module.SecondFactorStep })),
  "security",
);
const PasskeySecondFactor = lazy(() =>
  import("./PasskeyButtons").then((module) => ({ default: module.PasskeySecondFactor })),
);

/**
 * The second step, its texts and its passkey option come only when the server asks for a second factor:
 * most sign-ins never need them, and the login page's first visit stays within the storefront's budget.
 */
export function LazySecondFactorStep(props: Omit<Props, "passkey">) {
  return (
    <Suspense fallback={null}>
      <Step
        {...props}
        passkey={(slot) => (
          <Suspense fallback={null}>
            <PasskeySecondFactor {...slot} />
          </Suspense>
        )}
      />
    </Suspense>
  );
}
