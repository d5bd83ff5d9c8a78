import { Component, type ReactNode } from "react";
import { useTranslation } from "@/i18n";
import { buttonClass } from "@/components/ui/Button";

interface Props {
  resetKey: string;
  children: ReactNode;
}

/**
 * A page that fails to draw, most often because its chunk can't be fetched (the connection dropped, or a new
 * release replaced the file), says so and offers a reload instead of leaving a blank screen. The header stays
 * usable, and going to another page (`resetKey`, the path) tries again.
 */
export class PageErrorBoundary extends Component<Props, { failed: boolean; key: string }> {
  override state = { failed: false, key: this.props.resetKey };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: Props, state: { key: string }) {
    return props.resetKey === state.key ? null : { failed: false, key: props.resetKey };
  }

  override render() {
    return this.state.failed ? <PageFailed /> : this.props.children;
  }
}

function PageFailed() {
  const { t } = useTranslation();
  return (
    <main id="main" tabIndex={-1} className="mx-auto max-w-md flex-1 px-4 py-20 text-center">
      <h1 className="text-2xl font-bold text-ink">{t("pageError.title")}</h1>
      <p className="mt-2 text-muted">{t("pageError.text")}</p>
      <button type="button" className={`mt-8 ${buttonClass()}`} onClick={() => window.location.reload()}>
        {t("pageError.reload")}
      </button>
    </main>
  );
}
