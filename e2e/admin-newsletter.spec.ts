import { randomBytes } from "node:crypto";
import type { NewsletterSendReply } from "@voltio/domain/newsletter";
import type { Networks } from "@voltio/domain/catalog";
import {
  mailTo,
  ADMIN,
  expect,
  signIn,
  test,
  tokenOf,
  type Page,
  expectNoSeriousAxeViolationsInBothThemes,
  readableMail,
} from "./fixtures";

/**
 * docs/product-rules.md §1 Admin newsletter 'Edit Newsletter', §9 Newsletter, §10.7: an admin sends
 * a newsletter to 'All' and a typed address (an invalid one is left out), sees it among the sent ones with
 * its delivery, and the e-mail arrives with its unsubscribe link; the networks form changes the footer.
 */

const form = (page: Page) => page.getByRole("form", { name: "New newsletter" });

test("validation, then a newsletter to All and one typed address: 'Email sent !', listed with its delivery, delivered with an unsubscribe link", async ({
  page,
}) => {
  const address = `reader.${randomBytes(4).toString("hex")}@example.com`;
  const title = `Voltio news ${randomBytes(3).toString("hex")}`;
  await signIn(page, ADMIN);
  await page.goto("/admin");
  await page
    .getByRole("navigation", { name: "Back office" })
    .getByRole("link", { name: "Networks & Newsletter" })
    .click();
  await expect(page).toHaveURL(/\/admin\/newsletter$/);
  await expect(page.getByRole("heading", { level: 1, name: "Edit Newsletter" })).toBeVisible();

  // docs/product-rules.md §9: an empty send names the missing fields and sends nothing.
  let posted = 0;
  page.on("request", (request) => {
    if (request.method() === "POST" && request.url().endsWith("/api/emails")) posted += 1;
  });
  const newsletter = form(page);
  await newsletter.getByRole("button", { name: "Send" }).click();
  await expect(newsletter.getByText("Subject is required")).toBeVisible();
  await expect(newsletter.getByText("Message is required")).toBeVisible();
  await expect(newsletter.getByText("Add at least one e-mail address, or All")).toBeVisible();
  await expect(newsletter.getByLabel("Subject")).toBeFocused();
  await expect(newsletter.getByLabel("Subject")).toHaveAttribute("aria-invalid", "true");
  expect(posted).toBe(0);

  await newsletter.getByLabel("Subject").fill(title);
  await expect(newsletter.getByText("Subject is required")).toBeHidden();
  await newsletter.getByLabel("Message").fill("New arrivals this week.\n\nSee you soon!");
  // The preview reads as the e-mail will, with the note about the unsubscribe link.
  const preview = page.getByRole("region", { name: "Preview" });
  await expect(preview).toContainText(title);
  await expect(preview).toContainText("New arrivals this week.");
  await expect(preview).toContainText("Every e-mail ends with a link to unsubscribe from the newsletter.");

  // 'All' is one chip, labelled with how many users it reaches.
  const all = newsletter.getByRole("checkbox", { name: /^All subscribers \(\d+\)$/ });
  await all.check();
  const chips = newsletter.getByRole("list", { name: "Chosen receivers" });
  await expect(chips.getByRole("listitem")).toHaveText(["All"]);
  // Typed receivers: Enter adds one, an invalid one is silently left out, a duplicate is merged.
  const input = newsletter.getByLabel("Add an e-mail address");
  await input.fill(address.toUpperCase());
  await input.press("Enter");
  await input.fill("not-an-address");
  await input.press("Enter");
  await expect(input).toHaveValue("");
  await input.fill(`${address}, ,`);
  await expect(chips.getByRole("listitem")).toHaveText(["All", address]);
  await expect(newsletter.getByText("not-an-address")).toHaveCount(0);
  await expect(preview).toContainText("All subscribers and 1 more address");
  // A chip can be removed, and typed again.
  await chips.getByRole("button", { name: `Remove ${address}` }).click();
  await expect(chips.getByRole("listitem")).toHaveText(["All"]);
  await input.fill(address);
  await newsletter.getByRole("button", { name: "Add", exact: true }).click();
  await expect(chips.getByRole("listitem")).toHaveText(["All", address]);

  // Sending to every subscriber asks first, with how many it reaches; Cancel sends nothing.
  const allLabel = (await newsletter.getByText(/^All subscribers \(\d+\)$/).textContent()) ?? "";
  const subscribers = Number(/\((\d+)\)/.exec(allLabel)?.[1]);
  await newsletter.getByRole("button", { name: "Send" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Send to every subscriber ?" });
  await expect(confirm).toContainText(
    subscribers === 1
      ? "This newsletter goes to 1 subscriber."
      : `This newsletter goes to all ${subscribers} subscribers.`,
  );
  await expect(confirm).toContainText("And 1 more address.");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  expect(posted).toBe(0);
  await expect(chips.getByRole("listitem")).toHaveText(["All", address]);

  const reply = page.waitForResponse(
    (response) => response.url().endsWith("/api/emails") && response.request().method() === "POST",
  );
  await newsletter.getByRole("button", { name: "Send" }).click();
  await confirm.getByRole("button", { name: "Accept" }).click();
  const response = await reply;
  expect(response.status()).toBe(201);
  expect(response.request().postDataJSON()).toEqual({
    title,
    message: "New arrivals this week.\n\nSee you soon!",
    receivers: ["All", address],
  });
  const sent = (await response.json()) as NewsletterSendReply;
  expect(sent.queued).toBeGreaterThanOrEqual(1);

  // docs/product-rules.md §10.7: 'Email sent !', then the form is empty again.
  const dialog = page.getByRole("dialog", { name: "Email sent !" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(
    sent.queued === 1 ? "1 e-mail is on its way." : `${sent.queued} e-mails are on their way.`,
  );
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
  await expect(newsletter.getByLabel("Subject")).toHaveValue("");
  await expect(newsletter.getByLabel("Message")).toHaveValue("");
  await expect(chips).toHaveCount(0);
  await expect(all).not.toBeChecked();

  // 'Sent newsletters': the newest first, with its receivers and, once the worker is done, all of them sent.
  const history = page.getByRole("region", { name: "Sent newsletters" });
  const item = history.getByRole("article", { name: title });
  await expect(item).toContainText(`${sent.queued} receiver`);
  await expect(item).toContainText("by Ada");
  const figures = item.getByRole("definition");
  const [sentCount, queuedCount, failedCount] = [figures.nth(0), figures.nth(1), figures.nth(2)];
  await expect(queuedCount).toHaveText("0", { timeout: 20_000 });
  await expect(sentCount).toHaveText(String(sent.queued));
  await expect(failedCount).toHaveText("0");

  // The typed address got it, with its unsubscribe link in the header and the text.
  await expect.poll(async () => (await mailTo(address)).length, { timeout: 20_000 }).toBe(1);
  const [mail] = await mailTo(address);
  const cut = mail!.search(/\r?\n\r?\n/);
  const [headers, body] = [mail!.slice(0, cut), mail!.slice(cut)];
  const unfolded = headers.replace(/\r?\n[ \t]+/g, " ");
  expect(unfolded).toMatch(new RegExp(`^Subject: ${title}$`, "m"));
  const link = /^List-Unsubscribe: <(https?:\/\/[^>]+)>/m.exec(unfolded)?.[1];
  expect(link).toMatch(/\/api\/newsletter\/unsubscribe\?token=/);
  expect(unfolded).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
  expect(readableMail(body)).toContain(link!);
  expect(readableMail(body)).toContain("New arrivals this week.");
  // The link works: its page asks to confirm (it is not followed here, so the address stays subscribed).
  const unsubscribePage = await page.request.get(link!);
  expect(unsubscribePage.status()).toBe(200);
});

test("networks: Instagram checked with its address → 'Networks sent!' and the footer shows it; a bad address is refused beside its field", async ({
  page,
}) => {
  await signIn(page, ADMIN);
  const headers = { authorization: `Bearer ${await tokenOf(page.request, ADMIN)}` };
  const [before] = (await (await page.request.get("/api/networks")).json()) as Networks[];
  const instagram = `https://instagram.com/voltio.${randomBytes(3).toString("hex")}`;
  const alerts: string[] = [];
  page.on("dialog", (dialog) => {
    alerts.push(dialog.message());
    void dialog.accept();
  });
  try {
    // Instagram hidden to start with, so the form starts unchecked for it.
    await page.request.post("/api/networks", { headers, data: { instagram: "" } });
    await page.goto("/admin/newsletter");
    const networks = page.getByRole("form", { name: "Social networks" });
    const box = networks.getByRole("checkbox", { name: "Instagram" });
    await expect(box).not.toBeChecked();
    await expect(networks.getByLabel("Instagram address")).toBeHidden();
    // A network with a link starts checked, its address filled in.
    for (const network of ["facebook", "twitter"] as const) {
      const name = network === "facebook" ? "Facebook" : "Twitter";
      await expect(networks.getByRole("checkbox", { name })).toBeChecked({
        checked: before![network] !== "",
      });
      if (before![network])
        await expect(networks.getByLabel(`${name} address`)).toHaveValue(before![network]);
    }

    await box.check();
    const field = networks.getByLabel("Instagram address");
    await field.fill("ftp://instagram.com/voltio");
    await networks.getByRole("button", { name: "Save networks" }).click();
    await expect(networks.getByText("Must be an http(s) address")).toBeVisible();
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expect(field).toBeFocused();
    expect(alerts).toEqual([]);

    await field.fill(instagram);
    const saved = page.waitForResponse(
      (response) => response.url().endsWith("/api/networks") && response.request().method() === "POST",
    );
    await networks.getByRole("button", { name: "Save networks" }).click();
    expect((await saved).request().postDataJSON()).toEqual({
      facebook: before!.facebook,
      twitter: before!.twitter,
      instagram,
    });
    await expect.poll(() => alerts).toEqual(["Networks sent!"]);
    // The footer of the page the admin is on follows at once, and so does the storefront's.
    await expect(page.getByRole("link", { name: "Follow us on Instagram" })).toHaveAttribute(
      "href",
      instagram,
    );
    await page.goto("/");
    await expect(
      page.getByRole("contentinfo").getByRole("link", { name: "Follow us on Instagram" }),
    ).toHaveAttribute("href", instagram);

    // Unchecked: sent empty, and gone from the footer.
    await page.goto("/admin/newsletter");
    await expect(box).toBeChecked();
    await expect(field).toHaveValue(instagram);
    await box.uncheck();
    await networks.getByRole("button", { name: "Save networks" }).click();
    await expect.poll(() => alerts).toEqual(["Networks sent!", "Networks sent!"]);
    await expect(page.getByRole("link", { name: "Follow us on Instagram" })).toHaveCount(0);
  } finally {
    // The networks are the whole store's: the links go back to what they were. No journey beside this one
    // checks them (the demo's footer is the server's tests', storefront-html.test.ts).
    await page.request.post("/api/networks", { headers, data: before });
  }
});

test("the newsletter screen, its messages and chips included, passes axe in both themes", async ({
  page,
}) => {
  await signIn(page, ADMIN);
  await page.goto("/admin/newsletter");
  await expect(
    page.getByRole("form", { name: "Social networks" }).getByRole("checkbox").first(),
  ).toBeVisible();
  await expect(page.getByRole("region", { name: "Sent newsletters" }).getByText("Loading…")).toHaveCount(0);
  await expectNoSeriousAxeViolationsInBothThemes(page);
  const newsletter = form(page);
  await newsletter.getByRole("button", { name: "Send" }).click();
  await expect(newsletter.getByText("Subject is required")).toBeVisible();
  await newsletter.getByRole("checkbox", { name: /^All subscribers/ }).check();
  await newsletter.getByLabel("Add an e-mail address").fill("someone@example.com");
  await newsletter.getByLabel("Add an e-mail address").press("Enter");
  await expectNoSeriousAxeViolationsInBothThemes(page);
});
