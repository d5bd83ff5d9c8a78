import { axeViolations } from "./axe";
import type { Locator } from "@playwright/test";
import { expect, newShopper, payByCard, signIn, test, tokenOf } from "./fixtures";

/**
 * docs/product-rules.md §1 Product detail 'Reviews', §8 Review: a customer buys with the sandbox card,
 * reviews the product, edits, cancels (the saved review comes back), submits, and deletes; guests and
 * shoppers who didn't buy it are told why they can't review.
 */

/** Clicks the n-th star, as a person does (the radio itself is for the keyboard and screen readers). */
const pickStars = (form: Locator, stars: number) =>
  form
    .locator("label")
    .filter({ hasText: `${stars} star` })
    .click();

/** A demo product no other journey reviews. */
const KINGSTON = { id: 27, title: /^Kingston 120GB A400/ };

test("buy with the sandbox card, review, edit, cancel restores, submit, delete", async ({ page }) => {
  const shopper = await newShopper(page.request, { address: true });
  const bought = await page.request.post("/api/order", {
    headers: { authorization: `Bearer ${await tokenOf(page.request, shopper)}` },
    data: { status: "pending", productId: KINGSTON.id, amount: 1 },
  });
  expect(bought.status(), await bought.text()).toBe(201);
  await signIn(page, shopper);
  await page.goto("/purchase");
  await page.getByRole("button", { name: /^Pay \$/ }).click();
  await payByCard(page, "4242 4242 4242 4242");
  await expect(page.getByRole("heading", { name: "Purchase successful" })).toBeVisible();

  await page.goto(`/product/${KINGSTON.id}`);
  const reviews = page.getByRole("region", { name: "Reviews" });
  const form = reviews.getByRole("form", { name: "Review this product" });
  // Without stars the form asks for them; the text alone isn't enough.
  await form.getByLabel("Your review").fill("Fast and quiet.");
  await form.getByRole("button", { name: "SUBMIT" }).click();
  await expect(form.getByRole("alert")).toHaveText("Pick a rating from 1 to 5 stars");
  await pickStars(form, 4);
  await expect(form.getByRole("radio", { name: "4 stars" })).toBeChecked();
  await form.getByRole("button", { name: "SUBMIT" }).click();

  // The page reloads with the review, read-only, and the rating under the title.
  await expect(reviews.getByText("Fast and quiet.")).toBeVisible();
  await expect(reviews.getByRole("img", { name: "4 out of 5 stars" })).toBeVisible();
  await expect(page.getByText("(1 review)")).toBeVisible();
  const violations = await axeViolations(page, { include: "#reviews-heading" });
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical")).toEqual([]);

  await reviews.getByRole("button", { name: "EDIT" }).click();
  await form.getByLabel("Your review").fill("Changed my mind.");
  await pickStars(form, 2);
  await form.getByRole("button", { name: "CANCEL" }).click();
  await expect(reviews.getByText("Fast and quiet.")).toBeVisible();
  await expect(reviews.getByRole("img", { name: "4 out of 5 stars" })).toBeVisible();

  await reviews.getByRole("button", { name: "EDIT" }).click();
  await expect(form.getByLabel("Your review")).toHaveValue("Fast and quiet.");
  await form.getByLabel("Your review").fill("Fast, quiet, <b>no</b> markup.");
  await pickStars(form, 5);
  await form.getByRole("button", { name: "SUBMIT" }).click();
  // Stored and shown as text.
  await expect(reviews.getByText("Fast, quiet, <b>no</b> markup.")).toBeVisible();
  await expect(reviews.getByRole("img", { name: "5 out of 5 stars" })).toBeVisible();

  await reviews.getByRole("button", { name: "Delete" }).click();
  await page
    .getByRole("alertdialog", { name: "Delete this review ?" })
    .getByRole("button", { name: "Accept" })
    .click();
  await expect(reviews.getByText("No reviews yet.")).toBeVisible();
  await expect(form).toBeVisible();
});

test("a guest is asked to log in; a shopper who didn't buy the product is told only buyers review", async ({
  page,
}) => {
  await page.goto(`/product/${KINGSTON.id}`);
  const reviews = page.getByRole("region", { name: "Reviews" });
  await expect(reviews.getByRole("link", { name: "Log in to review" })).toHaveAttribute("href", "/login");

  await signIn(page, await newShopper(page.request));
  await page.goto(`/product/${KINGSTON.id}`);
  await expect(reviews.getByText("Only buyers can review")).toBeVisible();
  await expect(reviews.getByRole("form")).toHaveCount(0);
});
