import { afterEach, describe, expect, it } from "vitest";
import { renderToString } from "react-dom/server";
import { hydrateRoot, type Root } from "react-dom/client";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, screen } from "@testing-library/react";
import type { User } from "@voltio/domain/account";
import { SESSION_KEY } from "./session-key";
import { tokens } from "./tokens";
import { useSession } from "./session";

function Greeting() {
  const { user } = useSession();
  return <p>{user ? `Hello ${user.firstName}` : "Log in to review"}</p>;
}

const withClient = (client: QueryClient) => (
  <QueryClientProvider client={client}>
    <Greeting />
  </QueryClientProvider>
);

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = "";
  tokens.clear();
});

describe("useSession while hydrating", () => {
  it("reads as a guest's, like the server's render, even when the user has already loaded", async () => {
    // The server renders every page for a guest (entry-server.tsx).
    const container = document.createElement("div");
    container.innerHTML = renderToString(withClient(new QueryClient()));
    document.body.append(container);
    expect(container.textContent).toBe("Log in to review");

    // A part of the page hydrated late (components/lazy-section.tsx): the browser has the user by then.
    tokens.set("access-token", "refresh-token");
    const client = new QueryClient();
    client.setQueryData([...SESSION_KEY, "me"], { firstName: "Ada", rol: "user" } as User);
    const errors: unknown[] = [];
    await act(async () => {
      root = hydrateRoot(container, withClient(client), {
        onRecoverableError: (error) => errors.push(error),
      });
    });
    expect(errors).toEqual([]);
    expect(screen.getByText("Hello Ada")).toBeTruthy();
  });
});
