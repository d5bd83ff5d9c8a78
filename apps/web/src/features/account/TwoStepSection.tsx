import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { useLocation } from "react-router";
import { ShieldCheck } from "lucide-react";
import type { TotpEnrolmentReply } from "@voltio/domain/second-factor";
import { useTranslation } from "@/i18n";
import { ApiError } from "@/api/client";
import { TextField } from "@/components/TextField";
import { failureText } from "@/components/form";
import { Button, buttonClass } from "@/components/ui/Button";
import { Card } from "@/components/ui/Card";
import { showToast } from "@/components/ui/toast";
import {
  SET_UP_SECOND_FACTOR,
  useConfirmTotp,
  useDisableTotp,
  useRegenerateRecoveryCodes,
  useSecondFactorStatus,
  useStartTotp,
} from "./second-factor-api";

type Mode =
  | { kind: "idle" }
  | { kind: "enrolling"; enrolment: TotpEnrolmentReply }
  | { kind: "codes"; codes: string[] }
  | { kind: "turn-off" }
  | { kind: "regenerate" };

/** The key as people type it: groups of four. */
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, "$1 ");

/**
 * 'Two-step sign-in' on the profile: set up an authenticator app (QR code or the key by hand, then a first
 * code), see the recovery codes once (copy or download), get new ones, or turn it off with a code. An admin
 * the back office refused for want of a second factor arrives here, told why.
 */
export function TwoStepSection() {
  const { t } = useTranslation();
  const status = useSecondFactorStatus();
  const start = useStartTotp();
  const [mode, setMode] = useState<Mode>({ kind: "idle" });
  const sent = (useLocation().state as { notice?: unknown } | null)?.notice === SET_UP_SECOND_FACTOR;
  const section = useRef<HTMLElement>(null);
  const headingId = useId();

  // Sent by the back office: the section is where the admin must act.
  useEffect(() => {
    if (sent && status.data) {
      section.current?.scrollIntoView({ block: "start" });
      section.current?.focus();
    }
  }, [sent, status.data]);

  if (!status.data) return null;
  const { totpEnabled, recoveryCodesLeft, required, sessionVerified } = status.data;

  const beginSetUp = async () => {
    try {
      setMode({ kind: "enrolling", enrolment: await start.mutateAsync(undefined) });
    } catch (error) {
      showToast(failureText(t, error), "error");
    }
  };

  return (
    <Card
      as="section"
      size="lg"
      raised
      id="two-step-sign-in"
      aria-labelledby={headingId}
      ref={section}
      tabIndex={-1}
      className="p-6 focus-visible:outline-2 focus-visible:outline-accent"
    >
      <h2 id={headingId} className="mb-2 flex items-center gap-2 text-lg font-semibold text-ink">
        <ShieldCheck size={20} aria-hidden />
        {t("twoStep.title")}
      </h2>
      <p className="mb-4 text-sm text-muted">{t("twoStep.intro")}</p>
      {required && !sessionVerified && (
        <p
          role={sent ? "alert" : undefined}
          className="mb-4 rounded-xl border border-sale/40 bg-sale/10 p-3 text-sm text-ink"
        >
          {totpEnabled ? t("twoStep.signInAgain") : t("twoStep.required")}
        </p>
      )}

      {mode.kind === "codes" ? (
        <RecoveryCodes codes={mode.codes} onDone={() => setMode({ kind: "idle" })} />
      ) : mode.kind === "enrolling" && !totpEnabled ? (
        <Enrolment
          enrolment={mode.enrolment}
          onEnabled={(codes) => {
            showToast(t("twoStep.turnedOn"));
            setMode({ kind: "codes", codes });
          }}
          onCancel={() => setMode({ kind: "idle" })}
        />
      ) : totpEnabled ? (
        <div className="flex flex-col gap-4">
          <p className="text-sm font-medium text-ink">
            {t("twoStep.on")}{" "}
            <span className="font-normal text-muted">
              {t("twoStep.codesLeft", { count: recoveryCodesLeft })}.
            </span>
          </p>
          {mode.kind === "regenerate" ? (
            <CodeConfirm
              prompt={t("twoStep.regeneratePrompt")}
              submitLabel={t("twoStep.regenerate")}
              useCall={useRegenerateRecoveryCodes}
              onDone={(reply) => setMode({ kind: "codes", codes: reply.recoveryCodes })}
              onCancel={() => setMode({ kind: "idle" })}
            />
          ) : mode.kind === "turn-off" ? (
            <CodeConfirm
              prompt={t("twoStep.turnOffPrompt")}
              submitLabel={t("twoStep.turnOff")}
              danger
              useCall={useDisableTotp}
              onDone={() => {
                showToast(t("twoStep.turnedOff"));
                setMode({ kind: "idle" });
              }}
              onCancel={() => setMode({ kind: "idle" })}
            />
          ) : (
            <div className="flex flex-wrap gap-3">
              <Button variant="secondary" size="md" onClick={() => setMode({ kind: "regenerate" })}>
                {t("twoStep.regenerate")}
              </Button>
              <Button variant="danger" size="md" onClick={() => setMode({ kind: "turn-off" })}>
                {t("twoStep.turnOff")}
              </Button>
            </div>
          )}
        </div>
      ) : (
        <div className="flex flex-wrap items-center gap-3">
          <p className="text-sm font-medium text-ink">{t("twoStep.off")}</p>
          <Button size="md" onClick={() => void beginSetUp()} disabled={start.isPending}>
            {t("twoStep.setUp")}
          </Button>
        </div>
      )}
    </Card>
  );
}

function Enrolment({
  enrolment,
  onEnabled,
  onCancel,
}: {
  enrolment: TotpEnrolmentReply;
  onEnabled: (codes: string[]) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const keyId = useId();
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-ink">{t("twoStep.scan")}</p>
      <div className="flex flex-wrap items-center gap-4">
        {/* A white quiet zone in both themes: scanners need dark modules on light. */}
        <img
          src={enrolment.qrCode}
          alt={t("twoStep.qrAlt")}
          width={176}
          height={176}
          className="rounded-xl bg-white p-2"
        />
        <div>
          <p id={keyId} className="text-sm text-muted">
            {t("twoStep.manualKey")}
          </p>
          <code
            aria-labelledby={keyId}
            data-secret={enrolment.secret}
            className="block font-mono text-base break-all text-ink select-all"
          >
            {grouped(enrolment.secret)}
          </code>
        </div>
      </div>
      <CodeConfirm
        prompt={t("twoStep.confirmPrompt")}
        submitLabel={t("twoStep.turnOn")}
        codeOnly
        useCall={useConfirmTotp}
        onDone={(reply) => onEnabled(reply.recoveryCodes)}
        onCancel={onCancel}
      />
    </div>
  );
}

/** A code (or recovery code) that proves the app, then the call it allows. */
function CodeConfirm<T>({
  prompt,
  submitLabel,
  codeOnly = false,
  danger = false,
  useCall,
  onDone,
  onCancel,
}: {
  prompt: string;
  submitLabel: string;
  /** Only a code from the app (confirming the set-up): a recovery code doesn't exist yet. */
  codeOnly?: boolean;
  danger?: boolean;
  useCall: () => { mutateAsync: (code: string) => Promise<T>; isPending: boolean };
  onDone: (reply: T) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const call = useCall();
  const [code, setCode] = useState("");
  const [error, setError] = useState<string>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const typed = code.trim();
    if (codeOnly ? !/^\d{6}$/.test(typed) : !typed) {
      setError(codeOnly ? t("twoStep.codeFormat") : t("twoStep.recoveryRequired"));
      return;
    }
    try {
      onDone(await call.mutateAsync(typed));
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 400) {
        setCode("");
        setError(t("twoStep.incorrect"));
      } else showToast(failureText(t, failure), "error");
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="flex flex-col gap-3">
      <p className="text-sm text-ink">{prompt}</p>
      <TextField
        label={codeOnly ? t("twoStep.code") : t("twoStep.codeOrRecovery")}
        name="code"
        value={code}
        onChange={(event) => {
          setCode(event.target.value);
          setError(undefined);
        }}
        error={error}
        showRule
        autoFocus
        autoComplete="one-time-code"
        inputMode={codeOnly ? "numeric" : "text"}
        maxLength={codeOnly ? 6 : 40}
        spellCheck={false}
        autoCapitalize="off"
        className="max-w-xs"
      />
      <div className="flex flex-wrap gap-3">
        <Button type="submit" size="md" variant={danger ? "danger" : "primary"} disabled={call.isPending}>
          {submitLabel}
        </Button>
        <Button size="md" variant="secondary" onClick={onCancel}>
          {t("twoStep.cancel")}
        </Button>
      </div>
    </form>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  const headingId = useId();
  const text = `${codes.join("\n")}\n`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      showToast(t("twoStep.copied"));
    } catch (error) {
      showToast(failureText(t, error), "error");
    }
  };
  return (
    <div role="region" aria-labelledby={headingId} className="flex flex-col gap-3">
      <h3 id={headingId} className="font-semibold text-ink">
        {t("twoStep.recoveryTitle")}
      </h3>
      <p className="text-sm text-muted">{t("twoStep.recoveryIntro")}</p>
      <ul className="grid max-w-md grid-cols-2 gap-2 rounded-xl border border-line bg-surface p-4 font-mono text-ink">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-3">
        <Button size="md" variant="secondary" onClick={() => void copy()}>
          {t("twoStep.copy")}
        </Button>
        <a
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
          download="voltio-recovery-codes.txt"
          className={buttonClass({ variant: "secondary", size: "md" })}
        >
          {t("twoStep.download")}
        </a>
        <Button size="md" onClick={onDone}>
          {t("twoStep.saved")}
        </Button>
      </div>
    </div>
  );
}
