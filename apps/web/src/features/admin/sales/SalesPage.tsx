import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { useSearchParams } from "react-router";
import { useForm, useWatch } from "react-hook-form";
import { ListChecks, Percent, PlusCircle } from "lucide-react";
import { useTranslation } from "@/i18n";
import type { Sale } from "@voltio/domain/catalog";
import { ApiError } from "@/api/client";
import { ConfirmDialog } from "@/components/ConfirmDialog";
import { LoadError } from "@/components/LoadError";
import { usePageTitle } from "@/components/page-title";
import { Button } from "@/components/ui/Button";
import { Card } from "@/components/ui/Card";
import { showToast } from "@/components/ui/toast";
import { focusRingClass } from "@/components/ui/focus-ring";
import { useDeleteSale, useSaleList, useSaveSale, type SaleBody } from "./api";
import {
  draftOf,
  emptyDraft,
  fieldOf,
  preselectedProduct,
  saleResolver,
  type FieldErrors,
  type SaleDraft,
  type SaleField,
} from "./draft";
import { SaleForm, type ServerProblem } from "./SaleForm";
import { SaleList } from "./SaleList";

const TABS = ["active", "create"] as const;
type Tab = (typeof TABS)[number];

/** What a refused call said: the server's message and details as they came, or a generic failure. */
function problemOf(error: unknown, fallback: string): ServerProblem {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
    const body = error.body as { details?: unknown } | undefined;
    const details = Array.isArray(body?.details)
      ? (body.details as { field?: unknown; reason?: unknown }[])
          .filter((detail) => typeof detail.reason === "string")
          .map((detail) => ({ field: String(detail.field ?? ""), reason: String(detail.reason) }))
      : [];
    return { error: error.message, details };
  }
  return { error: fallback, details: [] };
}

/**
 * /admin/discounts (docs/product-rules.md §1 Admin discounts, §8 Sales screen, §9 Sale): the 'Active
 * sales' and 'Create sales' tabs. Picking a sale loads it into the form to edit; picking it again clears
 * the form. ?p={productId} preselects a product (the admin product list's 'Add sale'). The form is checked
 * by the schema the server checks with, and a change refreshes every price the page shows.
 */
export function SalesPage() {
  const { t } = useTranslation();
  usePageTitle(t("titles.page", { page: t("admin.sales.title") }));
  const saveSale = useSaveSale();
  const deleteSale = useDeleteSale();
  const [params] = useSearchParams();
  const preselected = preselectedProduct(params.get("p"));
  const sales = useSaleList();

  const [tab, setTab] = useState<Tab>(preselected ? "create" : "active");
  const [initialDraft] = useState(() => emptyDraft(preselected ? [{ id: preselected }] : []));
  const form = useForm<SaleDraft, unknown, SaleBody>({
    resolver: saleResolver,
    defaultValues: initialDraft,
    // Focus goes to the first invalid field in page order (the effect below), not in registration order.
    shouldFocusError: false,
  });
  // The fields are controlled by the form's values, set with setValue: nothing is registered.
  const draft = useWatch({ control: form.control }) as SaleDraft;
  // Set by a submit: from then on every change re-checks the whole form, until a reset.
  const [tried, setTried] = useState(false);
  const [server, setServer] = useState<ServerProblem | null>(null);
  const [busy, setBusy] = useState(false);
  const [deleting, setDeleting] = useState<Sale | null>(null);
  const [removing, setRemoving] = useState(false);
  const [announcement, setAnnouncement] = useState("");

  // A new ?p= while the screen is open (another 'Add sale'): a new sale for that product.
  const [appliedProduct, setAppliedProduct] = useState(preselected);
  if (preselected !== appliedProduct) {
    setAppliedProduct(preselected);
    if (preselected) {
      reset(emptyDraft([{ id: preselected }]));
      setTab("create");
    }
  }

  const tabRefs = useRef<Record<Tab, HTMLButtonElement | null>>({ active: null, create: null });
  const formPanel = useRef<HTMLDivElement>(null);
  const descriptionRef = useRef<HTMLInputElement>(null);
  // Focus moves after the panel it goes to is shown.
  const pendingFocus = useRef<"description" | "firstInvalid" | Tab | null>(null);
  useEffect(() => {
    const target = pendingFocus.current;
    if (!target) return;
    pendingFocus.current = null;
    if (target === "description") descriptionRef.current?.focus();
    else if (target === "firstInvalid")
      formPanel.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
    else tabRefs.current[target]?.focus();
  });

  // The schema's messages and the server's (setError, type "server"), each under the draft's name.
  const formErrors = form.formState.errors;
  const errors: FieldErrors = {};
  for (const field of Object.keys(formErrors) as SaleField[]) {
    const message = formErrors[field]?.message;
    if (message) errors[field] = message;
  }
  // The alert stays while a rule of the schema fails; the server's refusals have their own.
  const invalid =
    tried && Object.values(formErrors).some((error) => error !== undefined && error.type !== "server");

  const change = (next: Partial<SaleDraft>) => {
    for (const [field, value] of Object.entries(next) as [keyof SaleDraft, SaleDraft[keyof SaleDraft]][])
      form.setValue(field, value, { shouldDirty: true });
    setServer(null);
    // After a submit every change re-checks the whole form (trigger with no name), not only the field that
    // changed, so the alert goes as soon as the form is valid; it also drops the server's field errors.
    if (tried) void form.trigger();
  };

  function reset(next: SaleDraft) {
    form.reset(next);
    setTried(false);
    setServer(null);
  }

  const pick = (sale: Sale) => {
    if (draft.id === sale.id) {
      reset(emptyDraft());
      setAnnouncement(t("admin.sales.list.cleared"));
      return;
    }
    reset(draftOf(sale));
    setAnnouncement("");
    setTab("create");
    pendingFocus.current = "description";
  };

  const save = async (body: SaleBody) => {
    const saleId = form.getValues("id");
    setBusy(true);
    try {
      await saveSale.mutateAsync({ body, id: saleId });
      showToast(t(saleId === null ? "admin.sales.form.created" : "admin.sales.form.saved"));
      reset(emptyDraft());
      setTab("active");
      pendingFocus.current = "active";
    } catch (error) {
      const problem = problemOf(error, t("admin.sales.form.failed"));
      setServer(problem);
      // The server's details stand beside the fields they name, as the schema's messages do.
      for (const detail of problem.details) {
        const field = fieldOf(detail.field);
        if (field && !form.getFieldState(field).error)
          form.setError(field, { type: "server", message: detail.reason });
      }
    } finally {
      setBusy(false);
    }
  };

  const submit = async () => {
    setTried(true);
    setServer(null);
    await form.handleSubmit(save, () => {
      pendingFocus.current = "firstInvalid";
    })();
  };

  const remove = async () => {
    if (!deleting) return;
    const sale = deleting;
    setRemoving(true);
    try {
      await deleteSale.mutateAsync(sale.id);
      showToast(t("admin.sales.list.deleted"));
      if (draft.id === sale.id) reset(emptyDraft());
    } catch (error) {
      showToast(problemOf(error, t("admin.sales.list.deleteFailed")).error, "error");
    } finally {
      setRemoving(false);
      setDeleting(null);
      // The bin that opened the dialog may be gone: the tab keeps the keyboard's place.
      setTimeout(() => {
        if (!document.activeElement || document.activeElement === document.body)
          tabRefs.current.active?.focus();
      }, 0);
    }
  };

  // Arrow keys, Home and End move between the tabs (WAI-ARIA tabs pattern, automatic activation).
  const onTabKey = (event: KeyboardEvent) => {
    const index = TABS.indexOf(tab);
    const next =
      event.key === "ArrowRight"
        ? (index + 1) % TABS.length
        : event.key === "ArrowLeft"
          ? (index - 1 + TABS.length) % TABS.length
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? TABS.length - 1
              : null;
    if (next === null) return;
    event.preventDefault();
    setTab(TABS[next]!);
    tabRefs.current[TABS[next]!]?.focus();
  };

  const count = sales.data?.length;
  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight text-ink">{t("admin.sales.title")}</h1>
        <div
          role="tablist"
          aria-label={t("admin.sales.tabs.label")}
          onKeyDown={onTabKey}
          className="flex w-full gap-1 rounded-2xl border border-line bg-card p-1 sm:w-auto"
        >
          {TABS.map((name) => (
            <button
              key={name}
              ref={(element) => {
                tabRefs.current[name] = element;
              }}
              type="button"
              role="tab"
              id={`sales-tab-${name}`}
              aria-selected={tab === name}
              aria-controls={`sales-panel-${name}`}
              tabIndex={tab === name ? 0 : -1}
              onClick={() => setTab(name)}
              className={`flex h-10 flex-1 items-center justify-center gap-2 rounded-xl px-4 text-sm font-medium whitespace-nowrap text-muted transition hover:text-ink ${focusRingClass} aria-selected:bg-accent aria-selected:text-on-accent aria-selected:shadow-sm sm:flex-none`}
            >
              {name === "active" ? (
                <ListChecks size={16} aria-hidden />
              ) : (
                <PlusCircle size={16} aria-hidden />
              )}
              {t(`admin.sales.tabs.${name}`)}
              {name === "active" && count !== undefined && (
                <span className="rounded-full bg-surface px-1.5 text-xs text-ink tabular-nums">{count}</span>
              )}
              {name === "create" && draft.id !== null && (
                <span
                  className="h-2 w-2 rounded-full bg-current"
                  aria-label={t("admin.sales.tabs.editing")}
                />
              )}
            </button>
          ))}
        </div>
      </div>

      <p role="status" className="sr-only">
        {announcement}
      </p>

      <div
        role="tabpanel"
        id="sales-panel-active"
        aria-labelledby="sales-tab-active"
        hidden={tab !== "active"}
        tabIndex={0}
        className="rounded-3xl focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-accent"
      >
        {sales.isError ? (
          <Card size="lg" className="px-6 py-12">
            <LoadError onRetry={() => void sales.refetch()} />
          </Card>
        ) : sales.isPending ? (
          <p role="status" className="text-muted">
            {t("common.loading")}
          </p>
        ) : sales.data.length === 0 ? (
          <Card size="lg" className="flex flex-col items-center gap-4 px-6 py-14 text-center">
            <span className="grid h-16 w-16 place-items-center rounded-full bg-accent-soft text-accent-strong">
              <Percent size={32} aria-hidden />
            </span>
            <p className="text-lg font-semibold text-ink">{t("admin.sales.list.empty")}</p>
            <Button
              onClick={() => {
                setTab("create");
                pendingFocus.current = "description";
              }}
            >
              <PlusCircle size={18} aria-hidden />
              {t("admin.sales.tabs.create")}
            </Button>
          </Card>
        ) : (
          <SaleList sales={sales.data} selectedId={draft.id} onPick={pick} onDelete={setDeleting} />
        )}
      </div>

      <div
        ref={formPanel}
        role="tabpanel"
        id="sales-panel-create"
        aria-labelledby="sales-tab-create"
        hidden={tab !== "create"}
      >
        <Card as="section" size="lg" className="p-4 sm:p-6">
          <SaleForm
            draft={draft}
            onChange={change}
            errors={errors}
            invalid={invalid}
            server={server}
            busy={busy}
            onSubmit={() => void submit()}
            onClear={() => reset(emptyDraft())}
            descriptionRef={descriptionRef}
          />
        </Card>
      </div>

      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => {
          if (!open && !removing) setDeleting(null);
        }}
        title={t("admin.sales.list.confirmDelete")}
        description={deleting?.description}
        onAccept={() => void remove()}
        busy={removing}
      />
    </div>
  );
}

export default SalesPage;
