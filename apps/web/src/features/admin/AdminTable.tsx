import type { ReactNode } from "react";

export interface AdminColumn {
  /** React's key for the header cell. */
  key: string;
  label: ReactNode;
  align?: "left" | "right";
  /** For a column of buttons: the name stays for screen readers only. */
  hideLabel?: boolean;
  /** Responsive hiding, e.g. 'hidden sm:table-cell'; the column's cells take the same class. */
  className?: string;
}

/** The padding of every admin table cell, header included, so the columns line up. */
export const adminCellClass = "px-3 py-3 sm:px-4";

/**
 * A back-office list as a table: the scrolling wrapper, the header row from `columns`, and the body
 * (one or more <tbody>) as children. `className` sits on the wrapper (layout, e.g. 'hidden md:block');
 * `tableClassName` on the table (its minimum width before it scrolls).
 */
export function AdminTable({
  columns,
  className,
  tableClassName,
  children,
}: {
  columns: readonly AdminColumn[];
  className?: string;
  tableClassName?: string;
  children: ReactNode;
}) {
  return (
    // Its buttons, links and selectors bring a scrolled-away column into view for the keyboard.
    <div className={className ? `overflow-x-auto ${className}` : "overflow-x-auto"}>
      <table className={`w-full text-left text-sm ${tableClassName ?? ""}`}>
        <thead className="border-b border-line text-xs text-muted uppercase">
          <tr>
            {columns.map((column) => (
              <th
                key={column.key}
                scope="col"
                className={`${adminCellClass} font-semibold ${column.align === "right" ? "text-right" : ""} ${column.className ?? ""}`}
              >
                {column.hideLabel ? <span className="sr-only">{column.label}</span> : column.label}
              </th>
            ))}
          </tr>
        </thead>
        {children}
      </table>
    </div>
  );
}
