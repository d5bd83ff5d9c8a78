import { startTransition, StrictMode } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { BrowserRouter } from "react-router";
import { currentLanguage, startLanguage } from "./i18n";
import "./index.css";
import { AppRoutes } from "./app/router";

const queryClient = new QueryClient({
  defaultOptions: { queries: { staleTime: 30_000, refetchOnWindowFocus: false } },
});

await startLanguage();
const container = document.getElementById("root")!;
const app = (
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>
);
// The server rendered this page (entry-server.tsx): take its HTML over instead of drawing it again, unless
// it was drawn in another language than the one this browser has chosen. Either way as a transition: React
// works in slices between which the page stays responsive to taps and scrolling, not in one long task.
startTransition(() => {
  if (container.dataset.language === currentLanguage()) hydrateRoot(container, app);
  else createRoot(container).render(app);
});
