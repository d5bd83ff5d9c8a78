import { useId, useState } from "react";
import { useSearchParams } from "react-router";
import { ChevronDown, History, X } from "lucide-react";
import { useTranslation, type Language, type Translate } from "@/i18n";
import { AUDIT_ENTITIES, type AuditEntity, type AuditEntry } from "@voltio/domain/audit";
import { LoadError } from "@/components/LoadError";
import { usePageTitle } from "@/components/page-title";
import { Button } from "@/components/ui/Button";
import { Card } from "@/components/ui/Card";
import { AdminTable } from "../AdminTable";
import { Field } from "../Field";
import { PageBar } from "../PageBar";
import { useAdmins, useAuditLog, type AuditFilters } from "./api";
import { EntryDetails } from "./EntryDetails";

const positive = (value: string | null) => {
  const number = Number(value);
  return Number.isInteger(number) && number > 0 ? number : undefined;
};

const entityOf = (value: string | null) =>
  AUDIT_ENTITIES.find((entity) => entity === value) as AuditEntity | undefined;

/** Date and time to the second, in the page's language and the admin's time zone. */
const when = (iso: string, language: Language) =>
  new Intl.DateTimeFormat(language === "es" ? "es" : "en-US", {
    dateStyle: "medium",
    timeStyle: "medium",
  }).format(new Date(iso));

const actorName = (actor: AuditEntry["actor"], t: Translate) =>
  actor ? `${actor.firstName} ${actor.lastName}`.trim() || actor.email : t("admin.audit.deleted");

const selectClass = "h-11 w-full rounded-xl border border-line bg-card px-3 text-sm text-ink";

/**
 * /admin/audit (beyond docs/product-rules.md): every change an admin made, newest first — when, who,
 * what and to which record, with its before/after — filtered by kind of record and by admin, both in the
 * URL, paged by the server.
 */
export function AuditPage() {
  const { t } = useTranslation();
  usePageTitle(t("titles.page", { page: t("admin.audit.title") }));
  const [params, setParams] = useSearchParams();
  const filters: AuditFilters = {
    entity: entityOf(params.get("entity")),
    actorId: positive(params.get("actorId")),
    page: positive(params.get("page")) ?? 1,
  };
  const log = useAuditLog(filters);
  const admins = useAdmins();
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const entityId = useId();
  const adminId = useId();

  const go = (next: Partial<AuditFilters>) => {
    const merged = { ...filters, page: 1, ...next };
    const search = new URLSearchParams();
    if (merged.entity) search.set("entity", merged.entity);
    if (merged.actorId) search.set("actorId", String(merged.actorId));
    if (merged.page > 1) search.set("page", String(merged.page));
    setParams(search);
  };

  const toggle = (id: number) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  // The filter offers every admin the users list knows, and whoever acted on this page or is chosen.
  const people = new Map<number, string>();
  for (const admin of admins.data ?? []) people.set(admin.id, `${admin.firstName} ${admin.lastName}`.trim());
  for (const entry of log.data?.entries ?? [])
    if (entry.actor && !people.has(entry.actor.id)) people.set(entry.actor.id, actorName(entry.actor, t));
  if (filters.actorId && !people.has(filters.actorId))
    people.set(filters.actorId, t("admin.audit.adminNumber", { id: filters.actorId }));

  const entries = log.data?.entries;
  const totalPages = Math.max(log.data?.totalPages ?? 1, 1);
  const filtered = filters.entity !== undefined || filters.actorId !== undefined;

  return (
    <div className="flex flex-col gap-5">
      <h1 className="text-2xl font-bold tracking-tight text-ink">{t("admin.audit.title")}</h1>
      <div className="grid items-end gap-3 sm:grid-cols-[1fr_1fr_auto]">
        <Field small id={entityId} label={t("admin.audit.entity")}>
          <select
            id={entityId}
            value={filters.entity ?? ""}
            onChange={(event) => go({ entity: entityOf(event.target.value) })}
            className={selectClass}
          >
            <option value="">{t("admin.audit.allEntities")}</option>
            {AUDIT_ENTITIES.map((entity) => (
              <option key={entity} value={entity}>
                {t(`admin.audit.entities.${entity}`)}
              </option>
            ))}
          </select>
        </Field>
        <Field small id={adminId} label={t("admin.audit.admin")}>
          <select
            id={adminId}
            value={filters.actorId ?? ""}
            onChange={(event) => go({ actorId: positive(event.target.value) })}
            className={selectClass}
          >
            <option value="">{t("admin.audit.allAdmins")}</option>
            {[...people].map(([id, name]) => (
              <option key={id} value={id}>
                {name}
              </option>
            ))}
          </select>
        </Field>
        {filtered && (
          <Button variant="secondary" size="lg" className="text-sm" onClick={() => setParams({})}>
            <X size={16} aria-hidden />
            {t("admin.audit.clear")}
          </Button>
        )}
      </div>

      <Card as="section" size="lg" aria-label={t("admin.audit.list")} className="overflow-hidden">
        {log.isError && !entries ? (
          <LoadError onRetry={() => void log.refetch()} className="px-6 py-12" />
        ) : !entries ? (
          <p role="status" className="p-5 text-muted">
            {t("common.loading")}
          </p>
        ) : entries.length === 0 ? (
          <p className="flex flex-col items-center gap-3 px-6 py-14 text-center text-muted">
            <History size={32} aria-hidden className="text-accent-strong" />
            {t(filtered ? "admin.audit.emptyFiltered" : "admin.audit.empty")}
          </p>
        ) : (
          <>
            {/* Wide screens: a table. */}
            <AdminTable
              className="hidden md:block"
              columns={[
                { key: "when", label: t("admin.audit.when") },
                { key: "who", label: t("admin.audit.who") },
                { key: "action", label: t("admin.audit.action") },
                { key: "record", label: t("admin.audit.record") },
                { key: "changes", label: t("admin.audit.changes"), hideLabel: true },
              ]}
            >
              <tbody className="divide-y divide-line">
                {entries.map((entry) => (
                  <EntryRow key={entry.id} entry={entry} open={open.has(entry.id)} onToggle={toggle} />
                ))}
              </tbody>
            </AdminTable>
            {/* Phones: a card per entry. */}
            <ul className="divide-y divide-line md:hidden">
              {entries.map((entry) => (
                <EntryCard key={entry.id} entry={entry} open={open.has(entry.id)} onToggle={toggle} />
              ))}
            </ul>
          </>
        )}
      </Card>

      {totalPages > 1 && (
        <PageBar
          label={t("admin.audit.pages")}
          page={filters.page}
          totalPages={totalPages}
          onPage={(page) => go({ ...filters, page })}
        />
      )}
    </div>
  );
}

interface EntryProps {
  entry: AuditEntry;
  open: boolean;
  onToggle: (id: number) => void;
}

function Actor({ actor }: { actor: AuditEntry["actor"] }) {
  const { t } = useTranslation();
  if (!actor) return <span className="text-muted italic">{t("admin.audit.deleted")}</span>;
  return (
    <span className="flex min-w-0 flex-col">
      <span className="truncate text-ink">{actorName(actor, t)}</span>
      <span className="truncate text-xs text-muted">{actor.email}</span>
    </span>
  );
}

const Action = ({ action }: { action: string }) => (
  <code className="rounded-md bg-accent-soft px-1.5 py-0.5 font-mono text-xs text-accent-strong">
    {action}
  </code>
);

/** Shows or hides the entry's before/after; its name says which entry it opens. */
function ToggleButton({ entry, open, onToggle, controls }: EntryProps & { controls: string }) {
  const { t } = useTranslation();
  return (
    <Button
      variant="ghost"
      size="sm"
      aria-expanded={open}
      aria-controls={controls}
      onClick={() => onToggle(entry.id)}
    >
      <ChevronDown size={16} aria-hidden className={`transition ${open ? "rotate-180" : ""}`} />
      {t("admin.audit.changes")}
      <span className="sr-only">
        {t("admin.audit.of", { action: entry.action, id: entry.entityId ?? "—" })}
      </span>
    </Button>
  );
}

function EntryRow({ entry, open, onToggle }: EntryProps) {
  const { language } = useTranslation();
  const detailsId = `audit-row-${entry.id}`;
  return (
    <>
      <tr className="align-top">
        <td className="px-4 py-3 whitespace-nowrap text-muted tabular-nums">
          <time dateTime={entry.createdAt}>{when(entry.createdAt, language)}</time>
        </td>
        <td className="max-w-56 px-4 py-3">
          <Actor actor={entry.actor} />
        </td>
        <td className="px-4 py-3">
          <Action action={entry.action} />
        </td>
        <td className="px-4 py-3 text-ink tabular-nums">{entry.entityId ? `#${entry.entityId}` : "—"}</td>
        <td className="px-4 py-2 text-right">
          <ToggleButton entry={entry} open={open} onToggle={onToggle} controls={detailsId} />
        </td>
      </tr>
      {open && (
        <tr>
          <td colSpan={5} className="bg-surface/50 px-4 pb-4">
            <EntryDetails details={entry.details} id={detailsId} />
          </td>
        </tr>
      )}
    </>
  );
}

function EntryCard({ entry, open, onToggle }: EntryProps) {
  const { t, language } = useTranslation();
  const detailsId = `audit-card-${entry.id}`;
  return (
    <li className="flex flex-col gap-2 p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Action action={entry.action} />
        <span className="text-sm text-ink tabular-nums">
          {t("admin.audit.record")} {entry.entityId ? `#${entry.entityId}` : "—"}
        </span>
      </div>
      <div className="text-sm">
        <Actor actor={entry.actor} />
      </div>
      <div className="flex items-center justify-between gap-2">
        <time dateTime={entry.createdAt} className="text-xs text-muted tabular-nums">
          {when(entry.createdAt, language)}
        </time>
        <ToggleButton entry={entry} open={open} onToggle={onToggle} controls={detailsId} />
      </div>
      {open && <EntryDetails details={entry.details} id={detailsId} />}
    </li>
  );
}

export default AuditPage;
