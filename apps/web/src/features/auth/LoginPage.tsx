import { useState } from "react";
import { Navigate, useNavigate } from "react-router";
import { useTranslation } from "@/i18n";
import { Card } from "@/components/ui/Card";
import { useQueryClient } from "@tanstack/react-query";
import { Zap } from "lucide-react";
import { checkEmail, googleLogin, useAuthOptions, useSession } from "@/api/session";
import { usePageTitle } from "@/components/page-title";
import { showToast } from "@/components/ui/toast";
import { EmailStep } from "./EmailStep";
import { requestGoogleCredential } from "./google";
import { LoginForm } from "./LoginForm";
import { RegisterForm } from "./RegisterForm";

export type Step = { kind: "email" } | { kind: "login"; email: string } | { kind: "register"; email: string };

/**
 * /login (SPEC.md §2, §4): the e-mail step, then the Login or the Register form by the server's reply, or
 * Google sign-in for a Google account. Signed in, the shopper goes home.
 */
export function LoginPage() {
  const { t } = useTranslation();
  usePageTitle(t("titles.page", { page: t("auth.pageTitle") }));
  const navigate = useNavigate();
  const client = useQueryClient();
  const { user } = useSession();
  const options = useAuthOptions();
  const [step, setStep] = useState<Step>({ kind: "email" });
  const googleClientId = options.data?.googleClientId ?? null;

  const signedIn = (firstName: string | undefined) => {
    showToast(t("auth.welcome", { name: firstName ?? "" }));
    void navigate("/", { replace: true });
  };

  // SPEC.md §8: a Google sign-in failure is thrown and only logged.
  const signInWithGoogle = async () => {
    try {
      if (!googleClientId) throw new Error("Google sign-in is not configured");
      const credential = await requestGoogleCredential(googleClientId);
      const me = await googleLogin(client, credential);
      signedIn(me?.firstName);
    } catch (error) {
      console.error("Google sign-in failed", error);
    }
  };

  const emailChecked = async (email: string) => {
    const reply = await checkEmail(email);
    if (reply.msg.includes("doesn't")) setStep({ kind: "register", email });
    else if (reply.googleUser) await signInWithGoogle();
    else setStep({ kind: "login", email });
  };

  if (user) return <Navigate to="/" replace />;

  return (
    <div className="mx-auto flex max-w-md flex-col items-center py-6 sm:py-12">
      <Card size="lg" raised className="w-full p-6 sm:p-8">
        <div className="mb-6 flex flex-col items-center text-center">
          <span className="mb-3 grid h-12 w-12 place-items-center rounded-2xl bg-accent text-on-accent shadow-sm">
            <Zap size={24} aria-hidden fill="currentColor" />
          </span>
          <h1 className="text-2xl font-bold tracking-tight text-ink">
            {step.kind === "email"
              ? t("auth.pageTitle")
              : step.kind === "login"
                ? t("auth.loginTitle")
                : t("auth.registerTitle")}
          </h1>
        </div>
        {step.kind === "email" && (
          <EmailStep
            onChecked={emailChecked}
            google={googleClientId ? () => void signInWithGoogle() : undefined}
          />
        )}
        {step.kind === "login" && (
          <LoginForm
            email={step.email}
            onSignedIn={signedIn}
            onOtherEmail={() => setStep({ kind: "email" })}
          />
        )}
        {step.kind === "register" && (
          <RegisterForm
            email={step.email}
            onRegistered={(email) => setStep({ kind: "login", email })}
            onOtherEmail={() => setStep({ kind: "email" })}
          />
        )}
      </Card>
    </div>
  );
}

export default LoginPage;
