import { useEffect, type ReactNode } from "react";
import { Navigate, useNavigate } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import { isSecondFactorRefusal, SET_UP_SECOND_FACTOR, useSecondFactorStatus } from "@/api/second-factor";

const TO_PROFILE = { pathname: "/user" };

/**
 * In front of the back office: where the store requires admins to sign in with a second factor and this
 * session didn't, the admin is sent to the profile's 'Two-step sign-in', which says why. Any admin call the
 * server refuses for the same reason (the session changed under the page) sends them there too.
 */
export function SecondFactorGate({ children }: { children: ReactNode }) {
  const status = useSecondFactorStatus();
  const navigate = useNavigate();
  const client = useQueryClient();

  useEffect(() => {
    const send = (error: unknown) => {
      if (isSecondFactorRefusal(error))
        void navigate(TO_PROFILE, { replace: true, state: { notice: SET_UP_SECOND_FACTOR } });
    };
    const queries = client.getQueryCache().subscribe((event) => {
      if (event.type === "updated" && event.action.type === "error") send(event.action.error);
    });
    const mutations = client.getMutationCache().subscribe((event) => {
      if (event.type === "updated" && event.action.type === "error") send(event.action.error);
    });
    return () => {
      queries();
      mutations();
    };
  }, [client, navigate]);

  if (status.data?.required && !status.data.sessionVerified)
    return <Navigate to={TO_PROFILE} replace state={{ notice: SET_UP_SECOND_FACTOR }} />;
  return children;
}
