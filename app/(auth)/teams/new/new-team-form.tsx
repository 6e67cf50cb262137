"use client";

import { useActionState } from "react";
import { SubmitButton } from "../../../_components/submit-button";
import { FormStatus } from "../../../dashboard/_components/form-status";
import { createTeamAction } from "../../../dashboard/teams/actions";

export function NewTeamForm() {
  const [state, create] = useActionState(createTeamAction, { status: "idle" });
  return (
    <form action={create} className="stack">
      <label htmlFor="team-name">Team name</label>
      <input id="team-name" name="name" className="input" maxLength={100} required defaultValue={state.values?.name} />
      <SubmitButton>Create the team</SubmitButton>
      <FormStatus state={state} />
    </form>
  );
}
