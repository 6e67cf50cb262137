"use client";
import { useActionState } from "react";
import { FormField } from "../../../_components/form-field";
import { SubmitButton } from "../../../_components/submit-button";
import { FormStatus } from "../../_components/form-status";
import type { ActionState } from "../../_lib/action";
import { deleteSignInAction } from "../delete-sign-in/actions";
import { deleteTeamAction } from "./actions";

export function DeleteTeamForm({ name }: { name: string }) {
  const [state, formAction] = useActionState<ActionState, FormData>(deleteTeamAction, { status: "idle" });
  return (
    <form action={formAction} className="card-body stack" noValidate>
      <FormField id="confirmation" label={`Type the team's name, ${name}, to confirm`}>
        <input id="confirmation" name="confirmation" className="input" autoComplete="off" required />
      </FormField>
      <div className="row">
        <SubmitButton pendingLabel="Deleting…">Delete this team</SubmitButton>
        <FormStatus state={state} />
      </div>
    </form>
  );
}

export function DeleteSignInForm() {
  const [state, formAction] = useActionState<ActionState, FormData>(deleteSignInAction, { status: "idle" });
  return (
    <form action={formAction} className="card-body stack">
      <div className="row">
        <SubmitButton pendingLabel="Deleting…">Delete my sign-in</SubmitButton>
        <FormStatus state={state} />
      </div>
    </form>
  );
}
