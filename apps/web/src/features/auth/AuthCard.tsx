import type { ReactNode } from "react";
import { CircleCheck, Zap } from "lucide-react";
import { Card } from "@/components/ui/Card";

/** The panel of the sign-in screens: the store's mark, the screen's heading, then its form. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="mx-auto flex max-w-md flex-col items-center py-6 sm:py-12">
      <Card size="lg" raised className="w-full p-6 sm:p-8">
        <div className="mb-6 flex flex-col items-center text-center">
          <span className="mb-3 grid h-12 w-12 place-items-center rounded-2xl bg-accent text-on-accent shadow-sm">
            <Zap size={24} aria-hidden fill="currentColor" />
          </span>
          <h1 className="text-2xl font-bold tracking-tight text-ink">{title}</h1>
        </div>
        {children}
      </Card>
    </div>
  );
}

/**
 * A message that a step went well (a link sent, a password changed). The live region is always there, so
 * screen readers read the message when it appears in it.
 */
export function SuccessNote({ children }: { children?: ReactNode }) {
  return (
    <div role="status">
      {children && (
        <p className="mb-5 flex gap-3 rounded-xl border border-line bg-surface px-4 py-3 text-sm text-ink">
          <CircleCheck size={20} aria-hidden className="shrink-0 text-success" />
          <span>{children}</span>
        </p>
      )}
    </div>
  );
}
