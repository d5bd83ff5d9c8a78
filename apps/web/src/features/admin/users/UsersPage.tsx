import { useEffect, useId, useRef, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { Search, ShieldCheck, Trash2, User } from "lucide-react";
import { useTranslation } from "@/i18n";
import type { UserSummary } from "@voltio/domain/account";
import { ApiError } from "@/api/client";
import { useSession } from "@/api/session";
import { ConfirmDialog } from "@/components/ConfirmDialog";
import { LoadError } from "@/components/LoadError";
import { usePageTitle } from "@/components/page-title";
import { Card } from "@/components/ui/Card";
import { IconButton } from "@/components/ui/IconButton";
import { showToast } from "@/components/ui/toast";
import { focusRingClass } from "@/components/ui/focus-ring";
import { textLinkClass } from "@/components/ui/text-link";
import { capitalised } from "../format";
import { AdminTable, adminCellClass } from "../AdminTable";
import { Field } from "../Field";
import { PageBar } from "../PageBar";
import { ProblemAlert } from "../ProblemAlert";
import { useAdminUsers, useDeleteUser, useSetRole } from "./api";

/** One request per pause in typing, not per key. */
const SEARCH_DELAY_MS = 300;
/** docs/product-rules.md §8, §12: user 1 is never demoted (the server refuses too); nor is it deleted. */
const FIRST_ADMIN_ID = 1;

const positive = (value: string | null) => {
  const number = Number(value);
  return value && Number.isInteger(number) && number > 0 ? number : undefined;
};

/** What a refused call said ('The user 1 can't be demoted', …), else a generic failure. */
const reasonOf = (error: unknown, fallback: string) =>
  error instanceof ApiError && error.status >= 400 && error.status < 500 ? error.message : fallback;

const fullName = (user: Pick<UserSummary, "firstName" | "lastName">) =>
  capitalised(`${user.firstName} ${user.lastName}`);

/**
 * /admin/users (docs/product-rules.md §1 Admin users, §8 User role): every account, searched by name or
 * e-mail and paged by the server (?search= and ?page= in the URL). A name opens the customer's page. The role
 * icon toggles the role once the admin confirms it (the dialog names the user and the new
 * role); user 1 stays admin; delete asks 'Delete the User ?'. What the server refuses is shown in its words.
 */
export function UsersPage() {
  const { t } = useTranslation();
  usePageTitle(t("titles.page", { page: t("admin.users.title") }));
  const { user: me } = useSession();
  const [params, setParams] = useSearchParams();
  const search = params.get("search")?.trim() || undefined;
  const page = positive(params.get("page")) ?? 1;
  const users = useAdminUsers({ search, page });
  const [busyId, setBusyId] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<UserSummary | null>(null);
  /** The account whose role waits for the admin's confirmation. */
  const [promoting, setPromoting] = useState<UserSummary | null>(null);
  const [removing, setRemoving] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const headingId = useId();
  const searchId = useId();
  const lockedId = useId();
  const selfId = useId();

  // The box is typed into at once; the URL (and the request) follow once typing pauses.
  const [text, setText] = useState(search ?? "");
  const [seen, setSeen] = useState(search);
  if (seen !== search) {
    // The URL changed under the box (back button): the box follows it unless it already says the same.
    setSeen(search);
    if (text.trim() !== (search ?? "")) setText(search ?? "");
  }
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const type = (value: string) => {
    setText(value);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (value.trim()) next.set("search", value.trim());
          else next.delete("search");
          next.delete("page");
          return next;
        },
        { replace: true },
      );
    }, SEARCH_DELAY_MS);
  };

  const goToPage = (next: number) =>
    setParams((current) => {
      const updated = new URLSearchParams(current);
      if (next > 1) updated.set("page", String(next));
      else updated.delete("page");
      return updated;
    });

  const refused = (error: unknown, fallback: string) => {
    const message = reasonOf(error, fallback);
    setProblem(message);
    showToast(message, "error");
  };

  const setRole = useSetRole({
    onSuccess: (changed) =>
      showToast(
        t("admin.users.roleChanged", {
          name: fullName(changed),
          role: t(`admin.users.roles.${changed.rol}`),
        }),
      ),
    onError: (error) => refused(error, t("admin.users.failed")),
    onSettled: () => setBusyId(null),
  });
  const toggle = (user: UserSummary) => {
    setPromoting(null);
    setBusyId(user.id);
    setProblem(null);
    // The role the dialog named, not a toggle: a list read before someone else's change can't flip it back.
    setRole.mutate({ id: user.id, rol: user.rol === "admin" ? "user" : "admin" });
  };

  const deleteUser = useDeleteUser({
    onSuccess: () => showToast(t("admin.users.deleted")),
    onError: (error) => refused(error, t("admin.users.failed")),
    onSettled: () => {
      setRemoving(false);
      setDeleting(null);
    },
  });
  const remove = () => {
    if (!deleting) return;
    setRemoving(true);
    setProblem(null);
    deleteUser.mutate(deleting.id);
  };

  const cell = `${adminCellClass} align-middle`;
  // Phones get one 'User' column (name over e-mail) instead of three, so role and delete stay in view.
  const wide = "hidden sm:table-cell";
  const narrow = "sm:hidden";
  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h1 id={headingId} className="text-2xl font-bold tracking-tight text-ink">
          {t("admin.users.title")}
        </h1>
        <form role="search" onSubmit={(event) => event.preventDefault()} className="w-full sm:w-80">
          <Field small id={searchId} label={t("admin.users.search")}>
            <div className="relative">
              <Search
                size={16}
                aria-hidden
                className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-muted"
              />
              <input
                id={searchId}
                type="search"
                value={text}
                onChange={(event) => type(event.target.value)}
                autoComplete="off"
                className="h-11 w-full rounded-xl border border-line bg-card pr-3 pl-9 text-sm text-ink focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent"
              />
            </div>
          </Field>
        </form>
      </div>

      {problem && <ProblemAlert onDismiss={() => setProblem(null)}>{problem}</ProblemAlert>}

      <Card as="section" size="lg" aria-labelledby={headingId} className="overflow-hidden">
        {users.isError ? (
          <LoadError onRetry={() => void users.refetch()} className="px-6 py-12" />
        ) : users.isPending ? (
          <p role="status" className="p-5 text-muted">
            {t("common.loading")}
          </p>
        ) : users.data.users.length === 0 ? (
          <p role="status" className="p-5 text-muted">
            {t("admin.users.none")}
          </p>
        ) : (
          <AdminTable
            tableClassName="sm:min-w-[40rem]"
            columns={[
              { key: "id", label: t("admin.users.id"), align: "right" },
              { key: "firstName", label: t("admin.users.firstName"), className: wide },
              { key: "lastName", label: t("admin.users.lastName"), className: wide },
              { key: "email", label: t("admin.users.email"), className: wide },
              { key: "user", label: t("admin.users.user"), className: narrow },
              { key: "role", label: t("admin.users.role") },
              { key: "delete", label: t("admin.users.delete"), align: "right" },
            ]}
          >
            <tbody className="divide-y divide-line">
              {users.data.users.map((user) => {
                const name = fullName(user);
                const locked = user.id === FIRST_ADMIN_ID;
                const self = user.id === me?.id;
                const admin = user.rol === "admin";
                return (
                  <tr key={user.id} className="hover:bg-surface">
                    <td className={`${cell} text-right text-muted tabular-nums`}>{user.id}</td>
                    <td className={`${cell} ${wide} text-ink`}>
                      <Link
                        to={`/admin/customers/${user.id}`}
                        aria-label={t("customer.open", { name })}
                        className={`font-medium ${textLinkClass}`}
                      >
                        {capitalised(user.firstName)}
                      </Link>
                    </td>
                    <td className={`${cell} ${wide} text-ink`}>{capitalised(user.lastName)}</td>
                    <td className={`${cell} ${wide} break-all text-ink`}>{user.email}</td>
                    <td className={`${cell} ${narrow}`}>
                      <Link
                        to={`/admin/customers/${user.id}`}
                        aria-label={t("customer.open", { name })}
                        className={`block font-medium text-ink ${textLinkClass}`}
                      >
                        {name}
                      </Link>
                      <span className="block text-xs break-all text-muted">{user.email}</span>
                    </td>
                    <td className={cell}>
                      <button
                        type="button"
                        onClick={() => setPromoting(user)}
                        disabled={locked || busyId === user.id}
                        aria-label={t(locked ? "admin.users.roleOf" : "admin.users.switchRole", {
                          name,
                          role: t(`admin.users.roles.${user.rol}`),
                          next: t(`admin.users.roles.${admin ? "user" : "admin"}`),
                        })}
                        aria-describedby={locked ? lockedId : undefined}
                        title={locked ? t("admin.users.firstAdmin") : undefined}
                        className={`inline-flex h-9 items-center gap-1.5 rounded-full border px-3 text-xs font-semibold transition ${focusRingClass} disabled:cursor-not-allowed ${
                          admin
                            ? "border-accent bg-accent-soft text-accent-strong enabled:hover:bg-accent enabled:hover:text-on-accent"
                            : "border-line bg-card text-ink enabled:hover:border-accent enabled:hover:text-accent-strong"
                        }`}
                      >
                        {admin ? <ShieldCheck size={16} aria-hidden /> : <User size={16} aria-hidden />}
                        {t(`admin.users.roles.${user.rol}`)}
                      </button>
                      {locked && (
                        <span id={lockedId} className="mt-1 block text-xs text-muted">
                          {t("admin.users.firstAdmin")}
                        </span>
                      )}
                    </td>
                    <td className={`${cell} text-right`}>
                      <IconButton
                        label={t("admin.users.deleteOf", { name })}
                        icon={<Trash2 size={18} aria-hidden />}
                        size="sm"
                        className="ml-auto"
                        disabled={locked || self}
                        aria-describedby={self ? selfId : undefined}
                        onClick={() => setDeleting(user)}
                      />
                      {self && !locked && (
                        <span id={selfId} className="sr-only">
                          {t("admin.users.notYourself")}
                        </span>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </AdminTable>
        )}
      </Card>

      <PageBar
        label={t("admin.users.pages")}
        page={page}
        totalPages={users.data?.totalPages ?? 1}
        onPage={goToPage}
      />

      <ConfirmDialog
        open={promoting !== null}
        onOpenChange={(open) => {
          if (!open) setPromoting(null);
        }}
        title={
          promoting
            ? t(promoting.rol === "admin" ? "customer.roleConfirm.revoke" : "customer.roleConfirm.grant", {
                name: fullName(promoting),
              })
            : ""
        }
        description={
          promoting
            ? t(
                promoting.rol === "admin"
                  ? "customer.roleConfirm.revokeDetail"
                  : "customer.roleConfirm.grantDetail",
                { email: promoting.email },
              )
            : undefined
        }
        onAccept={() => promoting && toggle(promoting)}
      />

      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => {
          if (!open && !removing) setDeleting(null);
        }}
        title={t("admin.users.confirmDelete")}
        description={deleting ? `${fullName(deleting)} · ${deleting.email}` : undefined}
        onAccept={remove}
        busy={removing}
      />
    </div>
  );
}

export default UsersPage;
