import { lazy, Suspense, useState, useSyncExternalStore } from "react";
import { Navigate, useLocation, useNavigate } from "react-router";
import { loadTexts, useTranslation } from "@/i18n";
import { useAuthOptions, useSession, type PendingSecondFactor } from "@/api/session";
import { usePageTitle } from "@/components/page-title";
import { showToast } from "@/components/ui/toast";
import { useCheckEmail, useGoogleLogin } from "./api";
import { AuthCard, SuccessNote } from "./AuthCard";
import { EmailStep } from "./EmailStep";
import { requestGoogleCredential } from "./google";
import { PASSWORD_CHANGED } from "./login-notice";
import { LazySecondFactorStep } from "./LazySecondFactorStep";

// The forms after the e-mail step come with the server's answer to it, not with the page.
const loadLoginForm = () => import("./LoginForm");
// The Register form shows the password strength meter, whose texts are the security pack's.
const loadRegisterForm = () =>
  Promise.all([import("./RegisterForm"), loadTexts("security")]).then(([module]) => module);
const LoginForm = lazy(() => loadLoginForm().then((module) => ({ default: module.LoginForm })));
// Shown only once the browser says it can use passkeys: nothing to draw before its code is here.
const NOTHING_TO_WATCH = () => () => {};
const IN_BROWSER = () => true;
const ON_SERVER = () => false;
const PasskeySignIn = lazy(() =>
  import("./PasskeyButtons").then((module) => ({ default: module.PasskeySignIn })),
);
const RegisterForm = lazy(() => loadRegisterForm().then((module) => ({ default: module.RegisterForm })));

/**
 * `password` is set only right after signing up: the Login form opens filled in. It
 * lives in this component's memory alone — never in the URL, browser storage or history state.
 */
export type Step =
  | { kind: "email" }
  | { kind: "login"; email: string; password?: string }
  | { kind: "register"; email: string }
  | { kind: "second-factor"; pending: PendingSecondFactor };

/**
 * /login (docs/product-rules.md §1, §8): the e-mail step, then the Login or the Register form by the server's reply, or
 * Google sign-in for a Google account. Signed in, the shopper goes home.
 */
export function LoginPage() {
  const { t } = useTranslation();
  usePageTitle(t("titles.page", { page: t("auth.pageTitle") }));
  const navigate = useNavigate();
  const checkEmail = useCheckEmail();
  const googleLogin = useGoogleLogin();
  const { user } = useSession();
  const options = useAuthOptions();
  // After a password reset (ResetPasswordPage): the Login form of that e-mail, saying so.
  const arrived = useLocation().state as { notice?: unknown; email?: unknown } | null;
  const notice = arrived?.notice;
  const [step, setStep] = useState<Step>(
    typeof arrived?.email === "string" ? { kind: "login", email: arrived.email } : { kind: "email" },
  );
  const googleClientId = options.data?.googleClientId ?? null;
  // The passkey button is the browser's alone: the server can't tell whether it supports passkeys, and a lazy
  // part it rendered would suspend there and make the browser redraw the form instead of hydrating it.
  const inBrowser = useSyncExternalStore(NOTHING_TO_WATCH, IN_BROWSER, ON_SERVER);

  const signedIn = (firstName: string | undefined) => {
    showToast(t("auth.welcome", { name: firstName ?? "" }));
    void navigate("/", { replace: true });
  };

  // docs/product-rules.md §10.7: a Google sign-in failure is thrown and only logged.
  const signInWithGoogle = async () => {
    try {
      if (!googleClientId) throw new Error("Google sign-in is not configured");
      const credential = await requestGoogleCredential(googleClientId);
      const result = await googleLogin.mutateAsync(credential);
      if ("secondFactor" in result) setStep({ kind: "second-factor", pending: result.secondFactor });
      else signedIn(result.user?.firstName);
    } catch (error) {
      console.error("Google sign-in failed", error);
    }
  };

  const emailChecked = async (email: string) => {
    const reply = await Promise.all([
      checkEmail.mutateAsync(email),
      loadLoginForm(),
      loadRegisterForm(),
    ]).then(([reply]) => reply);
    if (reply.msg.includes("doesn't")) setStep({ kind: "register", email });
    else if (reply.googleUser) await signInWithGoogle();
    else setStep({ kind: "login", email });
  };

  if (user) return <Navigate to="/" replace />;

  return (
    <AuthCard
      title={
        step.kind === "email"
          ? t("auth.pageTitle")
          : step.kind === "login"
            ? t("auth.loginTitle")
            : step.kind === "register"
              ? t("auth.registerTitle")
              : t("auth.loginTitle")
      }
    >
      <SuccessNote>
        {notice === PASSWORD_CHANGED && step.kind !== "register" && t("passwordReset.changed")}
      </SuccessNote>
      {step.kind === "email" && (
        <EmailStep
          onChecked={emailChecked}
          google={googleClientId ? () => void signInWithGoogle() : undefined}
        />
      )}
      {step.kind === "email" && inBrowser && (
        <Suspense fallback={null}>
          <PasskeySignIn onSignedIn={signedIn} />
        </Suspense>
      )}
      {step.kind === "second-factor" && (
        <LazySecondFactorStep
          pending={step.pending}
          onSignedIn={signedIn}
          onRestart={() => setStep({ kind: "email" })}
        />
      )}
      {/* Only after a password reset does the page open on the Login form, before its code is here. */}
      <Suspense fallback={null}>
        {step.kind === "login" && (
          <LoginForm
            email={step.email}
            password={step.password}
            onSignedIn={signedIn}
            onOtherEmail={() => setStep({ kind: "email" })}
          />
        )}
        {step.kind === "register" && (
          <RegisterForm
            email={step.email}
            onRegistered={(email, password) => setStep({ kind: "login", email, password })}
            onOtherEmail={() => setStep({ kind: "email" })}
          />
        )}
      </Suspense>
    </AuthCard>
  );
}

export default LoginPage;
