import { useId, useState, type FormEvent } from "react";
import { LoaderCircle, Share2 } from "lucide-react";
import { useTranslation } from "@/i18n";
import type { Networks } from "@voltio/domain/catalog";
import { NETWORKS, type Network } from "@voltio/domain/newsletter";
import { ApiError } from "@/api/client";
import { LoadError } from "@/components/LoadError";
import { FacebookIcon, InstagramIcon, TwitterIcon } from "@/components/ui/BrandIcons";
import { Button } from "@/components/ui/Button";
import { Card } from "@/components/ui/Card";
import { showToast } from "@/components/ui/toast";
import { Field } from "../Field";
import { useNetworkLinks, useSaveNetworks } from "./api";
import { ruleText } from "./receivers";

const NAMES: Record<Network, string> = { facebook: "Facebook", twitter: "Twitter", instagram: "Instagram" };
const ICONS = { facebook: FacebookIcon, twitter: TwitterIcon, instagram: InstagramIcon } as const;

type Draft = Record<Network, { on: boolean; url: string }>;

const draftOf = (networks: Networks | undefined): Draft =>
  Object.fromEntries(
    NETWORKS.map((network) => {
      const url = networks?.[network]?.trim() ?? "";
      return [network, { on: url !== "", url }];
    }),
  ) as Draft;

/**
 * docs/product-rules.md §1 'Edit Newsletter': the social-networks form. Each checked network reveals its address; an
 * unchecked one is sent empty, which hides it from the footer. Saved → the SPEC's browser alert
 * 'Networks sent!' (§8) and the footer shows the new links at once.
 */
export function NetworksForm() {
  const { t } = useTranslation();
  const id = useId();
  const networks = useNetworkLinks();
  return (
    <Card as="section" size="lg" aria-labelledby={`${id}-heading`} className="p-4 sm:p-6">
      <h2 id={`${id}-heading`} className="flex items-center gap-2 text-lg font-semibold text-ink">
        <Share2 size={18} aria-hidden className="text-accent-strong" />
        {t("admin.newsletter.networks.title")}
      </h2>
      <p className="mt-1 text-sm text-muted">{t("admin.newsletter.networks.hint")}</p>
      {networks.isError ? (
        <LoadError onRetry={() => void networks.refetch()} className="py-6" />
      ) : networks.isPending ? (
        <p role="status" className="py-6 text-muted">
          {t("common.loading")}
        </p>
      ) : (
        // Mounted once the links are known, so the form starts from the server's.
        <NetworksFields initial={draftOf(networks.data[0])} headingId={`${id}-heading`} />
      )}
    </Card>
  );
}

function NetworksFields({ initial, headingId }: { initial: Draft; headingId: string }) {
  const { t } = useTranslation();
  const id = useId();
  const saveNetworks = useSaveNetworks();
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<Network, string>>>({});
  const [busy, setBusy] = useState(false);

  const change = (network: Network, next: Partial<Draft[Network]>) => {
    setDraft((current) => ({ ...current, [network]: { ...current[network], ...next } }));
    setErrors((current) => ({ ...current, [network]: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const missing = NETWORKS.filter((network) => draft[network].on && draft[network].url.trim() === "");
    if (missing.length > 0) {
      setErrors(
        Object.fromEntries(missing.map((network) => [network, t("admin.newsletter.networks.urlRequired")])),
      );
      document.getElementById(`${id}-${missing[0]}-url`)?.focus();
      return;
    }
    const body = Object.fromEntries(
      NETWORKS.map((network) => [network, draft[network].on ? draft[network].url.trim() : ""]),
    ) as Record<Network, string>;
    setBusy(true);
    try {
      await saveNetworks.mutateAsync(body);
      setErrors({});
      window.alert(t("admin.newsletter.networks.sent"));
    } catch (error) {
      const details =
        error instanceof ApiError && error.status === 400
          ? ((error.body as { details?: { field: string; reason: string }[] } | undefined)?.details ?? [])
          : [];
      const refused = details.filter((detail): detail is { field: Network; reason: string } =>
        (NETWORKS as readonly string[]).includes(detail.field),
      );
      if (refused.length > 0) {
        setErrors(Object.fromEntries(refused.map(({ field, reason }) => [field, ruleText(t, reason)])));
        document.getElementById(`${id}-${refused[0]!.field}-url`)?.focus();
      } else showToast(t("admin.newsletter.networks.failed"), "error");
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      onSubmit={(event) => void submit(event)}
      noValidate
      aria-labelledby={headingId}
      className="mt-4 flex flex-col gap-3"
    >
      {NETWORKS.map((network) => {
        const Icon = ICONS[network];
        const { on, url } = draft[network];
        const error = errors[network];
        return (
          <div key={network} className="flex flex-col gap-2 rounded-2xl border border-line p-3">
            <label className="flex min-h-9 cursor-pointer items-center gap-3 text-sm font-medium text-ink">
              <input
                type="checkbox"
                checked={on}
                onChange={(event) => change(network, { on: event.target.checked })}
                aria-controls={`${id}-${network}-box`}
                className="h-4 w-4 accent-accent"
              />
              <Icon />
              {NAMES[network]}
            </label>
            <div id={`${id}-${network}-box`} hidden={!on}>
              <Field
                small
                id={`${id}-${network}-url`}
                label={t("admin.newsletter.networks.url", { network: NAMES[network] })}
                error={error}
              >
                <input
                  id={`${id}-${network}-url`}
                  type="url"
                  inputMode="url"
                  value={url}
                  onChange={(event) => change(network, { url: event.target.value })}
                  placeholder="https://"
                  autoComplete="off"
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? `${id}-${network}-url-error` : undefined}
                  className={`h-11 w-full rounded-xl border bg-surface px-3 text-sm text-ink placeholder:text-muted focus:outline-2 focus:-outline-offset-1 ${error ? "border-sale focus:outline-sale" : "border-line focus:border-accent focus:outline-accent"}`}
                />
              </Field>
            </div>
          </div>
        );
      })}
      <Button type="submit" size="lg" disabled={busy} aria-busy={busy} className="self-start">
        {busy && <LoaderCircle size={18} aria-hidden className="animate-spin" />}
        {t("admin.newsletter.networks.save")}
      </Button>
    </form>
  );
}
