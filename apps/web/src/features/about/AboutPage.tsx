import { useTranslation } from "@/i18n";
import { usePageTitle } from "@/components/page-title";
import { GithubIcon, LinkedinIcon } from "@/components/ui/BrandIcons";
import { focusRingClass } from "@/components/ui/focus-ring";
import { TEAM } from "./team";

const AVATAR_TONES = [
  "bg-indigo-100 text-indigo-800 dark:bg-indigo-950 dark:text-indigo-200",
  "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200",
  "bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-200",
  "bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-200",
];

const initials = (name: string) =>
  name
    .split(" ")
    .map((part) => part[0])
    .join("")
    .slice(0, 2);

const linkClass = `grid h-10 w-10 place-items-center rounded-full border border-line text-muted transition hover:border-accent hover:text-accent-strong ${focusRingClass}`;

/** /profiles: the team behind the store (docs/product-rules.md §1). */
export function AboutPage() {
  const { t } = useTranslation();
  usePageTitle(t("titles.page", { page: t("about.title") }));
  return (
    <div>
      <header className="mx-auto max-w-2xl py-6 text-center">
        <p className="text-sm font-semibold tracking-wide text-accent-strong uppercase">
          {t("about.eyebrow")}
        </p>
        <h1 className="mt-2 text-3xl font-bold tracking-tight text-ink sm:text-4xl">{t("about.title")}</h1>
        <p className="mt-4 text-muted">{t("about.intro")}</p>
      </header>
      <ul className="mt-8 grid grid-cols-2 gap-3 sm:gap-5 lg:grid-cols-4">
        {TEAM.map((member, index) => (
          <li
            key={member.name}
            className="flex flex-col items-center rounded-2xl border border-line bg-card p-4 text-center shadow-sm sm:p-6"
          >
            <span
              aria-hidden
              className={`grid h-16 w-16 place-items-center rounded-full text-xl font-bold sm:h-20 sm:w-20 sm:text-2xl ${AVATAR_TONES[index % AVATAR_TONES.length]}`}
            >
              {initials(member.name)}
            </span>
            <h2 className="mt-3 text-sm font-semibold text-ink sm:mt-4 sm:text-base">{member.name}</h2>
            <p className="mt-1 text-xs text-muted sm:text-sm">{t(`about.roles.${member.role}`)}</p>
            <div className="mt-4 flex gap-2">
              <a
                href={member.linkedin}
                target="_blank"
                rel="noopener noreferrer"
                aria-label={t("about.linkedin", { name: member.name })}
                className={linkClass}
              >
                <LinkedinIcon />
              </a>
              <a
                href={member.github}
                target="_blank"
                rel="noopener noreferrer"
                aria-label={t("about.github", { name: member.name })}
                className={linkClass}
              >
                <GithubIcon />
              </a>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}

export default AboutPage;
