import { MAX_OPTIONS, type ProductOption, type VariantOptions } from "./variants";

/**
 * Products as CSV (issue 41, docs/product-rules.md §7.3.1): the same columns out and in, one row per variant,
 * so a file exported, edited in a spreadsheet and imported changes only what was edited. A product's own
 * fields repeat on each of its rows; the first row's count.
 */
export const PRODUCT_CSV_COLUMNS = [
  "product_id",
  "title",
  "name",
  "description",
  "brand",
  "categories",
  "shipping_cost",
  "option1_name",
  "option1_value",
  "option2_name",
  "option2_value",
  "option3_name",
  "option3_value",
  "sku",
  "price",
  "stock",
  "sale_eligible",
] as const;
/** Specification columns follow the fixed ones: `spec:<key>`. */
export const SPEC_COLUMN_PREFIX = "spec:";
/** Categories in one cell. */
export const CATEGORY_SEPARATOR = "|";
export const CSV_IMPORT_MAX_ROWS = 20_000;

export interface CsvProblem {
  line: number;
  field: string;
  reason: string;
}

/**
 * RFC 4180 rows: quoted fields may hold commas, quotes ("") and line breaks; CRLF or LF ends a row. Returns
 * each row with the line it starts on (1-based), or the problem of an unclosed quote.
 */
export function parseCsv(
  text: string,
): { rows: { line: number; cells: string[] }[] } | { problem: CsvProblem } {
  const rows: { line: number; cells: string[] }[] = [];
  let cells: string[] = [];
  let cell = "";
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  for (let i = 0; i < body.length; i++) {
    const char = body[i]!;
    if (quoted) {
      if (char === '"' && body[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else {
        if (char === "\n") line++;
        cell += char;
      }
    } else if (char === '"' && cell === "") quoted = true;
    else if (char === ",") {
      cells.push(cell);
      cell = "";
    } else if (char === "\n" || char === "\r") {
      if (char === "\r" && body[i + 1] === "\n") i++;
      cells.push(cell);
      if (cells.some((value) => value !== "")) rows.push({ line: rowLine, cells });
      cells = [];
      cell = "";
      line++;
      rowLine = line;
    } else cell += char;
  }
  if (quoted) return { problem: { line: rowLine, field: "", reason: "a quoted field is never closed" } };
  cells.push(cell);
  if (cells.some((value) => value !== "")) rows.push({ line: rowLine, cells });
  return { rows };
}

/** A cell the export protected from spreadsheets' formulas ('=…) reads back as it was. */
export const unprotected = (cell: string) => (/^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell);

/** One product of a file: its first line, its own fields, its options and its variants' rows. */
export interface CsvProduct {
  line: number;
  productId?: number;
  title: string;
  name: string;
  description: string;
  brand: string;
  categories: string[];
  shippingCost: string;
  specs: Record<string, string>;
  options: ProductOption[];
  variants: {
    line: number;
    sku: string;
    price: string;
    stock: string;
    saleEligible: boolean;
    options: VariantOptions;
  }[];
}

/**
 * The file's products: rows of one product_id (or, for new products, consecutive rows of one title) are
 * one product's variants. Problems name the line and the column; none means every row was read.
 */
export function readProductCsv(text: string): { products: CsvProduct[]; problems: CsvProblem[] } {
  const parsed = parseCsv(text);
  if ("problem" in parsed) return { products: [], problems: [parsed.problem] };
  const [header, ...rows] = parsed.rows;
  const problems: CsvProblem[] = [];
  if (!header) return { products: [], problems: [{ line: 1, field: "", reason: "the file is empty" }] };
  const columns = header.cells.map((cell) => cell.trim());
  for (const column of PRODUCT_CSV_COLUMNS)
    if (!columns.includes(column))
      problems.push({ line: header.line, field: column, reason: "the column is missing" });
  if (rows.length > CSV_IMPORT_MAX_ROWS)
    problems.push({ line: header.line, field: "", reason: `at most ${CSV_IMPORT_MAX_ROWS} rows` });
  if (problems.length) return { products: [], problems };
  const specColumns = columns.filter((column) => column.startsWith(SPEC_COLUMN_PREFIX));
  const products: CsvProduct[] = [];
  const skus = new Map<string, number>();
  for (const { line, cells } of rows) {
    const cell = (column: string) => unprotected((cells[columns.indexOf(column)] ?? "").trim());
    if (cells.length > columns.length)
      problems.push({ line, field: "", reason: "the row has more cells than the header" });
    const id = cell("product_id");
    if (id !== "" && !/^[1-9]\d{0,9}$/.test(id))
      problems.push({ line, field: "product_id", reason: "must be a product id or empty" });
    const productId = id === "" ? undefined : Number(id);
    const last = products.at(-1);
    const sameProduct =
      last !== undefined &&
      (productId !== undefined
        ? last.productId === productId
        : last.productId === undefined && last.title === cell("title"));
    const options: VariantOptions = {};
    const optionNames: string[] = [];
    for (let n = 1; n <= MAX_OPTIONS; n++) {
      const name = cell(`option${n}_name`);
      const value = cell(`option${n}_value`);
      if (name === "" && value === "") continue;
      if (name === "" || value === "") {
        problems.push({
          line,
          field: `option${n}_${name === "" ? "name" : "value"}`,
          reason: "needs both the option's name and value",
        });
        continue;
      }
      optionNames.push(name);
      options[name] = value;
    }
    const sku = cell("sku");
    if (sku !== "") {
      const earlier = skus.get(sku.toLowerCase());
      if (earlier !== undefined)
        problems.push({ line, field: "sku", reason: `is line ${earlier}'s SKU too` });
      else skus.set(sku.toLowerCase(), line);
    }
    const saleEligible = cell("sale_eligible").toLowerCase();
    if (!["", "true", "false", "yes", "no", "1", "0"].includes(saleEligible))
      problems.push({ line, field: "sale_eligible", reason: "must be true or false" });
    const variant = {
      line,
      sku,
      price: cell("price"),
      stock: cell("stock"),
      saleEligible: !["false", "no", "0"].includes(saleEligible),
      options,
    };
    if (sameProduct) {
      const names = last.options.map((option) => option.name);
      if (names.join("\u0000") !== optionNames.join("\u0000"))
        problems.push({
          line,
          field: "option1_name",
          reason: `must name the options of line ${last.line}: ${names.join(", ") || "none"}`,
        });
      for (const option of last.options) {
        const value = options[option.name];
        if (value !== undefined && !option.values.includes(value)) option.values.push(value);
      }
      last.variants.push(variant);
      continue;
    }
    products.push({
      line,
      productId,
      title: cell("title"),
      name: cell("name"),
      description: cell("description"),
      brand: cell("brand"),
      categories: cell("categories")
        .split(CATEGORY_SEPARATOR)
        .map((name) => name.trim())
        .filter((name) => name !== ""),
      shippingCost: cell("shipping_cost"),
      specs: Object.fromEntries(
        specColumns
          .map((column) => [column.slice(SPEC_COLUMN_PREFIX.length), cell(column)] as const)
          .filter(([, value]) => value !== ""),
      ),
      options: optionNames.map((name) => ({ name, values: [options[name]!] })),
      variants: [variant],
    });
  }
  return { products, problems };
}
