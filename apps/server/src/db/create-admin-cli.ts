import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { judgePassword, passwordWeaknessMessage } from "@voltio/domain/password-strength";
import { loadConfig } from "../config";
import { hashPassword, setPasswordHashCost } from "../modules/auth/password";
import { exitWithStartupFailure } from "../startup";
import { openDatabase } from "./client";
import { users } from "./schema";
import { databaseTarget } from "./target";

/**
 * `npm run create-admin -- --email a@b.c --password '…' --first-name Ada --last-name Lovelace`
 * Creates an admin, or promotes and resets the password of the account with that e-mail. On the embedded
 * database it takes the data directory's lock, like the server: stop the server first.
 */
const { values } = parseArgs({
  options: {
    email: { type: "string" },
    password: { type: "string" },
    "first-name": { type: "string", default: "Admin" },
    "last-name": { type: "string", default: "Voltio" },
  },
});
const input = z
  .object({
    email: z.email(),
    password: z.string().min(8, "must be at least 8 characters"),
    firstName: z.string().regex(/^[a-zA-Z]+$/, "letters only"),
    lastName: z.string().min(1),
  })
  .safeParse({
    email: values.email ?? process.env.ADMIN_EMAIL,
    password: values.password ?? process.env.ADMIN_PASSWORD,
    firstName: values["first-name"],
    lastName: values["last-name"],
  });
if (!input.success) {
  for (const issue of input.error.issues) console.error(`${issue.path.join(".")}: ${issue.message}`);
  console.error(
    "Usage: npm run create-admin -- --email EMAIL --password PASSWORD [--first-name F --last-name L]",
  );
  process.exit(2);
}

async function createAdmin(data: NonNullable<typeof input.data>) {
  // The admin's password follows the shoppers' strength rule, the back office's keys being worth more.
  const { weakness } = await judgePassword(data.password, data);
  if (weakness) {
    console.error(`password: ${passwordWeaknessMessage(weakness)}`);
    process.exit(2);
  }
  const config = loadConfig();
  setPasswordHashCost(config.passwordHashCost);
  const database = await openDatabase(databaseTarget(config));
  try {
    await database.migrate();
    const { email, password, firstName, lastName } = data;
    const passwordHash = await hashPassword(password);
    const [existing] = await database.db
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.email}) = lower(${email})`);
    const [user] = existing
      ? await database.db
          .update(users)
          .set({ rol: "admin", passwordHash, googleUser: false, deletedAt: null })
          .where(sql`${users.id} = ${existing.id}`)
          .returning({ id: users.id })
      : await database.db
          .insert(users)
          .values({ email, passwordHash, firstName, lastName, rol: "admin" })
          .returning({ id: users.id });
    console.log(`Admin ${email} is user ${user!.id}.`);
  } finally {
    await database.close();
  }
}

await createAdmin(input.data).catch(exitWithStartupFailure);
