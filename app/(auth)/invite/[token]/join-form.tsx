"use client";
import { useActionState } from "react";
import { SubmitButton } from "../../../_components/submit-button";
import { joinTeamAction, type JoinTeamState } from "./actions";

/** The button that accepts an invitation, and why it was refused when it was. */
export function JoinTeamForm({ token, teamName }: { token: string; teamName: string }) {
  const [state, formAction] = useActionState<JoinTeamState, FormData>(joinTeamAction, { status: "idle" });
  return (
    <form action={formAction} className="stack">
      {state.status === "error" ? (
        <div className="alert alert-danger" role="alert">
          <p>{state.message}</p>
        </div>
      ) : null}
      <input type="hidden" name="token" value={token} />
      <SubmitButton className="btn btn-primary btn-block">Join {teamName}</SubmitButton>
    </form>
  );
}
