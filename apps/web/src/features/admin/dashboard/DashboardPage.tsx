import { useId, useState, type ReactNode } from "react";
import { Link } from "react-router";
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Legend,
  Line,
  LineChart,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { useTranslation } from "@/i18n";
import { formatDollars } from "@voltio/domain/money";
import { usePageTitle } from "@/components/page-title";
import { Card } from "@/components/ui/Card";
import { LoadError } from "@/components/LoadError";
import { textLinkClass } from "@/components/ui/text-link";
import { useStats } from "../api";
import { Field } from "../Field";
import { PaymentsAttention } from "./PaymentsAttention";
import { PALETTE, capitalised, chartDate, chartLabel } from "../format";

const DAY_MS = 86_400_000;
/** A legend's words in the text colour (AA on the card); its swatch carries the series' colour. */
const legendText = (value: string) => <span className="text-ink">{value}</span>;
const isoDay = (at: number) => new Date(at).toISOString().slice(0, 10);

function ChartCard({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <Card as="section" size="lg" aria-labelledby={id} className="flex min-w-0 flex-col gap-3 p-5">
      <h2 id={id} className="font-semibold text-ink">
        {title}
      </h2>
      <div className="h-64 w-full">{children}</div>
    </Card>
  );
}

/**
 * /admin (docs/product-rules.md §1 Admin dashboard): the sales line ('ventas'), the best sellers' pie,
 * orders per status and per day, and the latest users — from GET /stats, which aggregates in SQL.
 */
export function DashboardPage() {
  const { t, language } = useTranslation();
  usePageTitle(t("titles.page", { page: t("admin.dashboard.title") }));
  const [range, setRange] = useState(() => ({
    from: isoDay(Date.now() - 29 * DAY_MS),
    to: isoDay(Date.now()),
  }));
  const stats = useStats(range);
  const fromId = useId();
  const toId = useId();

  const sales = (stats.data?.salesByDay ?? []).map((day) => ({
    date: chartDate(day.date, language),
    ventas: day.sales,
    orders: day.orders,
  }));
  const grid = <CartesianGrid strokeDasharray="3 3" stroke="var(--color-line)" />;
  const axisTick = { fill: "var(--color-muted)", fontSize: 12 };

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h1 className="text-2xl font-bold tracking-tight text-ink">{t("admin.dashboard.title")}</h1>
        <div className="flex gap-3 text-sm">
          {(
            [
              [fromId, "from", "admin.dashboard.from"],
              [toId, "to", "admin.dashboard.to"],
            ] as const
          ).map(([id, key, label]) => (
            <Field key={key} small id={id} label={t(label)}>
              <input
                id={id}
                type="date"
                value={range[key]}
                onChange={(event) => event.target.value && setRange({ ...range, [key]: event.target.value })}
                className="h-10 rounded-xl border border-line bg-card px-3 text-ink"
              />
            </Field>
          ))}
        </div>
      </div>
      <PaymentsAttention />
      {stats.error ? (
        <LoadError onRetry={() => void stats.refetch()} />
      ) : (
        <div className="grid gap-6 xl:grid-cols-2">
          <ChartCard title={t("admin.dashboard.sales")}>
            <ResponsiveContainer>
              <LineChart data={sales}>
                {grid}
                <XAxis dataKey="date" tick={axisTick} tickFormatter={chartLabel} />
                <YAxis tick={axisTick} />
                <Tooltip formatter={(value) => `$${formatDollars(Number(value))}`} />
                <Legend formatter={legendText} />
                <Line type="linear" dataKey="ventas" stroke={PALETTE[0]} strokeWidth={2} dot={false} />
              </LineChart>
            </ResponsiveContainer>
          </ChartCard>
          <ChartCard title={t("admin.dashboard.products")}>
            <ResponsiveContainer>
              <PieChart>
                <Pie
                  data={(stats.data?.topProducts ?? []).map((product) => ({
                    name: chartLabel(product.title),
                    units: product.units,
                  }))}
                  dataKey="units"
                  nameKey="name"
                  outerRadius="75%"
                >
                  {(stats.data?.topProducts ?? []).map((product, index) => (
                    <Cell key={product.productId} fill={PALETTE[index % PALETTE.length]} />
                  ))}
                </Pie>
                <Tooltip />
                <Legend formatter={legendText} />
              </PieChart>
            </ResponsiveContainer>
          </ChartCard>
          <ChartCard title={t("admin.dashboard.ordersByStatus")}>
            <ResponsiveContainer>
              <BarChart data={stats.data?.ordersByStatus ?? []}>
                {grid}
                <XAxis dataKey="status" tick={axisTick} tickFormatter={chartLabel} />
                <YAxis allowDecimals={false} tick={axisTick} />
                <Tooltip />
                <Bar dataKey="count">
                  {(stats.data?.ordersByStatus ?? []).map((row, index) => (
                    <Cell key={row.status} fill={PALETTE[index % PALETTE.length]} />
                  ))}
                </Bar>
              </BarChart>
            </ResponsiveContainer>
          </ChartCard>
          <ChartCard title={t("admin.dashboard.ordersPerDay")}>
            <ResponsiveContainer>
              <LineChart data={sales}>
                {grid}
                <XAxis dataKey="date" tick={axisTick} tickFormatter={chartLabel} />
                <YAxis allowDecimals={false} tick={axisTick} />
                <Tooltip />
                <Line type="linear" dataKey="orders" stroke={PALETTE[1]} strokeWidth={2} dot={false} />
              </LineChart>
            </ResponsiveContainer>
          </ChartCard>
          <LatestUsers users={stats.data?.latestUsers ?? []} />
        </div>
      )}
    </div>
  );
}

function LatestUsers({
  users,
}: {
  users: { id: number; firstName: string; lastName: string; email: string }[];
}) {
  const { t } = useTranslation();
  return (
    <Card as="section" size="lg" aria-labelledby="latest-users" className="flex flex-col gap-3 p-5">
      <h2 id="latest-users" className="font-semibold text-ink">
        {t("admin.dashboard.latestUsers")}
      </h2>
      <ul className="divide-y divide-line text-sm">
        {users.map((user) => (
          <li key={user.id} className="flex justify-between gap-3 py-2">
            <span className="text-ink">{capitalised(`${user.firstName} ${user.lastName}`)}</span>
            <span className="truncate text-muted">{user.email}</span>
          </li>
        ))}
      </ul>
      <Link
        to="/admin/users"
        className={`self-start text-sm font-semibold text-accent-strong ${textLinkClass}`}
      >
        {t("admin.dashboard.allUsers")}
      </Link>
    </Card>
  );
}

export default DashboardPage;
