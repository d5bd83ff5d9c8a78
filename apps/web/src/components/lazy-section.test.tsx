import { afterEach, describe, expect, it } from "vitest";
import { useState, type ComponentType } from "react";
import { renderToString } from "react-dom/server";
import { hydrateRoot, type Root } from "react-dom/client";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { lazySection, loadLazySections } from "./lazy-section";

/** The section's real content: a counter, so a test can tell a hydrated (working) button from dead HTML. */
function Reviews({ title }: { title: string }) {
  const [count, setCount] = useState(0);
  return (
    <section aria-label={title}>
      <button type="button" onClick={() => setCount(count + 1)}>
        Helpful ({count})
      </button>
    </section>
  );
}

/** A chunk that arrives when the test says so, with a count of how often it was asked for. */
function chunk() {
  let arrive!: (component: ComponentType<{ title: string }>) => void;
  const counter = { loads: 0 };
  const Section = lazySection(() => {
    counter.loads++;
    return new Promise<ComponentType<{ title: string }>>((resolve) => (arrive = resolve));
  });
  return {
    Section,
    counter,
    arrive: (component = Reviews) => act(async () => arrive(component)),
  };
}

function Page({ Section }: { Section: ComponentType<{ title: string }> }) {
  return (
    <main>
      <h1>Wireless mouse</h1>
      <Section title="Reviews" />
    </main>
  );
}

/** The page as the server sent it: its HTML in the document, not yet hydrated. */
async function serverRendered() {
  const server = lazySection(() => Promise.resolve(Reviews));
  await loadLazySections();
  const container = document.createElement("div");
  container.innerHTML = renderToString(<Page Section={server} />);
  document.body.append(container);
  return { container, serverButton: screen.getByRole("button", { name: "Helpful (0)" }) };
}

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = "";
  cleanup();
});

describe("lazySection", () => {
  it("the server renders the real content once the sections are loaded, not the empty fallback", async () => {
    let loads = 0;
    const load = () => {
      loads++;
      return Promise.resolve(Reviews);
    };
    // Not loaded: renderToString sends the Suspense fallback, nothing.
    expect(renderToString(<Page Section={lazySection(load)} />)).not.toContain("Helpful");

    const Section = lazySection(load);
    await loadLazySections();
    expect(renderToString(<Page Section={Section} />)).toContain(
      '<section aria-label="Reviews"><button type="button">Helpful (<!-- -->0<!-- -->)</button></section>',
    );
    await loadLazySections();
    expect(loads).toBe(2);
  });

  it("the browser keeps the server's HTML until the chunk arrives, then hydrates those same nodes", async () => {
    const { container, serverButton } = await serverRendered();

    const { Section, counter, arrive } = chunk();
    const errors: unknown[] = [];
    await act(async () => {
      root = hydrateRoot(container, <Page Section={Section} />, {
        onRecoverableError: (error) => errors.push(error),
      });
    });
    expect(counter.loads).toBe(1);
    // Still the server's button, not yet working.
    expect(screen.getByRole("button", { name: "Helpful (0)" })).toBe(serverButton);
    fireEvent.click(serverButton);
    expect(serverButton.textContent).toBe("Helpful (0)");

    await arrive();
    fireEvent.click(serverButton);
    expect(serverButton.textContent).toBe("Helpful (1)");
    expect(screen.getByRole("button")).toBe(serverButton);
    expect(errors).toEqual([]);
  });

  it("a page the browser draws shows the section when its code arrives, fetched once however often asked", async () => {
    const { Section, counter, arrive } = chunk();
    const { container } = render(<Page Section={Section} />);
    expect(container.textContent).toBe("Wireless mouse");
    await arrive();
    expect(screen.getByRole("region", { name: "Reviews" })).toBeTruthy();
    expect(counter.loads).toBe(1);
    // Loaded: it renders at once from then on, with no empty first frame.
    cleanup();
    render(<Page Section={Section} />);
    expect(screen.getByRole("button", { name: "Helpful (0)" })).toBeTruthy();
  });

  it("`until` keeps the server's HTML without asking for the code; once it settles the section hydrates", async () => {
    const { container, serverButton } = await serverRendered();

    const { Section, counter, arrive } = chunk();
    let scrolledNear!: () => void;
    const near = new Promise<void>((resolve) => (scrolledNear = resolve));
    const errors: unknown[] = [];
    await act(async () => {
      root = hydrateRoot(
        container,
        <main>
          <h1>Wireless mouse</h1>
          <Section title="Reviews" until={near} />
        </main>,
        { onRecoverableError: (error) => errors.push(error) },
      );
    });
    expect(counter.loads).toBe(0);
    expect(screen.getByRole("button", { name: "Helpful (0)" })).toBe(serverButton);

    await act(async () => scrolledNear());
    expect(counter.loads).toBe(1);
    expect(screen.getByRole("button", { name: "Helpful (0)" })).toBe(serverButton);
    await arrive();
    fireEvent.click(serverButton);
    expect(serverButton.textContent).toBe("Helpful (1)");
    expect(screen.getByRole("button")).toBe(serverButton);
    expect(errors).toEqual([]);
  });
});
