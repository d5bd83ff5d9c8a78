import { useTranslation } from "@/i18n";
import { focusRingClass } from "@/components/ui/focus-ring";
import { changesOf, shown } from "./changes";

/**
 * An audit entry's before/after: a table of the fields that changed, and the whole record as JSON for what
 * the table can't say (extra keys, nested values).
 */
export function EntryDetails({ details, id }: { details: unknown; id: string }) {
  const { t } = useTranslation();
  const changes = changesOf(details);
  const empty = <span className="text-muted italic">{t("admin.audit.none")}</span>;
  return (
    <div id={id} className="flex flex-col gap-3">
      {changes === null ? null : changes.length === 0 ? (
        <p className="text-sm text-muted">{t("admin.audit.noChanges")}</p>
      ) : (
        <div className="overflow-x-auto rounded-xl border border-line">
          <table className="w-full text-left text-xs">
            <caption className="sr-only">{t("admin.audit.changes")}</caption>
            <thead className="bg-surface text-muted">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium">
                  {t("admin.audit.field")}
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  {t("admin.audit.before")}
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  {t("admin.audit.after")}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {changes.map((change) => (
                <tr key={change.field} className="align-top">
                  <th scope="row" className="px-3 py-2 font-mono font-medium text-ink">
                    {change.field}
                  </th>
                  <td className="max-w-xs px-3 py-2 break-words text-sale">
                    {shown(change.before) === null ? empty : <del>{shown(change.before)}</del>}
                  </td>
                  <td className="max-w-xs px-3 py-2 break-words text-success">
                    {shown(change.after) === null ? (
                      empty
                    ) : (
                      <ins className="no-underline">{shown(change.after)}</ins>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <details className="group rounded-xl border border-line" open={changes === null}>
        <summary
          className={`cursor-pointer rounded-xl px-3 py-2 text-xs font-medium text-accent-strong ${focusRingClass}`}
        >
          {t("admin.audit.raw")}
        </summary>
        {/* A long record scrolls: the keyboard reaches it too. */}
        <pre
          tabIndex={0}
          role="region"
          aria-label={t("admin.audit.raw")}
          className="max-h-80 overflow-auto border-t border-line bg-surface p-3 text-xs leading-relaxed text-ink"
        >
          {JSON.stringify(details, null, 2)}
        </pre>
      </details>
    </div>
  );
}
