/**
 * An admin renaming a product through one server, as bench:changes and bench:catalog's edits phase do: signs
 * in as the demo admin, reads the product once, then sends it back with a new title on each call.
 */
export async function productRenamer(base: string, productId: number) {
  const login = await fetch(`${base}/api/user/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "admin@voltio.test", password: "Admin1234!" }),
  });
  if (!login.ok) throw new Error(`admin login: ${login.status} ${await login.text()}`);
  const { accessToken } = (await login.json()) as { accessToken: string };
  const product = (await (await fetch(`${base}/api/products/${productId}`)).json()) as {
    title: string;
    [field: string]: unknown;
  };
  return {
    /** The title the product had when read. */
    title: product.title,
    /** Sends the product back under `title`; resolves once the server answered 200. */
    async rename(title: string): Promise<void> {
      const reply = await fetch(`${base}/api/products/${productId}`, {
        method: "PUT",
        headers: { "content-type": "application/json", authorization: `Bearer ${accessToken}` },
        // Pictures and categories go back as GET gave them, as SPEC's client sends them.
        body: JSON.stringify({ ...product, title }),
      });
      if (!reply.ok) throw new Error(`edit of product ${productId}: ${reply.status} ${await reply.text()}`);
    },
  };
}
