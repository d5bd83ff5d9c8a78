import { useRef } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Monitor } from "lucide-react";
import type { EndedSessionsReply, Session } from "@voltio/domain/sessions";
import { useTranslation, type Translate } from "@/i18n";
import { apiFetch } from "@/api/client";
import { SESSION_KEY } from "@/api/session";
import { failureText } from "@/components/form";
import { Button } from "@/components/ui/Button";
import { Card } from "@/components/ui/Card";
import { showToast } from "@/components/ui/toast";
import { localDateTime } from "./date-format";

/** Under the user's key: signing in or out re-reads it with everything else about the user. */
const SESSIONS_KEY = [...SESSION_KEY, "sessions"] as const;

const sessionName = (t: Translate, session: Session) =>
  t("sessions.name", {
    browser: session.browser ?? t("sessions.unknownBrowser"),
    system: session.system ?? t("sessions.unknownSystem"),
  });

/**
 * "Your sessions": every open login of the account, this device's marked, the others each with "End", and
 * "End all other sessions". An ended session's next request is refused by the server, which signs it out.
 */
export function SessionsCard() {
  const { t, language } = useTranslation();
  const client = useQueryClient();
  const heading = useRef<HTMLHeadingElement>(null);
  const sessions = useQuery({
    queryKey: SESSIONS_KEY,
    queryFn: ({ signal }) => apiFetch<Session[]>("/user/sessions", { signal }),
  });
  const done = (message: string) => {
    showToast(message);
    // The ended row and its button go: the focus stays in the section instead of falling to the page.
    heading.current?.focus();
    return client.invalidateQueries({ queryKey: SESSIONS_KEY });
  };
  const endOne = useMutation({
    mutationFn: (id: string) => apiFetch(`/user/sessions/${id}`, { method: "DELETE" }),
    onSuccess: () => done(t("sessions.ended")),
    onError: (error) => showToast(failureText(t, error), "error"),
  });
  const endOthers = useMutation({
    mutationFn: () => apiFetch<EndedSessionsReply>("/user/sessions", { method: "DELETE" }),
    onSuccess: ({ ended }) => done(t("sessions.endedOthers", { count: ended })),
    onError: (error) => showToast(failureText(t, error), "error"),
  });
  const busy = endOne.isPending || endOthers.isPending;
  const others = sessions.data?.filter((session) => !session.current) ?? [];

  return (
    <Card as="section" size="lg" raised aria-labelledby="your-sessions" className="p-6">
      <div className="mb-2 flex flex-wrap items-center justify-between gap-3">
        <h2 id="your-sessions" ref={heading} tabIndex={-1} className="text-lg font-semibold text-ink">
          {t("sessions.title")}
        </h2>
        {others.length > 0 && (
          <Button variant="danger" size="md" disabled={busy} onClick={() => endOthers.mutate()}>
            {t("sessions.endOthers")}
          </Button>
        )}
      </div>
      <p className="mb-4 text-sm text-muted">{t("sessions.intro")}</p>
      {sessions.isPending ? (
        <p role="status" className="text-sm text-muted">
          {t("sessions.loading")}
        </p>
      ) : sessions.isError ? (
        <p role="alert" className="text-sm text-sale">
          {t("sessions.failed")}
        </p>
      ) : (
        <>
          <ul className="flex flex-col divide-y divide-line">
            {sessions.data.map((session) => {
              const name = sessionName(t, session);
              const lastUsed = localDateTime(session.lastUsedAt, language);
              return (
                <li key={session.id} className="flex flex-wrap items-center gap-3 py-3">
                  <Monitor aria-hidden className="size-5 shrink-0 text-muted" />
                  <div className="min-w-0 flex-1">
                    <p className="flex flex-wrap items-center gap-2 font-medium text-ink">
                      {name}
                      {session.current && (
                        <span className="rounded-full bg-accent-soft px-2 py-0.5 text-xs font-semibold text-accent-strong">
                          {t("sessions.thisDevice")}
                        </span>
                      )}
                    </p>
                    <p className="text-sm text-muted">
                      {t("sessions.created", { date: localDateTime(session.createdAt, language) })}
                      {" · "}
                      {t("sessions.lastUsed", { date: lastUsed })}
                    </p>
                  </div>
                  {!session.current && (
                    <Button
                      variant="secondary"
                      size="sm"
                      disabled={busy}
                      aria-label={t("sessions.endLabel", { name, date: lastUsed })}
                      onClick={() => endOne.mutate(session.id)}
                    >
                      {t("sessions.end")}
                    </Button>
                  )}
                </li>
              );
            })}
          </ul>
          {others.length === 0 && <p className="mt-2 text-sm text-muted">{t("sessions.none")}</p>}
        </>
      )}
    </Card>
  );
}
