/**
 * The people behind the store, shown on /profiles (docs/product-rules.md §1: eight members, each with a
 * professional-network link and a code-host link). A store running Voltio replaces this list with its own.
 */
export interface TeamMember {
  name: string;
  /** A key under about.roles in the i18n files. */
  role: "lead" | "frontend" | "backend" | "fullstack" | "design" | "qa" | "devops" | "product";
  linkedin: string;
  github: string;
}

export const TEAM: TeamMember[] = [
  {
    name: "Lucía Fernández",
    role: "lead",
    linkedin: "https://www.linkedin.com/in/lucia-fernandez-voltio",
    github: "https://github.com/lucia-fernandez-voltio",
  },
  {
    name: "Martín Gómez",
    role: "frontend",
    linkedin: "https://www.linkedin.com/in/martin-gomez-voltio",
    github: "https://github.com/martin-gomez-voltio",
  },
  {
    name: "Sofía Ramírez",
    role: "backend",
    linkedin: "https://www.linkedin.com/in/sofia-ramirez-voltio",
    github: "https://github.com/sofia-ramirez-voltio",
  },
  {
    name: "Diego Herrera",
    role: "fullstack",
    linkedin: "https://www.linkedin.com/in/diego-herrera-voltio",
    github: "https://github.com/diego-herrera-voltio",
  },
  {
    name: "Valentina Castro",
    role: "design",
    linkedin: "https://www.linkedin.com/in/valentina-castro-voltio",
    github: "https://github.com/valentina-castro-voltio",
  },
  {
    name: "Tomás Álvarez",
    role: "qa",
    linkedin: "https://www.linkedin.com/in/tomas-alvarez-voltio",
    github: "https://github.com/tomas-alvarez-voltio",
  },
  {
    name: "Camila Torres",
    role: "devops",
    linkedin: "https://www.linkedin.com/in/camila-torres-voltio",
    github: "https://github.com/camila-torres-voltio",
  },
  {
    name: "Joaquín Morales",
    role: "product",
    linkedin: "https://www.linkedin.com/in/joaquin-morales-voltio",
    github: "https://github.com/joaquin-morales-voltio",
  },
];
