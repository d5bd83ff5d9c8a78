import { Card } from "./Card";

/** A grey placeholder with a soft pulse (no pulse when the visitor prefers reduced motion). */
export function Skeleton({ className = "" }: { className?: string }) {
  return (
    <div aria-hidden className={`animate-pulse rounded-lg bg-line motion-reduce:animate-none ${className}`} />
  );
}

/** The outline of a product card while the grid waits. */
export function ProductTileSkeleton() {
  return (
    <Card aria-hidden className="flex flex-col overflow-hidden">
      <Skeleton className="aspect-[4/3] rounded-none" />
      <div className="flex flex-col gap-2 p-4">
        <Skeleton className="h-4 w-11/12" />
        <Skeleton className="h-4 w-2/3" />
        <Skeleton className="mt-3 h-6 w-1/3" />
      </div>
    </Card>
  );
}
