import { expect, test } from "./fixtures";

test("/profiles shows eight team members, each with a professional-network and a code-host link", async ({
  page,
}) => {
  await page.goto("/profiles");
  await expect(page.getByRole("heading", { level: 1, name: "About us" })).toBeVisible();
  await expect(page).toHaveTitle("About us | Voltio");
  const members = page.getByRole("main").getByRole("listitem");
  await expect(members).toHaveCount(8);
  for (const member of await members.all()) {
    const name = (await member.getByRole("heading", { level: 2 }).textContent())!;
    await expect(member.getByRole("link", { name: `${name} on LinkedIn` })).toHaveAttribute(
      "href",
      /^https:\/\/www\.linkedin\.com\/in\//,
    );
    await expect(member.getByRole("link", { name: `${name} on GitHub` })).toHaveAttribute(
      "href",
      /^https:\/\/github\.com\//,
    );
  }
});
